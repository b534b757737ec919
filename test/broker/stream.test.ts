// chatStream against the loopback server: the exact request it sends, the error contract produced
// by real failures, and the bad input it must survive.

import diagnosticsChannel from 'node:diagnostics_channel';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrokerError, isFallbackEligible } from '../../src/broker/errors.js';
import { chat, chatStream, preloadBroker } from '../../src/broker/stream.js';
import type { BrokerEvent, ChatMessage, ToolDefinition } from '../../src/broker/types.js';
import { TextBuffer } from '../../src/text-buffer.js';
import { ModelServer, textReply, toolCallReply, type ScriptedResponse } from '../support/model-server.js';
import { closedPort, collectEvents, loopbackModel, rejectionOf, sseBytes } from '../support/sse-fixtures.js';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

const messages: ChatMessage[] = [
  { role: 'system', content: 'You are aish.' },
  { role: 'user', content: 'hello' },
];
const tools: ToolDefinition[] = [
  { type: 'function', function: { name: 'fs__read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
];
const chunk = (delta: object, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
const data = (obj: object) => `data: ${JSON.stringify(obj)}\n\n`;

async function brokerError(promise: Promise<unknown>): Promise<BrokerError> {
  const err = await rejectionOf(promise);
  expect(err).toBeInstanceOf(BrokerError);
  return err as BrokerError;
}

describe('the request', () => {
  it('sends exactly {model, messages, stream, temperature} with no tools, no key and no max_tokens', async () => {
    server.enqueue(textReply(['Hi']));
    const result = await chatStream(loopbackModel(server, { key_env: 'AISH_TEST_KEY' }), messages, () => {}, { env: { AISH_TEST_KEY: '' }, tools: [] });
    expect(result.text).toBe('Hi');
    const [req] = server.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.body).toEqual({ model: 'test-model', messages, stream: true, temperature: 0.2 });
    expect(Object.keys(req!.body)).not.toContain('tools');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers.accept).toBe('text/event-stream');
    expect(req!.headers.authorization).toBeUndefined();
  });

  it('adds tools, max_tokens, the bearer key, preset headers and extra body fields', async () => {
    server.enqueue(textReply(['ok']));
    const model = loopbackModel(server, { key_env: 'AISH_TEST_KEY', max_tokens: 512, temperature: 0.7, headers: { 'X-Title': 'aish', 'HTTP-Referer': 'https://example.org' } });
    await chatStream(model, messages, () => {}, { env: { AISH_TEST_KEY: 'sk-test-123' }, tools, extraBody: { stream_options: { include_usage: true } } });
    const [req] = server.requests;
    expect(req!.body).toEqual({
      model: 'test-model',
      messages,
      stream: true,
      temperature: 0.7,
      max_tokens: 512,
      tools,
      stream_options: { include_usage: true },
    });
    expect(req!.headers.authorization).toBe('Bearer sk-test-123');
    expect(req!.headers['x-title']).toBe('aish');
    expect(req!.headers['http-referer']).toBe('https://example.org');
  });

  it.each([
    ['required', 'required'],
    ['one function', { type: 'function', function: { name: 'fs__read' } }],
  ] as const)('passes the preset tool_choice (%s) with tools, never without', async (_label, choice) => {
    server.enqueue(textReply(['ok']), textReply(['ok']));
    const model = loopbackModel(server, { tool_choice: choice });
    await chatStream(model, messages, () => {}, { env: {}, tools });
    await chatStream(model, messages, () => {}, { env: {}, tools: [] });
    const [withTools, without] = server.requests.slice(-2);
    expect(withTools!.body.tool_choice).toEqual(choice);
    expect(without!.body).not.toHaveProperty('tool_choice');
  });

  it('lets a preset authorization header replace the key instead of sending two', async () => {
    server.enqueue(textReply(['ok']));
    const model = loopbackModel(server, { key_env: 'AISH_TEST_KEY', headers: { Authorization: 'Token custom' } });
    await chatStream(model, messages, () => {}, { env: { AISH_TEST_KEY: 'sk-test-123' } });
    expect(server.requests[0]!.headers.authorization).toBe('Token custom');
  });

  it.each([
    ['/v1/chat/completions', '/v1/chat/completions'],
    ['', '/v1/chat/completions'],
    ['/proxy/', '/proxy/v1/chat/completions'],
  ])('endpoint path %j is posted to %s', async (suffix, expectedPath) => {
    server.enqueue(textReply(['ok']));
    await chatStream(loopbackModel(server, { endpoint: `http://127.0.0.1:${server.port}${suffix}` }), messages, () => {}, { env: {} });
    expect(server.requests[0]!.path).toBe(expectedPath);
  });
});

describe('a normal reply', () => {
  it('streams text events and resolves with the whole result', async () => {
    server.enqueue(textReply(['Hel', 'lo', ' world']));
    const seen = collectEvents();
    const result = await chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} });
    expect(seen.events).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'text', text: ' world' },
    ]);
    expect(result).toEqual({ text: 'Hello world', toolCalls: [], finishReason: 'stop', receivedDelta: true });
  });

  it('returns tool calls with the text said before them', async () => {
    server.enqueue(toolCallReply([{ id: 'call_1', name: 'fs__read_file', arguments: '{"path":"a"}' }], 'Reading.'));
    const seen = collectEvents();
    const result = await chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} });
    expect(result.text).toBe('Reading.');
    expect(result.toolCalls).toEqual([{ id: 'call_1', name: 'fs__read_file', arguments: '{"path":"a"}' }]);
    expect(result.finishReason).toBe('tool_calls');
    expect(seen.events).toContainEqual({ type: 'tool_call', index: 0, name: 'fs__read_file' });
  });

  it('emits usage events', async () => {
    server.enqueue({ type: 'sse', events: [chunk({ content: 'x' }, 'stop'), { id: 'c', choices: [], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }] });
    const seen = collectEvents();
    const result = await chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} });
    expect(seen.events).toContainEqual({ type: 'usage', usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } });
    expect(result.usage).toEqual({ prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 });
  });

  it('chat() buffers the same reply', async () => {
    server.enqueue(textReply(['A summary', '.']));
    const result = await chat(loopbackModel(server), messages, { env: {} });
    expect(result.text).toBe('A summary.');
    expect(result.finishReason).toBe('stop');
  });

  it('reads an event stream with a last event missing its blank line and no [DONE]', async () => {
    server.enqueue(sseBytes(`${data(chunk({ content: 'one' }))}data: ${JSON.stringify(chunk({ content: ' two' }, 'stop'))}`));
    const result = await chatStream(loopbackModel(server), messages, () => {}, { env: {} });
    expect(result.text).toBe('one two');
    expect(result.finishReason).toBe('stop');
  });

  it.each<[string, string, boolean]>([
    ['neither finish_reason nor [DONE]: cut off', `${data(chunk({ content: 'half a sent' }))}`, true],
    ['finish_reason without [DONE]: complete', `${data(chunk({ content: 'whole' }, 'stop'))}`, false],
    ['[DONE] without finish_reason: complete', `${data(chunk({ content: 'whole' }))}data: [DONE]\n\n`, false],
  ])('a clean end of the body with %s', async (_name, body, cut) => {
    server.enqueue(sseBytes(body));
    const result = await chatStream(loopbackModel(server), messages, () => {}, { env: {} });
    expect(result.cut === true).toBe(cut);
  });

  it('returns once [DONE] arrived even if the server then keeps the body open', async () => {
    server.enqueue({ type: 'stall', sendHeaders: true, body: `${data(chunk({ content: 'done' }, 'stop'))}data: [DONE]\n\n` });
    const result = await chatStream(loopbackModel(server, { timeout_ms: 300 }), messages, () => {}, { env: {} });
    expect(result.text).toBe('done');
  });

  it('reads the body to its end after [DONE] rather than aborting (the connection stays reusable)', async () => {
    const aborted: unknown[] = [];
    const onError = (message: unknown) => void aborted.push((message as { error: unknown }).error);
    diagnosticsChannel.subscribe('undici:request:error', onError);
    try {
      for (let i = 0; i < 3; i++) {
        // Sliced, so [DONE] arrives before the end of the HTTP body.
        server.enqueue({ ...textReply(['a', 'b', 'c']), chunkSize: 5 } as ScriptedResponse);
        expect((await chatStream(loopbackModel(server), messages, () => {}, { env: {} })).text).toBe('abc');
      }
      expect(aborted).toEqual([]);
    } finally {
      diagnosticsChannel.unsubscribe('undici:request:error', onError);
    }
  });

  it('stops at maxReplyChars: keeps that much, says so, and returns while the server is still sending', async () => {
    // The body never ends: only stopping at the cap returns before the idle timeout.
    const body = Array.from({ length: 50 }, (_, i) => data(chunk({ content: `piece${i} ` }))).join('');
    server.enqueue({ type: 'stall', sendHeaders: true, body });
    const seen = collectEvents();
    const result = await chatStream(loopbackModel(server, { timeout_ms: 3000 }), messages, seen.onEvent, { env: {}, maxReplyChars: 20 });
    expect(result.text).toBe('piece0 piece1 piece2');
    expect(seen.text()).toBe('piece0 piece1 piece2');
    expect(result.capped).toBe(20);
    expect(result.cut).toBeUndefined();
  });

  it('counts tool-call arguments toward maxReplyChars', async () => {
    const args = JSON.stringify({ path: 'x'.repeat(100) });
    server.enqueue(toolCallReply([{ id: 'a', name: 'fs__read_file', arguments: args }, { id: 'b', name: 'fs__read_file', arguments: args }]));
    const result = await chatStream(loopbackModel(server), messages, () => {}, { env: {}, tools, maxReplyChars: 150 });
    expect(result.capped).toBe(150);
    expect(result.toolCalls.map((c) => c.id)).toEqual(['a', 'b']);
  });

  it.each([undefined, 1, 3])('reads SSE sent with the wrong content-type (slices: %s)', async (chunkSize) => {
    const body = `\n${data(chunk({ content: 'plain' }, 'stop'))}data: [DONE]\n\n`;
    server.enqueue({ type: 'raw', body, headers: { 'content-type': 'text/plain' }, ...(chunkSize ? { chunkSize } : {}) });
    const result = await chatStream(loopbackModel(server), messages, () => {}, { env: {} });
    expect(result.text).toBe('plain');
  });

  it('accepts a non-streamed JSON completion from a proxy that ignored stream: true', async () => {
    const completion = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Done.',
            reasoning_content: 'thinking',
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'fs__stat', arguments: '{"path":"/"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    };
    server.enqueue({ type: 'raw', body: JSON.stringify(completion) });
    const seen = collectEvents();
    const result = await chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} });
    expect(result).toEqual({
      text: 'Done.',
      toolCalls: [{ id: 'call_9', name: 'fs__stat', arguments: '{"path":"/"}' }],
      finishReason: 'tool_calls',
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      receivedDelta: true,
    });
    expect(seen.reasoning()).toBe('thinking');
    expect(seen.text()).toBe('Done.');
  });

  it('bounds idle gaps, not the whole reply', async () => {
    // 24 pieces 40 ms apart take about a second in all; each gap is far below the 600 ms timeout.
    const slow = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        if (n++ < 24) return void res.write(data(chunk({ content: '.' })));
        clearInterval(timer);
        res.end(data(chunk({}, 'stop')));
      }, 40);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const port = (slow.address() as AddressInfo).port;
      const result = await chatStream(loopbackModel(server, { endpoint: `http://127.0.0.1:${port}/v1`, timeout_ms: 600 }), messages, () => {}, { env: {} });
      expect(result.text).toBe('.'.repeat(24));
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });
});

describe('a tool-call delta without index (seed 000 §5)', () => {
  const noIndex = () => ({
    type: 'sse' as const,
    events: [
      chunk({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'fs__read_file', arguments: '{"pa' } }] }),
      chunk({ tool_calls: [{ function: { arguments: 'th":"a"}' } }] }),
      chunk({}, 'tool_calls'),
    ],
  });
  const debugs = (events: BrokerEvent[]) => events.flatMap((e) => (e.type === 'debug' ? [e.message] : []));

  it('is taken as index 0 and said once per stream under AISH_DEBUG', async () => {
    server.enqueue(noIndex());
    const seen = collectEvents();
    const result = await chatStream(loopbackModel(server), messages, seen.onEvent, { env: { AISH_DEBUG: '1' } });
    expect(result.toolCalls).toEqual([{ id: 'call_1', name: 'fs__read_file', arguments: '{"path":"a"}' }]);
    expect(debugs(seen.events)).toEqual(['tool-call delta without "index": placed by its position in the delta (index 0 for a single call)']);
    // Once per stream: the next reply says it again.
    server.enqueue(noIndex());
    const again = collectEvents();
    await chatStream(loopbackModel(server), messages, again.onEvent, { env: { AISH_DEBUG: '1' } });
    expect(debugs(again.events)).toHaveLength(1);
  });

  it('says nothing without AISH_DEBUG, nor when the index is there', async () => {
    server.enqueue(noIndex());
    const seen = collectEvents();
    await chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} });
    expect(debugs(seen.events)).toEqual([]);
    server.enqueue(toolCallReply([{ id: 'call_1', name: 'fs__read_file', arguments: '{}' }]));
    const indexed = collectEvents();
    await chatStream(loopbackModel(server), messages, indexed.onEvent, { env: { AISH_DEBUG: '1' } });
    expect(debugs(indexed.events)).toEqual([]);
  });
});

describe('the error contract, from real failures', () => {
  it('a closed port: transport: Connection refused', async () => {
    const port = await closedPort();
    const err = await brokerError(chatStream(loopbackModel(server, { endpoint: `http://127.0.0.1:${port}/v1` }), messages, () => {}, { env: {} }));
    expect(err.message).toBe('transport: Connection refused');
    expect(err.kind).toBe('transport');
    expect(err.receivedDelta).toBe(false);
    expect(isFallbackEligible(err)).toBe(true);
  });

  it("an unresolvable host: transport: Couldn't resolve host", async () => {
    const err = await brokerError(chatStream(loopbackModel(server, { endpoint: 'http://nonexistent.invalid/v1', timeout_ms: 15_000 }), messages, () => {}, { env: {} }));
    expect(err.message).toBe("transport: Couldn't resolve host");
    expect(isFallbackEligible(err)).toBe(true);
  });

  it('a server that never answers: transport: Timeout was reached', async () => {
    server.enqueue({ type: 'stall' });
    const err = await brokerError(chatStream(loopbackModel(server, { timeout_ms: 300 }), messages, () => {}, { env: {} }));
    expect(err.message).toBe('transport: Timeout was reached');
    expect(err.receivedDelta).toBe(false);
    expect(isFallbackEligible(err)).toBe(true);
    // It took the connection: it is up, not answering; and it sent no header, so it did not stall mid-reply.
    expect(err.unanswered).toBe(true);
    expect(err.stalled).toBe(false);
  });

  it('a connection never made is not "unanswered"', async () => {
    const err = await brokerError(chatStream(loopbackModel(server, { endpoint: `http://127.0.0.1:${await closedPort()}/v1` }), messages, () => {}, { env: {} }));
    expect(err.message).toBe('transport: Connection refused');
    expect(err.unanswered).toBe(false);
  });

  it('a stream that stalls after some text: Timeout, with the delta noted', async () => {
    server.enqueue({ type: 'stall', sendHeaders: true, body: data(chunk({ content: 'partial' })) });
    const seen = collectEvents();
    const err = await brokerError(chatStream(loopbackModel(server, { timeout_ms: 300 }), messages, seen.onEvent, { env: {} }));
    expect(err.message).toBe('transport: Timeout was reached');
    expect(err.receivedDelta).toBe(true);
    expect(seen.text()).toBe('partial');
    expect(isFallbackEligible(err)).toBe(false);
  });

  it('503 with a body: transport: HTTP 503: <snippet>', async () => {
    server.enqueue({ type: 'raw', status: 503, body: '{"error":{"message":"Loading model",\n  "type":"unavailable_error","code":503}}' });
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('transport: HTTP 503: Loading model');
    expect(err.status).toBe(503);
    expect(isFallbackEligible(err)).toBe(true);
  });

  it('a long error body is cut to a snippet', async () => {
    server.enqueue({ type: 'raw', status: 401, body: `Unauthorized ${'x'.repeat(100_000)}`, headers: { 'content-type': 'text/plain' } });
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe(`transport: HTTP 401: Unauthorized ${'x'.repeat(200 - 'Unauthorized '.length)}…`);
    expect(isFallbackEligible(err)).toBe(false);
  });

  it('an error status with an empty body names the status', async () => {
    server.enqueue({ type: 'raw', status: 502, body: '' });
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('transport: HTTP 502: Bad Gateway');
  });

  it('404 for a model that is not there is fallback-eligible', async () => {
    server.enqueue({ type: 'raw', status: 404, body: '{"error":{"message":"model \\"qwen3:32b\\" not found, try pulling it first"}}' });
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toMatch(/^transport: HTTP 404: /);
    expect(isFallbackEligible(err)).toBe(true);
  });

  it.each([undefined, 7])('an error envelope with 200: api: <message> (slices: %s)', async (chunkSize) => {
    const body = '{"error":{"message":"Invalid value for tools[0].function.name","type":"invalid_request_error"}}';
    server.enqueue({ type: 'raw', body, ...(chunkSize ? { chunkSize } : {}) });
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('api: Invalid value for tools[0].function.name');
    expect(isFallbackEligible(err)).toBe(false);
  });

  it('an error chunk in the stream after text: api:, the text already emitted', async () => {
    server.enqueue({ type: 'sse', events: [chunk({ content: 'so far' }), { error: { message: 'upstream overloaded', code: 529 } }] });
    const seen = collectEvents();
    const err = await brokerError(chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} }));
    expect(err.message).toBe('api: upstream overloaded');
    expect(err.receivedDelta).toBe(true);
    expect(seen.text()).toBe('so far');
  });

  it('an `event: error` SSE event: api:', async () => {
    server.enqueue(sseBytes(`event: error\ndata: {"error":{"message":"rate limit"}}\n\n`));
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('api: rate limit');
  });

  it.each([undefined, 1])('an HTML page with 200: decode: expected an event stream, got text/html (slices: %s)', async (chunkSize) => {
    const body = '<!DOCTYPE html><html><body>Captive portal</body></html>';
    server.enqueue({ type: 'raw', body, headers: { 'content-type': 'text/html; charset=utf-8' }, ...(chunkSize ? { chunkSize } : {}) });
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('decode: expected an event stream, got text/html');
    expect(isFallbackEligible(err)).toBe(false);
  });

  it('an HTML page labelled as an event stream: decode: no valid chunks in stream', async () => {
    server.enqueue(sseBytes('<html>\n<body>502 Bad Gateway</body>\n</html>\n'));
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('decode: no valid chunks in stream');
  });

  it('JSON with 200 that is no completion: decode:', async () => {
    server.enqueue({ type: 'raw', body: '{"status":"ok"}' });
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('decode: expected an event stream, got JSON that is not a completion: {"status":"ok"}');
  });

  it('a server that closes mid-stream after text: transport:, with the delta noted', async () => {
    server.enqueue({ type: 'close-mid', body: `${data(chunk({ content: 'half' }))}data: {"choices":[{"delta":{"content":"an` });
    const seen = collectEvents();
    const err = await brokerError(chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} }));
    expect(err.message).toBe('transport: connection closed mid-stream');
    expect(err.receivedDelta).toBe(true);
    expect(seen.text()).toBe('half');
  });

  it('a server that closes mid-stream before any delta', async () => {
    server.enqueue({ type: 'close-mid', body: ': keep-alive\n\n' });
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('transport: connection closed mid-stream');
    expect(err.receivedDelta).toBe(false);
  });

  it('a body that ends cleanly inside an event is a broken stream too', async () => {
    server.enqueue(sseBytes(`${data(chunk({ content: 'cut' }))}data: {"choices":[{"delta":{"cont`));
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('transport: connection closed mid-stream');
    expect(err.receivedDelta).toBe(true);
  });

  it('a connection reset before any response', async () => {
    server.enqueue({ type: 'reset' });
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('transport: connection closed before a response');
    expect(isFallbackEligible(err)).toBe(false);
  });

  it.each([
    [{ endpoint: '' }, 'broker: model preset has no endpoint'],
    [{ model: '' }, 'broker: model preset has no model name'],
    [{ endpoint: 'localhost:8080' }, 'broker: endpoint must be http:// or https://, got "localhost:8080"'],
    [{ endpoint: 'http://' }, 'broker: endpoint is not a URL: "http://"'],
    [{ headers: { 'X-Bad': 'line\nbreak' } }, 'broker: header "X-Bad" cannot be sent as an HTTP header'],
  ])('config problem %j: %s, before any request', async (overrides, message) => {
    const err = await brokerError(chatStream(loopbackModel(server, overrides), messages, () => {}, { env: {} }));
    expect(err.message).toBe(message);
    expect(err.kind).toBe('broker');
    expect(server.requests).toHaveLength(0);
  });
});

describe('bad input', () => {
  it('skips data that is not JSON with one warning', async () => {
    server.enqueue(sseBytes(`data: hello\n\n${data(chunk({ content: 'A' }))}data: {broken\n\n${data(chunk({ content: 'B' }, 'stop'))}data: [DONE]\n\n`));
    const seen = collectEvents();
    const result = await chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} });
    expect(result.text).toBe('AB');
    expect(seen.warnings()).toEqual(['skipped stream data that is not JSON: hello']);
  });

  it('a stream with no valid chunk: decode: no valid chunks in stream', async () => {
    server.enqueue(sseBytes('data: hello\n\ndata: world\n\ndata: [DONE]\n\n'));
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('decode: no valid chunks in stream');
  });

  it('an empty event stream: decode: no valid chunks in stream', async () => {
    server.enqueue(sseBytes(''));
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('decode: no valid chunks in stream');
  });

  it('a stream of only comments: decode: no valid chunks in stream', async () => {
    server.enqueue(sseBytes(': ping\n\n: ping\n\n'));
    const err = await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {} }));
    expect(err.message).toBe('decode: no valid chunks in stream');
  });

  it('an empty reply that ends with [DONE] is an empty answer', async () => {
    server.enqueue({ type: 'sse', events: [chunk({ role: 'assistant' }, 'stop')] });
    const result = await chatStream(loopbackModel(server), messages, () => {}, { env: {} });
    expect(result).toEqual({ text: '', toolCalls: [], finishReason: 'stop', receivedDelta: false });
  });

  it('ignores chunks of unexpected shape', async () => {
    server.enqueue({
      type: 'sse',
      events: [
        { choices: 'nope' },
        { choices: [null] },
        { choices: [{ index: 0 }] },
        { choices: [{ delta: 'text' }] },
        { choices: [{ delta: { content: 42, reasoning_content: {}, tool_calls: 'x' } }] },
        { choices: [{ delta: { content: null, tool_calls: [null, 3, { function: 'x' }] } }] },
        [1, 2],
        'data: 17\n\n',
        'data: null\n\n',
        chunk({ content: 'still fine' }, 'stop'),
      ],
    });
    const seen = collectEvents();
    const result = await chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} });
    expect(result.text).toBe('still fine');
    expect(result.toolCalls).toEqual([]);
    expect(seen.warnings()).toEqual(['skipped stream data that is not JSON: [1,2]', 'ignored 1 tool call without a name']);
  });

  it('reads content parts (Mistral), refusals and the legacy function_call shape', async () => {
    server.enqueue({
      type: 'sse',
      events: [
        chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }] }),
        chunk({ content: [{ type: 'text', text: 'Hello' }, { type: 'image_url', image_url: 'x' }] }),
        chunk({ refusal: ' (refused)' }),
        chunk({ function_call: { name: 'fs__stat', arguments: '{"path":' } }),
        chunk({ function_call: { arguments: '"/"}' } }, 'function_call'),
      ],
    });
    const seen = collectEvents();
    const result = await chatStream(loopbackModel(server), messages, seen.onEvent, { env: {} });
    expect(seen.reasoning()).toBe('hmm');
    expect(result.text).toBe('Hello (refused)');
    expect(result.toolCalls).toEqual([{ id: 'call_0', name: 'fs__stat', arguments: '{"path":"/"}' }]);
    expect(result.finishReason).toBe('function_call');
  });

  it('carries a 10 MB single delta', async () => {
    const big = 'z'.repeat(10 * 1024 * 1024);
    server.enqueue({ type: 'sse', events: [chunk({ content: big }), chunk({ content: '!' }, 'stop')] });
    const result = await chatStream(loopbackModel(server), messages, () => {}, { env: {} });
    expect(result.text.length).toBe(big.length + 1);
    expect(result.text.endsWith('z!')).toBe(true);
  });

  it('turns invalid UTF-8 into replacement characters, keeping split characters whole', async () => {
    const head = Buffer.from('data: {"choices":[{"delta":{"content":"ok ');
    const tail = Buffer.from(' 東京"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
    server.enqueue(sseBytes(Buffer.concat([head, Buffer.from([0xff, 0xc3]), Buffer.from('x'), tail]), 1));
    const result = await chatStream(loopbackModel(server), messages, () => {}, { env: {} });
    expect(result.text).toBe('ok \ufffd\ufffdx 東京');
  });
});

describe("the caller's text buffer", () => {
  it('collects the text of the reply, which is the result text', async () => {
    server.enqueue(textReply(['Hel', 'lo', ' there']));
    const text = new TextBuffer();
    const result = await chatStream(loopbackModel(server), messages, () => {}, { env: {}, text });
    expect(text.toString()).toBe('Hello there');
    expect(result.text).toBe('Hello there');
  });

  it('keeps the partial text of a cut reply, and the next request on it starts empty', async () => {
    server.enqueue({ type: 'close-mid', body: `${data(chunk({ content: 'half' }))}${data(chunk({ content: ' a reply' }))}` });
    const text = new TextBuffer();
    await brokerError(chatStream(loopbackModel(server), messages, () => {}, { env: {}, text }));
    expect(text.toString()).toBe('half a reply');
    server.enqueue(textReply(['the ', 'retry']));
    const result = await chatStream(loopbackModel(server), messages, () => {}, { env: {}, text });
    expect(text.toString()).toBe('the retry');
    expect(result.text).toBe('the retry');
  });

  it('keeps the partial text of a cancelled reply', async () => {
    server.enqueue({ type: 'stall', sendHeaders: true, body: data(chunk({ content: 'partial' })) });
    const controller = new AbortController();
    const text = new TextBuffer();
    const run = chatStream(loopbackModel(server), messages, () => controller.abort(), { env: {}, signal: controller.signal, text });
    await rejectionOf(run);
    expect(text.toString()).toBe('partial');
  });

  it('is emptied even when the request never starts (already aborted)', async () => {
    const text = new TextBuffer();
    text.push('an earlier attempt');
    await rejectionOf(chatStream(loopbackModel(server), messages, () => {}, { env: {}, signal: AbortSignal.abort(), text }));
    expect(text.toString()).toBe('');
  });
});

describe('cancellation and callbacks', () => {
  it('an abort before the reply rejects with the reason, not a BrokerError', async () => {
    server.enqueue({ type: 'stall' });
    const controller = new AbortController();
    const reason = new Error('interrupted');
    const run = chatStream(loopbackModel(server), messages, () => {}, { env: {}, signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort(reason);
    expect(await rejectionOf(run)).toBe(reason);
  });

  it('an abort mid-stream keeps what was emitted and rejects with an AbortError', async () => {
    server.enqueue({ type: 'stall', sendHeaders: true, body: data(chunk({ content: 'partial' })) });
    const controller = new AbortController();
    const seen: BrokerEvent[] = [];
    const run = chatStream(loopbackModel(server), messages, (e) => {
      seen.push(e);
      controller.abort();
    }, { env: {}, signal: controller.signal });
    const err = await rejectionOf(run);
    expect(err).not.toBeInstanceOf(BrokerError);
    expect((err as Error).name).toBe('AbortError');
    expect(seen).toEqual([{ type: 'text', text: 'partial' }]);
  });

  it('an already aborted signal sends nothing', async () => {
    const reason = new Error('too late');
    const err = await rejectionOf(chatStream(loopbackModel(server), messages, () => {}, { env: {}, signal: AbortSignal.abort(reason) }));
    expect(err).toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('an error thrown by onEvent comes back unchanged', async () => {
    server.enqueue(textReply(['a', 'b']));
    const boom = new Error('renderer broke');
    const err = await rejectionOf(chatStream(loopbackModel(server), messages, () => {
      throw boom;
    }, { env: {} }));
    expect(err).toBe(boom);
  });

  it('an error thrown by onEvent for the closing warning comes back unchanged too', async () => {
    server.enqueue({ type: 'sse', events: [chunk({ tool_calls: [{ index: 0, id: 'x', function: { arguments: '{}' } }] }, 'tool_calls')] });
    const boom = new Error('no warnings please');
    const err = await rejectionOf(chatStream(loopbackModel(server), messages, (e) => {
      if (e.type === 'warning') throw boom;
    }, { env: {} }));
    expect(err).toBe(boom);
  });

  it('preloadBroker resolves', async () => {
    await expect(preloadBroker()).resolves.toBeUndefined();
  });
});
