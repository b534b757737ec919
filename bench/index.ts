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
