// What one long line costs aish's piped output (issue 32: a 5 MB line took 10 s, 20 MB did not end
// in 100 s): a command printing N bytes as one line, launch to exit with piped stdin, against the
// same bytes folded into lines of 100 in the same run. aish shows both and captures both for the
// model; only the shape of the output differs, so the ratio should stay near 1 as N grows.

import path from 'node:path';
import { benchHome, timeExit } from './startup.js';
import { median } from './stats.js';

const aish = path.join(process.cwd(), 'dist', 'aish.js');

export interface LongLineFigure {
  megabytes: number;
  lineMs: number;
  linesMs: number;
  ratio: number;
}

export async function benchLongLine(sizes = [5, 20], rounds = 3): Promise<LongLineFigure[]> {
  const where = benchHome({ models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'bench' } } });
  const out: LongLineFigure[] = [];
  for (const megabytes of sizes) {
    const bytes = megabytes * 1_000_000;
    const oneLine = `head -c ${bytes} /dev/zero | tr '\\0' x; echo\n`;
    const folded = `head -c ${bytes} /dev/zero | tr '\\0' x | fold -w 100; echo\n`;
    const line: number[] = [];
    const lines: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // Interleaved, so a slow moment of the machine falls on both alike.
      line.push(await timeExit([aish], where, oneLine));
      lines.push(await timeExit([aish], where, folded));
    }
    out.push({ megabytes, lineMs: median(line), linesMs: median(lines), ratio: median(line) / median(lines) });
  }
  return out;
}
