// Helpers for broker tests: the recorded SSE corpus in test/fixtures/sse (raw wire bytes plus a
// hand-written expected reply), a model preset pointing at a loopback ModelServer, an event
// collector, and a port nothing listens on.

import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ModelConfig } from '../../src/config/schema.js';
import type { BrokerEvent, ToolCall, TokenUsage } from '../../src/broker/types.js';
import { ROOT } from './aish-env.js';
import type { ModelServer, ScriptedResponse } from './model-server.js';

export const SSE_FIXTURE_DIR = path.join(ROOT, 'test', 'fixtures', 'sse');

/** What a fixture's reply should come to, written by hand from the wire. */
export interface ExpectedReply {
  note: string;
  text: string;
  reasoning: string;
  toolCalls?: ToolCall[];
  finishReason?: string | null;
  usage?: TokenUsage;
  /** For a transcript that fails: the exact error message. */
  error?: string;
  receivedDelta?: boolean;
}

/** Names (without `.sse`) of every transcript in the corpus. */
export function listSseFixtures(): string[] {
  return readdirSync(SSE_FIXTURE_DIR)
    .filter((f) => f.endsWith('.sse'))
    .map((f) => f.slice(0, -'.sse'.length))
    .sort();
}

export function loadSseFixture(name: string): { wire: Buffer; expected: ExpectedReply } {
  return {
    wire: readFileSync(path.join(SSE_FIXTURE_DIR, `${name}.sse`)),
    expected: JSON.parse(readFileSync(path.join(SSE_FIXTURE_DIR, `${name}.expected.json`), 'utf8')) as ExpectedReply,
  };
}

/** Raw bytes served as an event stream, optionally cut into `chunkSize`-byte writes. */
export function sseBytes(body: string | Buffer, chunkSize?: number): ScriptedResponse {
  return { type: 'raw', body, headers: { 'content-type': 'text/event-stream' }, ...(chunkSize ? { chunkSize } : {}) };
}

/** A preset for the loopback server; `overrides` win. */
export function loopbackModel(server: ModelServer, overrides: Partial<ModelConfig> = {}): ModelConfig {
  return { endpoint: server.url, model: 'test-model', temperature: 0.2, timeout_ms: 5_000, headers: {}, ...overrides };
}

/** Records broker events and joins the text and reasoning fragments. */
export function collectEvents(): {
  events: BrokerEvent[];
  onEvent: (e: BrokerEvent) => void;
  text: () => string;
  reasoning: () => string;
  warnings: () => string[];
} {
  const events: BrokerEvent[] = [];
  const join = (type: 'text' | 'reasoning') =>
    events.map((e) => (e.type === type ? e.text : '')).join('');
  return {
    events,
    onEvent: (e) => events.push(e),
    text: () => join('text'),
    reasoning: () => join('reasoning'),
    warnings: () => events.flatMap((e) => (e.type === 'warning' ? [e.message] : [])),
  };
}

/** A loopback port with nothing listening: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The rejection of `promise`, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}
