// Start-up, as a person and a script see it, each against a bare `node -e 0` measured in the same
// run, interleaved, medians: launch to exit for `--version`, `--help`, a piped run that starts,
// reads EOF on an empty stdin and exits (with a config file found, and given with --config) and
// one that runs a line; on a pseudo-terminal, launch to the first prompt and to the echo of a key
// typed at it (config file, no MCP servers; and the prompt with three slow MCP servers
// configured), against `node -e 0` run on a pseudo-terminal the same way.

import { spawn as spawnPty } from '@lydell/node-pty';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median } from './stats.js';

const aish = path.join(process.cwd(), 'dist', 'aish.js');

export interface Figure {
  name: string;
  ms: number;
  bareMs: number;
  /** Where the baseline `node -e 0` ran: on a pipe, or on a pseudo-terminal as the case did. */
  bare: 'pipe' | 'pty';
  ratio: number;
}

export interface BenchHome {
  cwd: string;
  env: Record<string, string>;
}

const homes: string[] = [];
process.on('exit', () => {
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});

/** A temp HOME with the person's own `~/.aishrc.json` holding `config` (a file in the project would
 * wait for trust), or no config file when it is undefined; bash as the shell; removed when the
 * bench exits. */
export function benchHome(config: unknown): BenchHome {
  const home = mkdtempSync(path.join(tmpdir(), 'aish-bench-'));
  homes.push(home);
  const cwd = path.join(home, 'project');
  mkdirSync(cwd);
  if (config !== undefined) writeFileSync(path.join(home, '.aishrc.json'), JSON.stringify(config));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SHELL: '/bin/bash',
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

/** Launch to exit of `node args`, stdin a pipe that gives `input` and ends. */
export function timeExit(args: string[], where?: BenchHome, input = '', node = process.execPath): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(node, args, { cwd: where?.cwd, env: where?.env, stdio: ['pipe', 'ignore', 'ignore'] });
    // A child that exits before reading its input (--version) must not end the bench with EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(since(t0)) : reject(new Error(`node ${args.join(' ')} exited with ${code}`))));
  });
}

/** The pause after a pty run ends: its MCP servers are still exiting. */
const SETTLE_MS = 300;

/** What `timePrompt` waits for after the launch: the prompt, or the echo of a key typed at it. */
type PromptMark = 'prompt' | 'echo';

const visible = (screen: string) => screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

/**
 * Launch to the first prompt on a pseudo-terminal (`mark` 'prompt'), or to the echo of a key typed
 * as soon as the prompt shows ('echo'): the line editor taking keys.
 */
function timePrompt(where: BenchHome, mark: PromptMark, node = process.execPath): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const term = spawnPty(node, [aish], { cwd: where.cwd, env: where.env, cols: 100, rows: 30 });
    let seen = '';
    let typed = false;
    const timer = setTimeout(() => {
      term.kill();
      reject(new Error(`no ${mark} within 10 s; screen: ${seen}`));
    }, 10_000);
    const done = () => {
      const ms = since(t0);
      clearTimeout(timer);
      // The next run starts once this aish (and what it started) has gone, not during its exit.
      term.onExit(() => setTimeout(() => resolve(ms), SETTLE_MS));
      term.kill();
    };
    term.onData((d) => {
      seen += d;
      const text = visible(seen);
      if (!text.includes(']> ')) return;
      if (mark === 'prompt') return done();
      if (!typed) {
        typed = true;
        term.write('x');
      }
      // The route sign may change with the word typed (`]?` once `x` reads as a question to the model).
      if (/\][>?] x$/.test(text)) done();
    });
  });
}

/** `node -e 0` on a pseudo-terminal like the one above, launch to exit: the pty's own cost included. */
function timeBarePty(where: BenchHome, node = process.execPath): Promise<number> {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const term = spawnPty(node, ['-e', '0'], { cwd: where.cwd, env: where.env, cols: 100, rows: 30 });
    term.onExit(() => {
      const ms = since(t0);
      setTimeout(() => resolve(ms), SETTLE_MS);
    });
  });
}

/** A start-up case and the bare start it is compared with: `node -e 0` on a pipe or on a pty. */
interface Case {
  name: string;
  run: () => Promise<number>;
  bare: 'pipe' | 'pty';
}

/**
 * Each case, right after a bare start of its kind, round by round; one warm-up round first. The
 * bare start runs before every case, so a burst of load meets both, and in the cases'
 * environment: an inherited NODE_EXTRA_CA_CERTS alone made `node -e 0` 50 ms slower than any of
 * them.
 */
async function interleaved(cases: Case[], runs: number, bare: Record<Case['bare'], () => Promise<number>>): Promise<Figure[]> {
  const bareSamples: Record<Case['bare'], number[]> = { pipe: [], pty: [] };
  const samples = cases.map(() => [] as number[]);
  for (let round = -1; round < runs; round++) {
    for (const [i, c] of cases.entries()) {
      const b = await bare[c.bare]();
      const ms = await c.run();
      if (round < 0) continue;
      bareSamples[c.bare].push(b);
      samples[i]!.push(ms);
    }
  }
  return cases.map((c, i) => {
    const ms = median(samples[i]!);
    const bareMs = median(bareSamples[c.bare]);
    return { name: c.name, ms, bareMs, bare: c.bare, ratio: ms / bareMs };
  });
}

export async function benchStartup(runs = 21, slowMcp?: Record<string, unknown>, node = process.execPath): Promise<Figure[]> {
  const config = { models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'bench' } }, shell: { confirm_cmd: true } };
  const plain = benchHome(config);
  const given = path.join(plain.env.HOME!, 'given.json');
  writeFileSync(given, JSON.stringify(config));
  const cases: Case[] = [
    { name: '--version, launch to exit', run: () => timeExit([aish, '--version'], plain, '', node), bare: 'pipe' },
    { name: '--help, launch to exit', run: () => timeExit([aish, '--help'], plain, '', node), bare: 'pipe' },
    { name: 'piped, empty stdin: launch to exit', run: () => timeExit([aish], plain, '', node), bare: 'pipe' },
    // The same config given with --config (read directly, not searched for), as issue 36 measured it.
    { name: 'piped, empty stdin, --config: launch to exit', run: () => timeExit([aish, '--config', given], plain, '', node), bare: 'pipe' },
    { name: 'piped, one line (echo hi): launch to exit', run: () => timeExit([aish], plain, 'echo hi\n', node), bare: 'pipe' },
    { name: 'pty, launch to first prompt', run: () => timePrompt(plain, 'prompt', node), bare: 'pty' },
    { name: 'pty, launch to first key echoed', run: () => timePrompt(plain, 'echo', node), bare: 'pty' },
  ];
  if (slowMcp) {
    const withMcp = benchHome({ ...config, mcp: { servers: slowMcp } });
    cases.push({ name: 'pty, 3 MCP servers: launch to first prompt', run: () => timePrompt(withMcp, 'prompt', node), bare: 'pty' });
  }
  // Node 22 and later have a compile cache of their own: the same starts with it instead of
  // aish's (code-cache.ts, AISH_COMPILE_CACHE=node), to see which is faster on that Node.
  if (hasCompileCache(node)) {
    const nodeCache = { ...plain, env: { ...plain.env, AISH_COMPILE_CACHE: 'node' } };
    cases.push(
      { name: "piped, empty stdin, Node's compile cache", run: () => timeExit([aish], nodeCache, '', node), bare: 'pipe' },
      { name: "piped, one line (echo hi), Node's compile cache", run: () => timeExit([aish], nodeCache, 'echo hi\n', node), bare: 'pipe' },
      { name: "pty, first prompt, Node's compile cache", run: () => timePrompt(nodeCache, 'prompt', node), bare: 'pty' },
    );
  }
  return interleaved(cases, runs, { pipe: () => timeExit(['-e', '0'], plain, '', node), pty: () => timeBarePty(plain, node) });
}

/** Whether `node` has `module.enableCompileCache` (Node 22.1 and later). */
export function hasCompileCache(node: string): boolean {
  const r = spawnSync(node, ['-p', 'typeof require("node:module").enableCompileCache'], { encoding: 'utf8' });
  return r.stdout.trim() === 'function';
}
