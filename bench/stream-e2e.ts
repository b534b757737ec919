// Streaming, end to end and as its own process: `aish -p` against a loopback model server replaying
// a 100 000-delta reply (7 characters each, markdown), in piped mode and on a pseudo-terminal
// (markdown rendering), against bench/bare-client.mjs (fetch + eventsource-parser, text to stdout)
// in the same mode. Each figure is the child's CPU beyond the same run with a one-delta reply, so
// launch and exit cancel out; the peak RSS of the big reply is compared with the one-delta run
// (idle) and with the reply's own size, and the peak of a reply half as long gives what each
// further character costs; piped, also the same question asked at the REPL (a line on stdin).
// Medians of interleaved runs. Separate runs with a preload
// (retained-heap.cjs) give the live heap after a full GC once the response has arrived, while the
// reply is still held, against the same for the one-delta reply: what is kept, not what is garbage.
// The same for the half-size reply gives the heap kept per further character, free of what any
// reply costs once (JIT code and feedback, highlight.js loaded by the first code fence).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ModelServer, type ScriptedResponse } from '../test/support/model-server.js';
import { measureChild, type ChildRun } from './child.js';
import { benchHome } from './startup.js';
import { median } from './stats.js';

export const DELTAS = 100_000;
const DELTA_CHARS = 7;
const RUNS = 7;
/** Runs of the heap figure: a full GC's live heap hardly varies from run to run. */
export const HEAP_RUNS = 3;

/** aish's prompt at the end of what it drew (its default prompt, whatever the route sign). */
const PROMPT = /\[aish:[^\]\n]*\][>$?:] $/;

const aish = path.join(process.cwd(), 'dist', 'aish.js');
const bareClient = path.join(process.cwd(), 'bench', 'bare-client.mjs');
const heapPreload = path.join(process.cwd(), 'bench', 'retained-heap.cjs');

/** Markdown a model might send (headings, lists, bold, inline code, a fence), as fixed-size deltas. */
export function replyText(deltas: number): string {
  const paragraph = [
    '## Step\n',
    'Run `ls -la` to see **every** file, then *check* the list:\n',
    '- one item with `code`\n- another **bold** item\n',
    '```sh\necho hello | wc -c\n```\n',
    'Plain text that wraps across the terminal width when it is long enough to need it.\n\n',
  ].join('');
  let text = '';
  while (text.length < deltas * DELTA_CHARS) text += paragraph;
  return text.slice(0, deltas * DELTA_CHARS);
}

export function deltaEvent(content: string): string {
  const chunk = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1752000000, model: 'bench', choices: [{ index: 0, delta: { content }, finish_reason: null }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The whole SSE body, written at once: the server's share of the CPU stays out of the child. */
export function streamBody(text: string, deltaChars = DELTA_CHARS): Buffer {
  let out = '';
  for (let i = 0; i < text.length; i += deltaChars) out += deltaEvent(text.slice(i, i + deltaChars));
  out += `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;
  return Buffer.from(`${out}data: [DONE]\n\n`, 'utf8');
}

export interface StreamFigure {
  mode: 'piped' | 'tty';
  /** CPU of the big reply beyond the one-delta reply, aish and bare. */
  aishMs: number;
  /** The same for the question asked at the REPL (a piped line, or typed at the prompt on a pty, instead of `-p`). */
  replMs: number;
  bareMs: number;
  ratio: number;
  /** Peak RSS (KB) of aish with the big reply, with one half as long, and with the one-delta reply. */
  peakKb: number;
  halfKb: number;
  idleKb: number;
  /** Peak RSS (KB) of the bare client with the big reply and with the one-delta reply, for scale. */
  barePeakKb: number;
  bareIdleKb: number;
  /** Live heap (bytes, after a full GC) of aish (big, half and one-delta reply) and the bare client. */
  heap: { aish: RetainedHeap; aishHalf: RetainedHeap; aishIdle: RetainedHeap; bare: RetainedHeap; bareIdle: RetainedHeap };
}

/** What retained-heap.cjs wrote: the live heap once the response had arrived, and at exit. */
export interface RetainedHeap {
  reply: number;
  exit: number;
}

export interface StreamE2e {
  figures: StreamFigure[];
  replyChars: number;
  /** Characters of the half-size reply. */
  halfChars: number;
  wireBytes: number;
}

export async function benchStreamE2e(): Promise<StreamE2e> {
  const server = await ModelServer.start();
  const text = replyText(DELTAS);
  const bigBody = streamBody(text);
  const big: ScriptedResponse = { type: 'raw', body: bigBody, headers: { 'content-type': 'text/event-stream' } };
  const one: ScriptedResponse = { type: 'raw', body: streamBody(text.slice(0, DELTA_CHARS)), headers: { 'content-type': 'text/event-stream' } };
  const halfText = text.slice(0, (DELTAS / 2) * DELTA_CHARS);
  const half: ScriptedResponse = { type: 'raw', body: streamBody(halfText), headers: { 'content-type': 'text/event-stream' } };
  const where = benchHome({ models: { fast: { endpoint: server.url, model: 'bench' } } });
  const url = `${server.url}/chat/completions`;
  const heapFile = path.join(where.env.HOME!, 'heap.json');
  const run = async (who: 'aish' | 'repl' | 'bare', reply: ScriptedResponse, pty: boolean, withHeap = false): Promise<ChildRun> => {
    server.enqueue(reply);
    const program = who === 'aish' ? [aish, '-p', 'bench'] : who === 'repl' ? [aish] : [bareClient, url];
    const args = withHeap ? ['--expose-gc', '--require', heapPreload, ...program] : program;
    const env = withHeap ? { ...where.env, AISH_BENCH_HEAP_FILE: heapFile } : where.env;
    // The REPL's case: the same question typed as a line of a script (piped), or at the prompt on a
    // pty (then Ctrl-D at the prompt that follows the reply), the reply streamed by the REPL's turn view.
    const input = who === 'repl' ? 'bench question\n' : pty ? undefined : '';
    const result = await measureChild(process.execPath, args, { cwd: where.cwd, env, pty, ...(input === undefined ? {} : { input }), prompt: PROMPT });
    // A run that failed early would look fast: make sure the reply got through.
    const expected = reply === big ? text.length * 0.9 : reply === half ? halfText.length * 0.9 : 1;
    if (result.output.length < expected) throw new Error(`${who} printed ${result.output.length} characters: ${result.output.slice(-300)}`);
    return result;
  };
  const heap = async (who: 'aish' | 'bare', reply: ScriptedResponse, pty: boolean): Promise<RetainedHeap> => {
    await run(who, reply, pty, true);
    const measured = JSON.parse(readFileSync(heapFile, 'utf8')) as RetainedHeap;
    if (typeof measured.reply !== 'number') throw new Error(`${who}: the end of the response was not seen (undici:request:trailers)`);
    return measured;
  };
  try {
    const figures: StreamFigure[] = [];
    for (const mode of ['piped', 'tty'] as const) {
      const pty = mode === 'tty';
      const s = { aishBig: [] as ChildRun[], aishHalf: [] as ChildRun[], aishOne: [] as ChildRun[], bareBig: [] as ChildRun[], bareOne: [] as ChildRun[], replBig: [] as ChildRun[], replOne: [] as ChildRun[] };
      for (let round = -1; round < RUNS; round++) {
        const results = {
          aishBig: await run('aish', big, pty),
          aishHalf: await run('aish', half, pty),
          aishOne: await run('aish', one, pty),
          bareBig: await run('bare', big, pty),
          bareOne: await run('bare', one, pty),
          replBig: await run('repl', big, pty),
          replOne: await run('repl', one, pty),
        };
        if (round < 0) continue;
        for (const k of Object.keys(s) as Array<keyof typeof s>) if (results[k]) s[k].push(results[k]);
      }
      const h = { aish: [] as RetainedHeap[], aishHalf: [] as RetainedHeap[], aishIdle: [] as RetainedHeap[], bare: [] as RetainedHeap[], bareIdle: [] as RetainedHeap[] };
      for (let round = 0; round < HEAP_RUNS; round++) {
        h.aish.push(await heap('aish', big, pty));
        h.aishHalf.push(await heap('aish', half, pty));
        h.aishIdle.push(await heap('aish', one, pty));
        h.bare.push(await heap('bare', big, pty));
        h.bareIdle.push(await heap('bare', one, pty));
      }
      const live = (xs: RetainedHeap[]): RetainedHeap => ({ reply: median(xs.map((x) => x.reply)), exit: median(xs.map((x) => x.exit)) });
      const cpu = (xs: ChildRun[]) => median(xs.map((r) => r.cpuMs));
      const rss = (xs: ChildRun[]) => median(xs.map((r) => r.peakRssKb));
      const aishMs = cpu(s.aishBig) - cpu(s.aishOne);
      const bareMs = cpu(s.bareBig) - cpu(s.bareOne);
      const replMs = cpu(s.replBig) - cpu(s.replOne);
      figures.push({
        mode,
        aishMs,
        bareMs,
        ratio: aishMs / bareMs,
        replMs,
        peakKb: rss(s.aishBig),
        halfKb: rss(s.aishHalf),
        idleKb: rss(s.aishOne),
        barePeakKb: rss(s.bareBig),
        bareIdleKb: rss(s.bareOne),
        heap: { aish: live(h.aish), aishHalf: live(h.aishHalf), aishIdle: live(h.aishIdle), bare: live(h.bare), bareIdle: live(h.bareIdle) },
      });
    }
    return { figures, replyChars: text.length, halfChars: halfText.length, wireBytes: bigBody.length };
  } finally {
    await server.close();
  }
}
