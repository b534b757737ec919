// Streaming: the CPU cost of pushing a 20 000-delta reply through `chatStream` against a bare
// eventsource-parser loop over the same bytes and the same HTTP client, and the latency the broker
// adds between the first byte on the socket and the first text event. One process, loopback.

import diagnosticsChannel from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import type { Io } from '../src/io.js';
import { Renderer } from '../src/render/renderer.js';
import { ReplyRenderer } from '../src/render/reply.js';
import { createStyle } from '../src/render/style.js';
import { createParser } from 'eventsource-parser';
import { request } from 'undici';
import { chatStream } from '../src/broker/stream.js';
import type { ModelConfig } from '../src/config/schema.js';
import { ModelServer, type ScriptedResponse } from '../test/support/model-server.js';
import { median } from './stats.js';

const DELTAS = 20_000;
const CPU_RUNS = 11;
const LATENCY_RUNS = 51;
const MESSAGES = [{ role: 'user' as const, content: 'bench' }];

/** One OpenAI-shaped chunk carrying `content`. */
function deltaEvent(content: string): string {
  const chunk = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1752000000, model: 'bench', choices: [{ index: 0, delta: { content }, finish_reason: null }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function streamBody(deltas: number): Buffer {
  const stop = `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
  return Buffer.from(deltaEvent('tok ').repeat(deltas) + stop, 'utf8');
}

/** A Writable that discards everything: the terminal's cost is not the broker's. */
function nullSink(): Writable {
  return new Writable({ decodeStrings: false, write: (_chunk, _enc, cb) => cb() });
}

/** CPU milliseconds (user + system) spent by this process while `fn` runs. */
async function cpuMs(fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The broker and aish's reply renderer (neutralising, CMD: detection, colour) into the sink. */
async function viaBroker(model: ModelConfig, sink: Writable, onFirstText?: () => void): Promise<void> {
  let first = true;
  const io: Io = { input: process.stdin, output: sink, errors: sink, isTTY: false, columns: () => 80 };
  const reply = new ReplyRenderer(new Renderer(io, createStyle(1)));
  await chatStream(model, MESSAGES, (e) => {
    if (e.type !== 'text') return;
    if (first) {
      first = false;
      onFirstText?.();
    }
    reply.text(e.text);
  }, { env: {} });
  reply.finish();
}

/**
 * The least a client must do: the same undici request, streaming UTF-8 decoding,
 * eventsource-parser, JSON.parse per event and the text written to the sink. No shape checks,
 * no tool calls, no timeouts, no error mapping.
 */
async function viaBareLoop(url: string, sink: Writable, onFirstText?: () => void): Promise<void> {
  let first = true;
  const body = JSON.stringify({ model: 'bench', messages: MESSAGES, stream: true, temperature: 0.2 });
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body });
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (e) => {
      if (e.data === '[DONE]') return;
      const content = JSON.parse(e.data).choices[0]?.delta?.content;
      if (typeof content !== 'string' || content === '') return;
      if (first) {
        first = false;
        onFirstText?.();
      }
      sink.write(content);
    },
  });
  for await (const chunk of res.body as AsyncIterable<Buffer>) parser.feed(decoder.decode(chunk, { stream: true }));
}

/**
 * First byte to first text. undici reads its sockets on 'readable'; a listener prepended on every
 * socket undici connects (diagnostics channel `undici:client:connected`, subscribed before the
 * first request) stamps the moment a reply's first bytes are readable in JS, and the first text
 * event stamps the end. The reply is a role chunk and a text chunk written in one go with the
 * headers, so the first readable carries the first text. Both stamps are performance.now() in
 * this process; the figure is the median over the runs.
 */
class FirstByteClock {
  #firstByteAt = 0;
  #armed = false;
  readonly #seen = new WeakSet<Socket>();
  readonly #onConnected = (message: unknown): void => {
    const socket = (message as { socket: Socket }).socket;
    if (this.#seen.has(socket)) return;
    this.#seen.add(socket);
    socket.prependListener('readable', () => {
      if (this.#armed && this.#firstByteAt === 0) this.#firstByteAt = performance.now();
    });
  };

  constructor() {
    diagnosticsChannel.subscribe('undici:client:connected', this.#onConnected);
  }

  async measure(run: (onFirstText: () => void) => Promise<void>, runs: number): Promise<number> {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      this.#firstByteAt = 0;
      this.#armed = true;
      let firstTextAt = 0;
      await run(() => {
        firstTextAt = performance.now();
      });
      this.#armed = false;
      if (this.#firstByteAt > 0 && firstTextAt > 0) samples.push(firstTextAt - this.#firstByteAt);
    }
    return median(samples);
  }

  dispose(): void {
    diagnosticsChannel.unsubscribe('undici:client:connected', this.#onConnected);
  }
}

/** A short reply: an empty role-like chunk, one text delta, the stop chunk and [DONE], in one write. */
function shortReply(): ScriptedResponse {
  return { type: 'raw', body: Buffer.concat([Buffer.from(deltaEvent('')), streamBody(1)]), headers: { 'content-type': 'text/event-stream' } };
}

export async function benchStream(): Promise<{ brokerMs: number; bareMs: number; ratio: number; firstByteToFirstCharMs: number }> {
  const clock = new FirstByteClock();
  const server = await ModelServer.start();
  try {
    const model: ModelConfig = { endpoint: server.url, model: 'bench', temperature: 0.2, timeout_ms: 60_000, headers: {} };
    const url = `${server.url}/chat/completions`;
    // The server runs in this process, so its CPU time counts in both figures. It writes the
    // whole body at once to keep that share small (one delta per write, as a local model sends
    // them, costs the server ~10x the client's work and flattens the ratio towards 1); the client
    // still receives it in socket-sized chunks of a few hundred deltas each.
    const big: ScriptedResponse = { type: 'raw', body: streamBody(DELTAS), headers: { 'content-type': 'text/event-stream' } };
    const sink = nullSink();

    // Warm both paths (module loading, JIT, the keep-alive connection) before measuring.
    server.enqueue(big, big);
    await viaBroker(model, sink);
    await viaBareLoop(url, sink);

    const broker: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < CPU_RUNS; i++) {
      server.enqueue(big);
      broker.push(await cpuMs(() => viaBroker(model, sink)));
      server.enqueue(big);
      bare.push(await cpuMs(() => viaBareLoop(url, sink)));
    }

    const latency = await clock.measure((onFirst) => {
      server.enqueue(shortReply());
      return viaBroker(model, sink, onFirst);
    }, LATENCY_RUNS);

    const brokerMs = median(broker);
    const bareMs = median(bare);
    return { brokerMs, bareMs, ratio: brokerMs / bareMs, firstByteToFirstCharMs: latency };
  } finally {
    clock.dispose();
    await server.close();
  }
}
