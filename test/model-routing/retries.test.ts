// The wrappers that send a request again (stream_options refused, Retry-After, cloud fallback)
// pass the caller's text buffer on to every attempt: the reply that comes back, and the buffer the
// turn core keeps as its partial text, hold the text of the last attempt only, never an earlier one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerError } from '../../src/broker/errors.js';
import type { ChatMessage, ModelClient } from '../../src/broker/types.js';
import { withFallback } from '../../src/model-routing/fallback.js';
import { withRetryAfter } from '../../src/model-routing/retry-after.js';
import { TextBuffer } from '../../src/text-buffer.js';
import { presetClient } from '../../src/turn/model-client.js';
import { ModelServer, presetsConfig, textReply } from '../support/model-server.js';
import { closedPort } from '../support/sse-fixtures.js';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(async () => {
  await server.close();
});

const messages: ChatMessage[] = [{ role: 'user', content: 'hello' }];

const config = presetsConfig;

/** A buffer that still holds text of an earlier attempt, as a retry after a delta would leave it. */
function staleBuffer(): TextBuffer {
  const text = new TextBuffer();
  text.push('text of an earlier attempt. ');
  return text;
}

/** Sends through `client` with a stale buffer; expects the reply and the buffer to be `expected`. */
async function expectOnlyLastAttempt(client: ModelClient, expected: string): Promise<void> {
  const text = staleBuffer();
  const result = await client.stream(messages, () => {}, { signal: new AbortController().signal, text });
  expect(result.text).toBe(expected);
  expect(text.toString()).toBe(expected);
}

/** A client whose request streams some text and then fails with `error`, as a first attempt. */
function failingAfterText(name: string, error: unknown): ModelClient {
  return {
    name,
    async stream(_messages, onEvent, opts) {
      opts.text?.clear();
      opts.text?.push('half an answer');
      onEvent({ type: 'text', text: 'half an answer' });
      throw error;
    },
  };
}

describe('a request sent again holds only the text of its last attempt', () => {
  it('a preset whose server refuses stream_options is asked again without it', async () => {
    server.enqueue({ type: 'raw', status: 400, body: '{"error":{"message":"Unrecognized request argument supplied: stream_options"}}' }, textReply(['second ', 'attempt']));
    const client = presetClient(config({ fast: server.url }), {}, 'fast', (t) => t);
    await expectOnlyLastAttempt(client, 'second attempt');
  });

  it('a 503 with Retry-After is sent once more', async () => {
    server.enqueue({ type: 'raw', status: 503, headers: { 'retry-after': '0' }, body: '{"error":{"message":"busy"}}' }, textReply(['after ', 'waiting']));
    const client = withRetryAfter(presetClient(config({ fast: server.url }), {}, 'fast', (t) => t), () => {});
    await expectOnlyLastAttempt(client, 'after waiting');
  });

  it('a fallback after a failed local request', async () => {
    server.enqueue(textReply(['from the ', 'cloud']));
    const cfg = config({ fast: `http://127.0.0.1:${await closedPort()}/v1`, cloud: server.url });
    const client = withFallback(presetClient(cfg, {}, 'fast', (t) => t), presetClient(cfg, {}, 'cloud', (t) => t), () => true, () => {});
    await expectOnlyLastAttempt(client, 'from the cloud');
  });

  it('a fallback after a first attempt that had streamed text before it failed', async () => {
    server.enqueue(textReply(['the whole ', 'answer']));
    const cloud = presetClient(config({ cloud: server.url }), {}, 'cloud', (t) => t);
    const client = withFallback(failingAfterText('fast', new BrokerError('transport', 'HTTP 503: busy', { status: 503 })), cloud, () => true, () => {});
    const text = new TextBuffer();
    const shown: string[] = [];
    const result = await client.stream(messages, (e) => e.type === 'text' && shown.push(e.text), { signal: new AbortController().signal, text });
    expect(shown).toEqual(['half an answer', 'the whole ', 'answer']);
    expect(result.text).toBe('the whole answer');
    expect(text.toString()).toBe('the whole answer');
  });
});
