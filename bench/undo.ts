// What a checkpoint costs (issue 26): a `CMD:` `true` on a tree of 5 000 small files, with
// checkpoints on and off, the first time (a new store: every file read and packed) and the second
// (the store's stat cache: one directory walk). Measured end to end from a loopback model: the time
// from the end of the reply proposing `true` to the next request, which holds the checkpoint
// before, the command, the checkpoint after and the next question; on minus off is what
// checkpoints add. Also the snapshots alone, in process, for the same tree.

import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Checkpoints } from '../src/undo/checkpoints.js';
import { shadowEnv } from '../src/undo/shadow-git.js';
import { benchHome } from './startup.js';
import { median } from './stats.js';

const aish = path.join(process.cwd(), 'dist', 'aish.js');

export interface UndoFigures {
  files: number;
  rounds: number;
  /** End to end, ms: the gap after the first and the second `CMD: true`, checkpoints on and off. */
  first: { on: number; off: number };
  second: { on: number; off: number };
  /** The first time again, with a model that takes `modelMs` to answer (the first snapshot is made meanwhile). */
  firstSlowModel: { on: number; off: number };
  modelMs: number;
  /** In process, ms: a checkpoint around nothing, on a new store and again (both snapshots), and the part before the command (what it waits for). */
  inProcess: { first: number; second: number; secondBefore: number };
  /** One `git ls-files --others --modified` walk of the same tree against a full index, spawned from Node: the floor of a snapshot. */
  walkMs: number;
}

/** A loopback model that answers each request with the next reply, and notes when each came and went. */
async function timedModel(replies: string[], delayMs: number) {
  const arrived: number[] = [];
  const answered: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      arrived.push(performance.now());
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      const text = replies[arrived.length - 1] ?? 'ok';
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`);
      res.end('data: [DONE]\n\n', () => answered.push(performance.now()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, arrived, answered, close: () => server.close() };
}

/**
 * A tree of `files` small files, last written an hour ago as a working tree's files are: written
 * in the second the store's index is, every one would be "racily clean" to git, whose walk then
 * reads each file's content again instead of trusting its stat.
 */
function plantTree(dir: string, files: number): void {
  const perDir = 100;
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (let d = 0; d < files / perDir; d++) {
    mkdirSync(path.join(dir, `d${d}`), { recursive: true });
    for (let f = 0; f < perDir; f++) {
      const file = path.join(dir, `d${d}`, `f${f}.txt`);
      writeFileSync(file, `file ${d} ${f}\n`);
      utimesSync(file, anHourAgo, anHourAgo);
    }
  }
}

/** One aish run: two `CMD: true` and a last question; the gaps after each CMD reply. */
async function gaps(undo: boolean, files: number, delayMs = 0): Promise<[number, number]> {
  const model = await timedModel(['CMD: true\n', 'CMD: true\n', 'ok'], delayMs);
  const where = benchHome({ models: { fast: { endpoint: model.url, model: 'bench' } }, shell: { confirm_cmd: false }, undo: { enabled: undo } });
  plantTree(where.cwd, files);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [aish], { cwd: where.cwd, env: where.env, stdio: ['pipe', 'ignore', 'ignore'] });
      child.stdin.end('please one\nplease two\nplease three\n');
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`aish exited with ${code}`))));
    });
    if (model.arrived.length !== 3) throw new Error(`expected 3 requests, got ${model.arrived.length}`);
    return [model.arrived[1]! - model.answered[0]!, model.arrived[2]! - model.answered[1]!];
  } finally {
    model.close();
    rmSync(path.dirname(where.cwd), { recursive: true, force: true });
  }
}

/** The snapshots alone: a checkpoint around nothing, on a new store and then again; and one bare walk of git. */
async function inProcess(files: number): Promise<[number, number, number, number]> {
  const where = benchHome({});
  plantTree(where.cwd, files);
  const undo = new Checkpoints({
    config: { enabled: true, typed: false, keep: 50, max_files: 20_000, max_file_bytes: 10 * 1024 * 1024 },
    stateDir: path.join(where.env.XDG_STATE_HOME!, 'aish'),
    env: where.env,
    status: (m) => console.error(m),
  });
  let before = 0;
  const once = async () => {
    const t0 = performance.now();
    await undo.around({ command: 'true', origin: 'cmd' }, where.cwd, async () => void (before = performance.now() - t0));
    await undo.settled();
    return performance.now() - t0;
  };
  try {
    const first = await once();
    const second = await once();
    const secondBefore = before;
    // The same walk the store's snapshot makes, without aish around it.
    const store = path.join(where.env.XDG_STATE_HOME!, 'aish', 'undo');
    const gitDir = path.join(store, readdirSync(store)[0]!, 'git');
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const env = shadowEnv({ gitDir, workTree: where.cwd }, where.env, path.dirname(gitDir));
      const child = spawn('git', ['ls-files', '-z', '-t', '--others', '--modified', '--exclude-standard'], { cwd: where.cwd, env, stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', () => resolve());
    });
    return [first, second, performance.now() - t0, secondBefore];
  } finally {
    rmSync(path.dirname(where.cwd), { recursive: true, force: true });
  }
}

export async function benchUndo(rounds = 7, files = 5000, modelMs = 300): Promise<UndoFigures> {
  const on: [number, number][] = [];
  const off: [number, number][] = [];
  const slowOn: [number, number][] = [];
  const slowOff: [number, number][] = [];
  const local: [number, number, number, number][] = [];
  for (let i = 0; i < rounds; i++) {
    // Interleaved, so a slow moment of the machine falls on every series alike.
    // First, after a pause: the aish runs before it leave shells and servers ending behind them.
    await new Promise((resolve) => setTimeout(resolve, 300));
    local.push(await inProcess(files));
    on.push(await gaps(true, files));
    off.push(await gaps(false, files));
    slowOn.push(await gaps(true, files, modelMs));
    slowOff.push(await gaps(false, files, modelMs));
  }
  return {
    files,
    rounds,
    first: { on: median(on.map((g) => g[0])), off: median(off.map((g) => g[0])) },
    second: { on: median(on.map((g) => g[1])), off: median(off.map((g) => g[1])) },
    firstSlowModel: { on: median(slowOn.map((g) => g[0])), off: median(slowOff.map((g) => g[0])) },
    modelMs,
    inProcess: { first: median(local.map((g) => g[0])), second: median(local.map((g) => g[1])), secondBefore: median(local.map((g) => g[3])) },
    walkMs: median(local.map((g) => g[2])),
  };
}
