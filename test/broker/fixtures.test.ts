// The recorded corpus: each transcript served by the loopback server as raw wire bytes, whole and
// cut into 1-, 3- and 7-byte writes, must come to the hand-written expected reply.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerError } from '../../src/broker/errors.js';
import { chatStream } from '../../src/broker/stream.js';
import { ModelServer } from '../support/model-server.js';
import { collectEvents, listSseFixtures, loadSseFixture, loopbackModel, rejectionOf, sseBytes } from '../support/sse-fixtures.js';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(async () => {
  await server.close();
});

const fixtures = listSseFixtures();
const slicings = [
  { label: 'whole', chunkSize: undefined },
  { label: '1-byte slices', chunkSize: 1 },
  { label: '3-byte slices', chunkSize: 3 },
  { label: '7-byte slices', chunkSize: 7 },
];

it('the corpus is there', () => {
  expect(fixtures.length).toBeGreaterThanOrEqual(18);
});

describe.each(fixtures)('%s', (name) => {
  const { wire, expected } = loadSseFixture(name);

  it.each(slicings)('$label', async ({ chunkSize }) => {
    server.enqueue(sseBytes(wire, chunkSize));
    const seen = collectEvents();
    const run = chatStream(loopbackModel(server), [{ role: 'user', content: 'hi' }], seen.onEvent, { env: {} });

    if (expected.error !== undefined) {
      const err = await rejectionOf(run);
      expect(err).toBeInstanceOf(BrokerError);
      expect((err as BrokerError).message).toBe(expected.error);
      expect((err as BrokerError).receivedDelta).toBe(expected.receivedDelta ?? false);
    } else {
      const result = await run;
      expect(result.text).toBe(expected.text);
      expect(result.toolCalls).toEqual(expected.toolCalls ?? []);
      expect(result.finishReason).toBe(expected.finishReason ?? null);
      if (expected.usage) expect(result.usage).toEqual(expected.usage);
      expect(result.receivedDelta).toBe(result.text !== '' || result.toolCalls.length > 0);
      const started = seen.events.flatMap((e) => (e.type === 'tool_call' ? [e.name] : []));
      expect(started).toEqual(result.toolCalls.map((c) => c.name));
    }
    expect(seen.text()).toBe(expected.text);
    expect(seen.reasoning()).toBe(expected.reasoning);
    expect(seen.warnings()).toEqual([]);
  });
});
