// Streaming inside one process: the CPU cost of pushing a 20 000-delta reply through `chatStream`
// and the reply renderer against a bare eventsource-parser loop over the same bytes and the same
// HTTP client (a quick view of the per-delta path; bench/stream-e2e.ts has the figures as a person
// sees them), and the latency between the first byte on the socket and the first character the
// renderer writes. Loopback.

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
import { deltaEvent, streamBody } from './stream-e2e.js';

const DELTAS = 20_000;
const CPU_RUNS = 11;
const LATENCY_RUNS = 51;
const MESSAGES = [{ role: 'user' as const, content: 'bench' }];

/** A Writable that discards everything (the terminal's cost is not the broker's); `onWrite` sees each write. */
function nullSink(onWrite?: () => void): Writable {
  return new Writable({
    decodeStrings: false,
    write: (_chunk, _enc, cb) => {
      onWrite?.();
      cb();
    },
  });
}

/** CPU milliseconds (user + system) spent by this process while `fn` runs. */
async function cpuMs(fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The broker and aish's reply renderer (neutralising, CMD: detection, colour) into the sink. */
async function viaBroker(model: ModelConfig, sink: Writable): Promise<void> {
  const io: Io = { input: process.stdin, output: sink, errors: sink, isTTY: false, columns: () => 80 };
  const reply = new ReplyRenderer(new Renderer(io, createStyle(1)));
  await chatStream(model, MESSAGES, (e) => {
    if (e.type === 'text') reply.text(e.text);
  }, { env: {} });
  reply.finish();
}

/**
 * The least a client must do: the same undici request, streaming UTF-8 decoding,
 * eventsource-parser, JSON.parse per event and the text written to the sink. No shape checks,
 * no tool calls, no timeouts, no error mapping.
 */
async function viaBareLoop(url: string, sink: Writable): Promise<void> {
  const body = JSON.stringify({ model: 'bench', messages: MESSAGES, stream: true, temperature: 0.2 });
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body });
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (e) => {
      if (e.data === '[DONE]') return;
      const content = JSON.parse(e.data).choices[0]?.delta?.content;
      if (typeof content !== 'string' || content === '') return;
      sink.write(content);
    },
  });
  for await (const chunk of res.body as AsyncIterable<Buffer>) parser.feed(decoder.decode(chunk, { stream: true }));
}

/**
 * First byte to first character written. undici reads its sockets on 'readable'; a listener prepended on every
 * socket undici connects (diagnostics channel `undici:client:connected`, subscribed before the
 * first request) stamps the moment a reply's first bytes are readable in JS, and the renderer's first
 * write to the output stamps the end. The reply is a role chunk and a text chunk written in one go with the
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
  return { type: 'raw', body: Buffer.concat([Buffer.from(deltaEvent('')), streamBody('tok ', 4)]), headers: { 'content-type': 'text/event-stream' } };
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
    const big: ScriptedResponse = { type: 'raw', body: streamBody('tok '.repeat(DELTAS), 4), headers: { 'content-type': 'text/event-stream' } };
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
      let first = true;
      return viaBroker(
        model,
        nullSink(() => {
          if (first) onFirst();
          first = false;
        }),
      );
    }, LATENCY_RUNS);

    const brokerMs = median(broker);
    const bareMs = median(bare);
    return { brokerMs, bareMs, ratio: brokerMs / bareMs, firstByteToFirstCharMs: latency };
  } finally {
    clock.dispose();
    await server.close();
  }
}
