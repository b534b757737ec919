// A loopback OpenAI-compatible chat-completions server for tests. Each request takes the next
// scripted response: an SSE transcript (optionally cut into N-byte slices), an HTTP error, a stall,
// a reset or a close mid-body. Every request is recorded (path, headers, parsed body) so tests can
// assert exactly what aish sent.

import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig, type Config } from '../../src/config/schema.js';

export type ScriptedResponse =
  /** `events` are JSON chunks (serialised as `data: <json>`) or raw SSE text written as is. */
  | { type: 'sse'; events: Array<object | string>; done?: boolean; chunkSize?: number; eol?: string; status?: number; headers?: Record<string, string> }
  /** A body written as is (HTML with 200, an error envelope, ...). */
  | { type: 'raw'; body: string | Buffer; status?: number; headers?: Record<string, string>; chunkSize?: number }
  /** Headers (when `headers` is true) and then nothing, until the client gives up. */
  | { type: 'stall'; sendHeaders?: boolean; body?: string }
  /**
   * An SSE reply in two parts: `before` is sent at once, `after` (then `[DONE]`) only once `until`
   * settles, so a test can see what the client did with the first part while the stream is open.
   */
  | { type: 'gated'; before: Array<object | string>; after: Array<object | string>; until: Promise<unknown> }
  /** The connection is destroyed as soon as the request arrives. */
  | { type: 'reset' }
  /** `body` is written, then the socket is destroyed. */
  | { type: 'close-mid'; body: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: any;
}

export class ModelServer {
  readonly requests: RecordedRequest[] = [];
  readonly #queue: ScriptedResponse[] = [];
  readonly #server: http.Server;
  readonly #sockets = new Set<Socket>();
  #waiters: Array<() => void> = [];

  private constructor(server: http.Server) {
    this.#server = server;
  }

  static async start(): Promise<ModelServer> {
    let self!: ModelServer;
    const server = http.createServer((req, res) => void self.#handle(req, res));
    self = new ModelServer(server);
    server.on('connection', (s) => {
      s.setNoDelay(true);
      self.#sockets.add(s);
      s.on('close', () => self.#sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Stop by itself if a test forgets to close it.
    server.unref();
    return self;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** Base URL ending in /v1, as people configure it. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Queues responses for the next requests, in order. */
  enqueue(...responses: ScriptedResponse[]): this {
    this.#queue.push(...responses);
    return this;
  }

  /** Resolves once `n` requests have been recorded. */
  async waitForRequests(n: number): Promise<void> {
    while (this.requests.length < n) await new Promise<void>((r) => this.#waiters.push(r));
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the raw text
    }
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();

    const next = this.#queue.shift();
    if (!next) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'model-server: no scripted response left' } }));
      return;
    }
    switch (next.type) {
      case 'sse': {
        const eol = next.eol ?? '\n';
        let out = sseText(next.events, eol);
        if (next.done !== false) out += `data: [DONE]${eol}${eol}`;
        res.writeHead(next.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...next.headers });
        await writeSliced(res, Buffer.from(out, 'utf8'), next.chunkSize);
        res.end();
        return;
      }
      case 'gated': {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(sseText(next.before));
        // The client may give up meanwhile (Ctrl-C): then nothing more is written.
        await next.until.catch(() => {});
        if (!res.destroyed) res.end(`${sseText(next.after)}data: [DONE]\n\n`);
        return;
      }
      case 'raw': {
        res.writeHead(next.status ?? 200, { 'content-type': 'application/json', ...next.headers });
        await writeSliced(res, Buffer.isBuffer(next.body) ? next.body : Buffer.from(next.body, 'utf8'), next.chunkSize);
        res.end();
        return;
      }
      case 'stall':
        if (next.sendHeaders) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.flushHeaders();
          if (next.body) res.write(next.body);
        }
        return; // never ends; close() destroys the socket
      case 'reset':
        req.socket.destroy();
        return;
      case 'close-mid':
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(next.body);
        setTimeout(() => req.socket.destroy(), 20);
        return;
    }
  }
}

/** Events as SSE: JSON chunks as `data: <json>`, strings as they are. */
function sseText(events: Array<object | string>, eol = '\n'): string {
  let out = '';
  for (const e of events) out += typeof e === 'string' ? e : `data: ${JSON.stringify(e)}${eol}${eol}`;
  return out;
}

async function writeSliced(res: http.ServerResponse, data: Buffer, size: number | undefined): Promise<void> {
  if (!size) {
    res.write(data);
    return;
  }
  for (let i = 0; i < data.length; i += size) {
    res.write(data.subarray(i, i + size));
    // A turn of the event loop between slices so they leave as separate writes.
    await new Promise((r) => setImmediate(r));
  }
}

/** An OpenAI-shaped streamed text reply: one chunk per piece, then a stop chunk. */
export function textReply(pieces: string[], model = 'test-model'): Extract<ScriptedResponse, { type: 'sse' }> {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model };
  return {
    type: 'sse',
    events: [
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      ...pieces.map((content) => ({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ],
  };
}

/** An OpenAI-shaped streamed reply that calls tools (arguments in one fragment each). */
export function toolCallReply(calls: Array<{ id: string; name: string; arguments: string }>, text = ''): ScriptedResponse {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model: 'test-model' };
  const events: object[] = [{ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: text || null }, finish_reason: null }] }];
  calls.forEach((c, index) => {
    events.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }, finish_reason: null }] });
    events.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: c.arguments } }] }, finish_reason: null }] });
  });
  events.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  return { type: 'sse', events };
}

/** A config whose presets (name → endpoint) all serve `test-model`, as the routing tests use. */
export function presetsConfig(models: Record<string, string>): Config {
  const result = resolveConfig({ models: Object.fromEntries(Object.entries(models).map(([name, endpoint]) => [name, { endpoint, model: 'test-model' }])) }, defaultModels({}));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}
