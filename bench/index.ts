// `npm run bench`: every benchmark, each printing its figures and its ratio against a baseline
// measured in the same run. Figures, not assertions: these machines are shared and noisy.

import { benchStartup } from './startup.js';

const startup = await benchStartup();
console.log(
  `startup      launch to prompt ${startup.readyMs.toFixed(1)} ms (median of 21) | bare node -e 0 ${startup.bareMs.toFixed(1)} ms | ratio ${startup.ratio.toFixed(2)} (target <= 2.0)`,
);

const { benchStream } = await import('./stream.js');
const stream = await benchStream();
console.log(
  `stream       20 000 deltas through the broker ${stream.brokerMs.toFixed(1)} ms CPU | bare eventsource-parser loop ${stream.bareMs.toFixed(1)} ms | ratio ${stream.ratio.toFixed(2)} (target <= 1.5)`,
);
console.log(`first char   first byte on the socket to first text event: ${stream.firstByteToFirstCharMs.toFixed(2)} ms median (target < 2 ms)`);

const { benchMcp } = await import('./mcp.js');
const mcp = await benchMcp();
console.log(
  `mcp call     callTool through aish's session ${mcp.sessionMs.toFixed(2)} ms | raw SDK client ${mcp.rawMs.toFixed(2)} ms | ratio ${mcp.ratio.toFixed(2)} (target <= 1.1)`,
);
console.log(
  `mcp start    three servers connected in parallel ${mcp.startupThreeMs.toFixed(0)} ms | slowest single ${mcp.slowestSingleMs.toFixed(0)} ms | sum of singles ${mcp.sumSingleMs.toFixed(0)} ms`,
);

const { benchResume } = await import('./resume.js');
for (const r of await benchResume()) {
  console.log(
    `resume       ${String(r.lines).padStart(6)} lines ${r.loadMs.toFixed(1).padStart(7)} ms | bare readline+JSON.parse ${r.bareMs.toFixed(1).padStart(7)} ms | ratio ${(r.loadMs / r.bareMs).toFixed(2)} | ${r.keptTurns} turns kept, heap after load ${r.heapMb.toFixed(1)} MB (target: linear, 100 000 lines < 1 s)`,
  );
}
