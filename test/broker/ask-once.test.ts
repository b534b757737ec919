// askOnce, the one short question outside the conversation (summaries, memory, second opinion),
// against the loopback server: what it sends, what it returns, and how it ends when time runs out
// or the caller cancels.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askOnce } from '../../src/broker/ask-once.js';
import { BrokerError } from '../../src/broker/errors.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { loopbackModel, rejectionOf } from '../support/sse-fixtures.js';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(async () => {
  await server.close();
});

const messages = [
  { role: 'system' as const, content: 'Summarize.' },
  { role: 'user' as const, content: 'user: hi' },
];

describe('askOnce', () => {
  it('sends the messages with max_tokens and resolves the reply text, trimmed', async () => {
    server.enqueue(textReply(['  They ', 'said hi.\n']));
    const text = await askOnce(loopbackModel(server), messages, { env: {}, maxTokens: 300 });
    expect(text).toBe('They said hi.');
    const body = server.requests.at(-1)!.body;
    expect(body.max_tokens).toBe(300);
    expect(body.messages).toEqual(messages);
  });

  it('bounds the whole call: a silent server ends as transport: Timeout was reached', async () => {
    server.enqueue({ type: 'stall', sendHeaders: true });
    const err = await rejectionOf(askOnce(loopbackModel(server), messages, { env: {}, maxTokens: 5, timeoutMs: 200 }));
    expect(err).toBeInstanceOf(BrokerError);
    expect((err as BrokerError).message).toBe('transport: Timeout was reached');
  });

  it("rejects with the caller's reason when cancelled, not as a timeout", async () => {
    server.enqueue({ type: 'stall', sendHeaders: true });
    const controller = new AbortController();
    const pending = askOnce(loopbackModel(server), messages, { env: {}, maxTokens: 5, timeoutMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const err = await rejectionOf(pending);
    expect(err).not.toBeInstanceOf(BrokerError);
    expect((err as Error).message).toBe('stop');
  });
});
