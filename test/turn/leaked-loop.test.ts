// Leaked tool calls through the whole turn: recorded transcripts of llama.cpp, Ollama and vLLM
// writing calls as text, served byte by byte by the loopback model server, read by the real
// broker, recovered by the tool loop and run on the real MCP fixture server through the same
// validation and gate as any call. The person's view (the observer) never receives the call text.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig, type Config } from '../../src/config/schema.js';
import { PendingOutput } from '../../src/context/pending-output.js';
import { McpRegistry } from '../../src/mcp/registry.js';
import { ApprovalGate } from '../../src/safety/gate.js';
import { policyFromConfig } from '../../src/safety/policy.js';
import { DECLINED_CALL } from '../../src/tool-call.js';
import { mcpToolHost } from '../../src/tools/mcp-host.js';
import { TurnCore } from '../../src/turn/core.js';
import { presetModels } from '../../src/turn/model-client.js';
import { correctionFor } from '../../src/turn/tool-loop.js';
import type { TurnEvent } from '../../src/turn/types.js';
import { fixtureStdio, stopAllServers } from '../support/mcp-servers.js';
import { ModelServer, textReply, type ScriptedResponse } from '../support/model-server.js';
import { loadSseFixture, sseBytes } from '../support/sse-fixtures.js';

let server: ModelServer;
let registry: McpRegistry;

beforeAll(async () => {
  server = await ModelServer.start();
  registry = new McpRegistry({ env: {}, clientVersion: '0.0.0-test' });
  const failures = await registry.connectAll({ fx: fixtureStdio() });
  expect(failures).toEqual([]);
});
afterAll(async () => {
  await registry.closeAll();
  await server.close();
  await stopAllServers();
});

function config(mcp: Record<string, unknown> = { auto_approve: ['fx__*'] }): Config {
  const result = resolveConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, mcp }, defaultModels({}));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

/** A TurnCore on the loopback model and the fixture server; nobody answers questions. */
function setup(cfg = config()) {
  const events: TurnEvent[] = [];
  const core = new TurnCore({
    config: cfg,
    models: presetModels(cfg, {}, (t) => t),
    pending: new PendingOutput(),
    tools: mcpToolHost(registry),
    gate: new ApprovalGate({ policy: policyFromConfig(cfg), ask: null, show: () => {} }),
    commands: null,
    recorder: null,
    background: () => null,
    project: async () => null,
    observer: (e) => events.push(e),
  });
  const shown = () => events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
  const statuses = () => events.flatMap((e) => (e.type === 'status' ? [e.message] : []));
  const began = () => events.flatMap((e) => (e.type === 'tool-begin' ? [e.call.name] : []));
  /** Text the view would get after it closed the reply (it would be lost). */
  const strayText = () => {
    let open = false;
    return events.filter((e) => (e.type === 'request-start' ? ((open = true), false) : e.type === 'request-end' ? ((open = false), false) : e.type === 'text' && !open));
  };
  return { core, events, shown, statuses, began, strayText };
}

const fixture = (name: string, chunkSize?: number): ScriptedResponse => sseBytes(loadSseFixture(name).wire, chunkSize);
const signal = () => new AbortController().signal;
const ID = expect.stringMatching(/^[A-Za-z0-9]{9}$/);

const TRANSCRIPTS = [
  { name: 'llamacpp-leaked-hermes', tool: 'fx__echo', args: { text: 'hi there' }, result: 'echo: hi there', before: "I'll echo it." },
  { name: 'ollama-leaked-args', tool: 'fx__sum', args: { a: 2, b: 3 }, result: '5', before: '' },
  { name: 'vllm-leaked-bare-json', tool: 'fx__echo', args: { text: 'from vllm' }, result: 'echo: from vllm', before: '' },
];

describe.each(TRANSCRIPTS)('$name', ({ name, tool, args, result, before }) => {
  it.each([{ chunk: 'whole', size: undefined }, { chunk: '1-byte slices', size: 1 }])('$chunk: recovered, run, answered; the call never shown', async ({ size }) => {
    const start = server.requests.length;
    server.enqueue(fixture(name, size), textReply(['Done: ', result]));
    const t = setup();
    const outcome = await t.core.ask('go', 'fast', signal());
    expect(outcome).toMatchObject({ outcome: 'done', text: `Done: ${result}`, toolCalls: 1 });
    expect(t.began()).toEqual([tool]);
    expect(t.shown()).toBe(`${before}Done: ${result}`);
    expect(t.strayText()).toEqual([]);
    expect(t.statuses()).toContain('recovered a tool call the model wrote as text');

    const second = server.requests[start + 1]!.body;
    expect(second.messages.slice(-2)).toEqual([
      { role: 'assistant', content: before, tool_calls: [{ id: ID, type: 'function', function: { name: tool, arguments: JSON.stringify(args) } }] },
      { role: 'tool', tool_call_id: second.messages.at(-2).tool_calls[0].id, content: result },
    ]);
    // The leaked text is not kept as the answer anywhere in the conversation.
    expect(t.core.context.turns.map((x) => x.content).join('\n')).not.toMatch(/TOOL_CALLS|tool_call>|"parameters"/);
  });
});

describe('leaked calls through the loop', () => {
  it('an unreadable call gets one corrective retry; the retry is recovered and run', async () => {
    const start = server.requests.length;
    server.enqueue(textReply(['<tool_call>{"name": "fx__echo", "arguments": {text: oops}}</tool_call>']), textReply(['fx__echo[ARGS]{"text": "fixed"}']), textReply(['ok']));
    const t = setup();
    await t.core.ask('echo fixed', 'fast', signal());
    expect(server.requests.length - start).toBe(3);
    const retry = server.requests[start + 1]!.body.messages;
    expect(retry.slice(-3, -1)).toEqual([
      { role: 'user', content: 'echo fixed' },
      { role: 'assistant', content: '<tool_call>{"name": "fx__echo", "arguments": {text: oops}}</tool_call>' },
    ]);
    const reason = /could not be read \((not valid JSON .*)\)\. To call/.exec(retry.at(-1).content)?.[1];
    expect(retry.at(-1)).toEqual({ role: 'user', content: correctionFor(reason!) });
    expect(t.began()).toEqual(['fx__echo']);
    expect(t.shown()).toBe('ok');
    // The failed attempt and the correction were for the retry only.
    expect(t.core.context.turns.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('never retries twice: a second unreadable reply is kept as text', async () => {
    const start = server.requests.length;
    const broken = 'files[ARGS]{';
    // A third request would find no scripted reply and fail the turn.
    server.enqueue(textReply([broken]), textReply(['fx__echo[ARGS]{"text": ']));
    const t = setup();
    const outcome = await t.core.ask('x', 'fast', signal());
    expect(server.requests.length - start).toBe(2);
    expect(outcome).toMatchObject({ outcome: 'done', text: 'fx__echo[ARGS]{"text": ' });
    expect(t.shown()).toBe('fx__echo[ARGS]{"text": ');
    expect(t.strayText()).toEqual([]);
    expect(t.statuses().filter((s) => s.includes('could not read') || s.includes('no readable tool call'))).toHaveLength(2);
    expect(t.began()).toEqual([]);
  });

  it('a recovered call goes through the gate: with nobody to ask it is declined', async () => {
    const start = server.requests.length;
    server.enqueue(textReply(['fx__echo[ARGS]{"text": "x"}']), textReply(['fine']));
    const t = setup(config({ auto_approve: [] }));
    await t.core.ask('x', 'fast', signal());
    expect(server.requests[start + 1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: DECLINED_CALL });
    expect(t.began()).toEqual([]);
  });

  it('a recovered call goes through validation: bad arguments get the schema error as their tool turn', async () => {
    const start = server.requests.length;
    server.enqueue(textReply(['<function=fx__sum>{"a": "two", "b": 3}</function>']), textReply(['sorry']));
    const t = setup();
    await t.core.ask('x', 'fast', signal());
    const toolTurn = server.requests[start + 1]!.body.messages.at(-1);
    expect(toolTurn.role).toBe('tool');
    expect(toolTurn.content).toMatch(/^\[aish\] tool arguments do not match the tool's input schema: .*number/);
  });

  it('a JSON call to a tool that was not offered, and a mention of a tool, stay text', async () => {
    const start = server.requests.length;
    const json = '{"name": "weather__now", "arguments": {"city": "Oslo"}}';
    server.enqueue(textReply([json]), textReply(['Call fx__echo with some text.']));
    const t = setup();
    await t.core.ask('a', 'fast', signal());
    await t.core.ask('b', 'fast', signal());
    expect(server.requests.length - start).toBe(2);
    expect(t.shown()).toBe(`${json}Call fx__echo with some text.`);
    expect(t.strayText()).toEqual([]);
    expect(t.began()).toEqual([]);
  });
});
