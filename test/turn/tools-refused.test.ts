// A backend that refuses `tools` (a model without tool support, a server started without them) is
// asked again without them, said once, and not sent them again this session. The bodies are the
// ones these servers answer with.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusesTools, BrokerError } from '../../src/broker/errors.js';
import type { ChatMessage, ToolDefinition } from '../../src/broker/types.js';
import { presetClient } from '../../src/turn/model-client.js';
import { ModelServer, presetsConfig, textReply } from '../support/model-server.js';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(async () => {
  await server.close();
});

const messages: ChatMessage[] = [{ role: 'user', content: 'hello' }];
const tools: ToolDefinition[] = [{ type: 'function', function: { name: 'aish__read_file', description: 'read a file', parameters: { type: 'object', properties: {} } } }];

const config = () => presetsConfig({ fast: server.url });

/** What servers answer when the model takes no tools, as recorded. */
const REFUSALS: [string, number, string][] = [
  ['Ollama, a model without tool support', 400, '{"error":{"message":"registry.ollama.ai/library/gemma3:1b does not support tools","type":"api_error","param":null,"code":null}}'],
  ['llama.cpp without --jinja', 500, '{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}'],
  ['vLLM without --enable-auto-tool-choice', 400, '{"object":"error","message":"\\"auto\\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}'],
  ['LM Studio refusing the tool choice', 400, '{"error":"Invalid tool_choice type: \'object\'. Supported string values: none, auto, required"}'],
];

describe('a backend that refuses tools', () => {
  it.each(REFUSALS)('%s: asked again without tools, said once, never sent them again', async (_name, status, body) => {
    server.requests.length = 0;
    server.enqueue({ type: 'raw', status, body }, textReply(['CMD: ls']), textReply(['again']));
    const said: string[] = [];
    const client = presetClient(config(), {}, 'fast', (t) => t, { streamOptions: new Set(), tools: new Set(), status: (m) => said.push(m) });
    const first = await client.stream(messages, () => {}, { signal: new AbortController().signal, tools });
    expect(first.text).toBe('CMD: ls');
    const second = await client.stream(messages, () => {}, { signal: new AbortController().signal, tools });
    expect(second.text).toBe('again');
    expect(server.requests.map((r) => Boolean(r.body.tools))).toEqual([true, false, false]);
    expect(server.requests.map((r) => 'tool_choice' in r.body)).toEqual([server.requests[0]!.body.tool_choice !== undefined, false, false]);
    expect(said).toEqual(['fast: the model takes no tools; asking without them']);
  });

  it('other failures are not taken for a refusal', () => {
    const error = (status: number, message: string, receivedDelta = false) => new BrokerError('api', message, { status, receivedDelta });
    expect(refusesTools(error(400, 'api: HTTP 400: context length exceeded'))).toBe(false);
    expect(refusesTools(error(401, 'api: HTTP 401: model does not support tools'))).toBe(false);
    expect(refusesTools(error(400, 'api: HTTP 400: model does not support tools', true))).toBe(false);
    expect(refusesTools(new Error('does not support tools'))).toBe(false);
    expect(refusesTools(error(400, 'api: HTTP 400: gemma3:1b does not support tools'))).toBe(true);
  });

  it('a request without tools that fails is not asked again', async () => {
    server.requests.length = 0;
    server.enqueue({ type: 'raw', status: 400, body: REFUSALS[0]![2] });
    const client = presetClient(config(), {}, 'fast', (t) => t);
    await expect(client.stream(messages, () => {}, { signal: new AbortController().signal })).rejects.toThrow(/does not support tools/);
    expect(server.requests).toHaveLength(1);
  });

  it('stream_options refused, then tools: each is learnt once', async () => {
    server.requests.length = 0;
    server.enqueue(
      { type: 'raw', status: 400, body: '{"error":{"message":"Unrecognized request argument supplied: stream_options"}}' },
      { type: 'raw', status: 400, body: REFUSALS[0]![2] },
      textReply(['fine']),
    );
    const client = presetClient(config(), {}, 'fast', (t) => t);
    expect((await client.stream(messages, () => {}, { signal: new AbortController().signal, tools })).text).toBe('fine');
    expect(server.requests.map((r) => [Boolean(r.body.stream_options), Boolean(r.body.tools)])).toEqual([
      [true, true],
      [false, true],
      [false, false],
    ]);
  });
});
