// A reply far past `broker.max_reply_chars` (issue 25: a 300 MB reply peaked at 1.6 GB of RSS):
// `aish -p` against a loopback server streaming 64 MB of text in 4 KB deltas, with the default
// cap (4 000 000 chars: aish stops reading there) and with a cap above the reply (read whole, as
// before the cap). Peak RSS of each, medians of a few runs; a one-delta reply gives idle.

import { ModelServer, type ScriptedResponse } from '../test/support/model-server.js';
import { measureChild } from './child.js';
import { deltaEvent } from './stream-e2e.js';
import { benchHome } from './startup.js';
import { median } from './stats.js';
import path from 'node:path';

const REPLY_MB = 64;
const DELTA_CHARS = 4096;
const RUNS = 3;

export interface ReplyCapFigure {
  replyChars: number;
  /** Peak RSS (KB): default cap, no cap, one-delta reply. */
  cappedKb: number;
  uncappedKb: number;
  idleKb: number;
}

function body(chars: number): Buffer {
  const delta = deltaEvent('x'.repeat(DELTA_CHARS));
  const parts: string[] = [];
  for (let n = 0; n < chars; n += DELTA_CHARS) parts.push(delta);
  parts.push('data: [DONE]\n\n');
  return Buffer.from(parts.join(''), 'utf8');
}

export async function benchReplyCap(): Promise<ReplyCapFigure> {
  const server = await ModelServer.start();
  const replyChars = REPLY_MB * 1024 * 1024;
  const big: ScriptedResponse = { type: 'raw', body: body(replyChars), headers: { 'content-type': 'text/event-stream' } };
  const one: ScriptedResponse = { type: 'raw', body: body(1), headers: { 'content-type': 'text/event-stream' } };
  const capped = benchHome({ models: { fast: { endpoint: server.url, model: 'bench' } } });
  const uncapped = benchHome({ models: { fast: { endpoint: server.url, model: 'bench' } }, broker: { max_reply_chars: replyChars * 2 } });
  const aish = path.join(process.cwd(), 'dist', 'aish.js');
  const run = async (reply: ScriptedResponse, where: typeof capped) => {
    server.enqueue(reply);
    const r = await measureChild(process.execPath, [aish, '-p', 'bench'], { ...where, timeoutMs: 120_000 });
    return r.peakRssKb;
  };
  try {
    const s = { capped: [] as number[], uncapped: [] as number[], idle: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      s.capped.push(await run(big, capped));
      s.uncapped.push(await run(big, uncapped));
      s.idle.push(await run(one, capped));
    }
    return { replyChars, cappedKb: median(s.capped), uncappedKb: median(s.uncapped), idleKb: median(s.idle) };
  } finally {
    await server.close();
  }
}
