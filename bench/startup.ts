// Start-up, as a person and a script see it, each against a bare `node -e 0` measured in the same
// run, interleaved, medians: launch to exit for `--version`, `--help` and a piped run that starts,
// reads EOF on an empty stdin and exits (with a config file); launch to the first prompt on a
// pseudo-terminal (config file, no MCP servers; and with three slow MCP servers configured).

import { spawn as spawnPty } from 'node-pty';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median } from './stats.js';

const aish = path.join(process.cwd(), 'dist', 'aish.js');

export interface Figure {
  name: string;
  ms: number;
  bareMs: number;
  ratio: number;
}

interface BenchHome {
  cwd: string;
  env: Record<string, string>;
}

const homes: string[] = [];
process.on('exit', () => {
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});

/** A temp HOME with `<cwd>/.aishrc.json` holding `config`; removed when the bench exits. */
export function benchHome(config: unknown): BenchHome {
  const home = mkdtempSync(path.join(tmpdir(), 'aish-bench-'));
  homes.push(home);
  const cwd = path.join(home, 'project');
  mkdirSync(cwd);
  writeFileSync(path.join(cwd, '.aishrc.json'), JSON.stringify(config));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
  };
  return { cwd, env };
}

function since(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Launch to exit of `node args`, stdin an empty pipe. */
function timeExit(args: string[], where?: BenchHome): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd: where?.cwd, env: where?.env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.end();
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(since(t0)) : reject(new Error(`node ${args.join(' ')} exited with ${code}`))));
  });
}

/** The pause after a pty run ends: its MCP servers are still exiting. */
const SETTLE_MS = 300;

/** Launch to the first prompt on a pseudo-terminal. */
function timePrompt(where: BenchHome): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const term = spawnPty(process.execPath, [aish], { cwd: where.cwd, env: where.env, cols: 100, rows: 30 });
    let seen = '';
    const timer = setTimeout(() => {
      term.kill();
      reject(new Error(`no prompt within 10 s; screen: ${seen}`));
    }, 10_000);
    term.onData((d) => {
      seen += d;
      if (seen.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').includes(']> ')) {
        const ms = since(t0);
        clearTimeout(timer);
        // The next run starts once this aish (and what it started) has gone, not during its exit.
        term.onExit(() => setTimeout(() => resolve(ms), SETTLE_MS));
        term.kill();
      }
    });
  });
}

/**
 * Each case, right after a bare start (`bare`), round by round; one warm-up round first. The bare
 * start runs before every case, so a burst of load meets both, and in the cases' environment: an
 * inherited NODE_EXTRA_CA_CERTS alone made `node -e 0` 50 ms slower than any of them.
 */
async function interleaved(cases: Array<[string, () => Promise<number>]>, runs: number, bare: () => Promise<number>): Promise<Figure[]> {
  const bareSamples: number[] = [];
  const samples = cases.map(() => [] as number[]);
  for (let round = -1; round < runs; round++) {
    for (const [i, [, run]] of cases.entries()) {
      const b = await bare();
      const ms = await run();
      if (round < 0) continue;
      bareSamples.push(b);
      samples[i]!.push(ms);
    }
  }
  const bareMs = median(bareSamples);
  return cases.map(([name], i) => {
    const ms = median(samples[i]!);
    return { name, ms, bareMs, ratio: ms / bareMs };
  });
}

export async function benchStartup(runs = 21, slowMcp?: Record<string, unknown>): Promise<Figure[]> {
  const config = { models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'bench' } }, shell: { confirm_cmd: true } };
  const plain = benchHome(config);
  const cases: Array<[string, () => Promise<number>]> = [
    ['--version, launch to exit', () => timeExit([aish, '--version'], plain)],
    ['--help, launch to exit', () => timeExit([aish, '--help'], plain)],
    ['piped, empty stdin: launch to exit', () => timeExit([aish], plain)],
    ['pty, launch to first prompt', () => timePrompt(plain)],
  ];
  if (slowMcp) {
    const withMcp = benchHome({ ...config, mcp: { servers: slowMcp } });
    cases.push(['pty, 3 MCP servers: launch to first prompt', () => timePrompt(withMcp)]);
  }
  return interleaved(cases, runs, () => timeExit(['-e', '0'], plain));
}
