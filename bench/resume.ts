// Resume: time to load session logs of 1 000, 10 000 and 100 000 lines, against a bare readline
// loop over the same file (JSON.parse per line, nothing kept), and the heap the loader holds
// (bounded by the context budget, not the file size).

import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { loadSession } from '../src/history/load.js';
import { median } from './stats.js';

function writeSession(file: string, lines: number): void {
  const out: string[] = [JSON.stringify({ meta: { started: '2026-01-01T00:00:00.000Z', model: 'fast', aish_version: '0.1.0', format: 1 } })];
  for (let i = 1; i < lines; i++) {
    out.push(JSON.stringify(i % 2 === 1 ? { role: 'user', content: `question ${i} ${'x'.repeat(120)}` } : { role: 'assistant', content: `answer ${i} ${'y'.repeat(300)}` }));
  }
  writeFileSync(file, `${out.join('\n')}\n`);
}

async function bareLoop(file: string): Promise<number> {
  let n = 0;
  const rl = readline.createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of rl) if (JSON.parse(line)) n++;
  return n;
}

async function time(fn: () => Promise<unknown>, runs: number): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

export interface ResumeFigure {
  lines: number;
  loadMs: number;
  bareMs: number;
  keptTurns: number;
  heapMb: number;
}

export async function benchResume(): Promise<ResumeFigure[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'aish-bench-resume-'));
  const figures: ResumeFigure[] = [];
  try {
    for (const lines of [1_000, 10_000, 100_000]) {
      const file = path.join(dir, `${lines}.jsonl`);
      writeSession(file, lines);
      const runs = lines >= 100_000 ? 5 : 11;
      const bareMs = await time(() => bareLoop(file), runs);
      const loadMs = await time(() => loadSession(file, { keepTurns: 160 }), runs);
      global.gc?.();
      const before = process.memoryUsage().heapUsed;
      const loaded = await loadSession(file, { keepTurns: 160 });
      const heapMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
      figures.push({ lines, loadMs, bareMs, keptTurns: loaded.turns.length, heapMb });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
