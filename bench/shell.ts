// What a typed shell line costs aish: piped runs of 300 lines of `true` against runs of one, the
// difference per further line, against one `bash -c true` spawned from Node in the same run (what
// the per-line runner of aish's first version paid at least). The session's shell runs the lines;
// the per-line runner (`shell.session: false`) is measured beside it for scale.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { benchHome, timeExit } from './startup.js';
import { median } from './stats.js';

const aish = path.join(process.cwd(), 'dist', 'aish.js');

export interface ShellFigure {
  name: string;
  perLineMs: number;
  spawnMs: number;
  ratio: number;
}

function timeSpawn(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('bash', ['-c', 'true'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
  });
}

export async function benchShell(rounds = 7, lines = 300): Promise<ShellFigure[]> {
  const config = { models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'bench' } } };
  const cases = [
    { name: `piped, typed shell line (true), session`, where: benchHome(config) },
    { name: `piped, typed shell line (true), per-line runner`, where: benchHome({ ...config, shell: { session: false } }) },
  ];
  const many = 'true\n'.repeat(lines);
  const out: ShellFigure[] = [];
  for (const c of cases) {
    const spawns: number[] = [];
    const long: number[] = [];
    const short: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // Interleaved, so a slow moment of the machine falls on every series alike.
      for (let j = 0; j < 10; j++) spawns.push(await timeSpawn());
      long.push(await timeExit([aish], c.where, many));
      short.push(await timeExit([aish], c.where, 'true\n'));
    }
    const perLineMs = (median(long) - median(short)) / (lines - 1);
    const spawnMs = median(spawns);
    out.push({ name: c.name, perLineMs, spawnMs, ratio: perLineMs / spawnMs });
  }
  return out;
}
