// `aish -p --output json|jsonl` end to end: the built program against the loopback model server
// and the real server-everything over stdio, its stdout parsed with JSON.parse line by line, the
// exit code of each ending (answered, model error, denied, interrupted, a closed stdout).

import { beforeEach, describe, expect, it } from 'vitest';
import type { AishHome } from '../support/aish-env.js';
import { modelE2e } from '../support/model-e2e.js';
import { fakeSecrets } from '../support/fake-secrets.js';
import { HOSTILE, RAW_CONTROL } from '../support/hostile.js';
import { everythingStdio } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply, type ScriptedResponse } from '../support/model-server.js';
import { runAish, startAish } from '../support/run-aish.js';
import { NEEDS_APPROVAL_CALL } from '../../src/tool-call.js';

let h: AishHome;
let server: ModelServer;

function config(extra: Record<string, unknown> = {}, mcp: Record<string, unknown> | null = null) {
  return {
    models: { fast: { endpoint: server.url, model: 'test-model', key_env: 'TEST_MODEL_KEY' } },
    ...(mcp ? { mcp: { servers: { everything: everythingStdio() }, ...mcp } } : {}),
    ...extra,
  };
}

// A fresh HOME and loopback model per test (model-e2e.ts), under the names these tests use, with
// this file's own preset (a key_env, to see it redacted).
const e2e = modelE2e();
beforeEach(() => {
  h = e2e.h;
  server = e2e.server;
  h.writeConfig(config());
});

const run = (args: string[], env: Record<string, string> = {}) => runAish({ args, stdin: '', cwd: h.cwd, env: { ...h.env, ...env }, timeoutMs: 30_000 });

/** Every line of stdout, each parsed by itself: a line that is not whole JSON fails the test. */
function lines(stdout: string): any[] {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout.slice(0, -1).split('\n').map((line) => JSON.parse(line));
}

/** The one object of `--output json`. */
function object(stdout: string): any {
  const all = lines(stdout);
  expect(all).toHaveLength(1);
  return all[0];
}

const usageChunk = (prompt: number, completion: number) => ({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } });
const echoCall = (id: string, message: string) => toolCallReply([{ id, name: 'everything__echo', arguments: JSON.stringify({ message }) }]);

/** A text reply whose first piece is sent at once and the rest only when `until` settles. */
function gated(first: string, rest: string[], until: Promise<unknown>): ScriptedResponse {
  const { events } = textReply([first, ...rest]);
  return { type: 'gated', before: events.slice(0, 2), after: events.slice(2), until };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('--output json', () => {
  it('a text reply: one object with the reply, its CMD: lines, the preset and the usage', async () => {
    const reply = textReply(['Use ls.\n', 'CMD: ls -la\n']);
    if (reply.type === 'sse') reply.events.push(usageChunk(12, 3));
    server.enqueue(reply);
    const r = await run(['-p', 'how do I list files?', '--output', 'json']);
    expect(r.code).toBe(0);
    expect(object(r.stdout)).toEqual({
      reply: 'Use ls.\nCMD: ls -la\n',
      cmd_lines: ['ls -la'],
      tool_calls: [],
      model: 'fast',
      usage: { prompt_tokens: 12, completion_tokens: 3, estimated: false },
      session: null,
    });
    expect(r.stderr).not.toContain('{');
  });

  it('with --resume the session file is named, and usage without server figures is estimated', async () => {
    server.enqueue(textReply(['first']), textReply(['second']));
    h.writeConfig(config({ history: { dir: `${h.home}/hist` } }));
    // `-p` alone keeps no session: one made by the REPL, named with :save.
    await runAish({ args: [], stdin: 'one\n:save work\n', cwd: h.cwd, env: h.env });
    const r = await run(['--resume', 'work', '-p', 'two', '-o', 'json']);
    expect(r.code).toBe(0);
    const answer = object(r.stdout);
    expect(answer.reply).toBe('second');
    expect(answer.session).toBe(`${h.home}/hist/sessions/work.jsonl`);
    expect(answer.usage).toMatchObject({ estimated: true, prompt_tokens: expect.any(Number) });
  });

  it('a tool call auto-approved: the real echo tool runs and is listed with its result', async () => {
    h.writeConfig(config({}, { auto_approve: ['everything__*'] }));
    server.enqueue(echoCall('c1', 'hi'), textReply(['The tool said hi.']));
    const r = await run(['-p', 'echo hi', '--output', 'json']);
    expect(r.code).toBe(0);
    expect(object(r.stdout)).toMatchObject({
      reply: 'The tool said hi.',
      tool_calls: [{ name: 'everything__echo', arguments: { message: 'hi' }, status: 'ok', result: 'Echo: hi' }],
    });
  });

  it('a call that would need a question does not run: needs_approval, the model is told, exit 3', async () => {
    h.writeConfig(config({}, {}));
    server.enqueue(echoCall('c1', 'hi'), textReply(['I could not run it.']));
    const r = await run(['-p', 'echo hi', '--output', 'json']);
    expect(r.code).toBe(3);
    expect(object(r.stdout)).toMatchObject({
      reply: 'I could not run it.',
      tool_calls: [{ name: 'everything__echo', arguments: { message: 'hi' }, status: 'needs_approval', result: NEEDS_APPROVAL_CALL }],
    });
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: NEEDS_APPROVAL_CALL });
    expect(r.stderr).toContain('[aish] tool call everything__echo not run: it needs approval');
  });

  it('a CMD: line permissions.deny matches: listed, named on stderr, exit 3 (plain -p too); one that only asks is 0', async () => {
    h.writeConfig(config({ permissions: { deny: ['rm *'] } }));
    server.enqueue(textReply(['Clean up:\nCMD: rm -rf /tmp/x\n']), textReply(['Clean up:\nCMD: rm -rf /tmp/x\n']), textReply(['CMD: ls\n']));
    const json = await run(['-p', 'clean up', '--output', 'json']);
    expect(json.code).toBe(3);
    expect(object(json.stdout).cmd_lines).toEqual(['rm -rf /tmp/x']);
    expect(json.stderr).toContain('[aish] CMD: line denied by permissions: rm *: rm -rf /tmp/x');
    const plain = await run(['-p', 'clean up']);
    expect(plain.code).toBe(3);
    expect(plain.stdout).toBe('Clean up:\nCMD: rm -rf /tmp/x\n');
    const asks = await run(['-p', 'list', '--output', 'json']);
    expect(asks.code).toBe(0);
  });

  it('a model error: the error object and exit 1, nothing else on stdout', async () => {
    server.enqueue({ type: 'raw', status: 500, body: '{"error":{"message":"boom"}}' });
    const r = await run(['-p', 'hi', '--output', 'json']);
    expect(r.code).toBe(1);
    expect(object(r.stdout)).toEqual({ error: { kind: 'transport', message: expect.stringMatching(/^transport: HTTP 500: boom/) } });
    expect(r.stderr).toContain('[aish] transport: HTTP 500');
  });

  it('with a stdio server to end, the exit code holds (plain -p after a model error is 1, not 0)', async () => {
    h.writeConfig(config({}, {}));
    server.enqueue({ type: 'raw', status: 500, body: '{"error":{"message":"boom"}}' });
    const r = await run(['-p', 'hi']);
    expect(r.stderr).toContain('[aish] transport: HTTP 500');
    expect(r.code).toBe(1);
  });

  it('usage and config errors: exit 2; once the format is known, the error is JSON on stdout', async () => {
    const xml = await run(['-p', 'hi', '--output', 'xml']);
    expect(xml.code).toBe(2);
    expect(xml.stderr).toContain('--output: "xml" is not a format (text, json or jsonl)');
    expect(xml.stdout).toBe('');
    const noPrompt = await run(['--output', 'json']);
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toContain('--output goes with -p');
    const empty = await run(['-p', '  ', '--output', 'json']);
    expect(empty.code).toBe(2);
    expect(object(empty.stdout)).toEqual({ error: { kind: 'usage', message: '-p needs a question (after it, or on stdin)' } });
    const model = await run(['-p', 'hi', '--model', 'nosuch', '--output', 'jsonl']);
    expect(model.code).toBe(2);
    expect(lines(model.stdout)).toEqual([{ type: 'error', kind: 'usage', message: expect.stringContaining('no preset named "nosuch"') }]);
    h.writeConfig({ models: { fast: { endpoint: 'not a url' } } });
    const bad = await run(['-p', 'hi', '--output', 'json']);
    expect(bad.code).toBe(2);
    expect(object(bad.stdout).error).toMatchObject({ kind: 'config', message: expect.stringContaining('models.fast.endpoint') });
    expect(server.requests).toHaveLength(0);
    // A token pasted as a key is quoted by the error, redacted, on stdout and stderr alike.
    const token = fakeSecrets().find((f) => f.name === 'GitHub classic token')!.value;
    h.writeConfig({ [token]: 1 });
    const pasted = await run(['-p', 'hi', '--output', 'json']);
    expect(pasted.code).toBe(2);
    expect(object(pasted.stdout).error.message).toContain('[redacted:github-token]: unknown key');
    expect(pasted.stdout + pasted.stderr).not.toContain(token);
  });

  it('hostile text reaches stdout escaped, and parses back exactly; secrets are redacted outside the reply', async () => {
    h.writeConfig(config({}, { auto_approve: ['everything__*'] }));
    const bad = HOSTILE.map(([, seq]) => seq).join(' ');
    server.enqueue(echoCall('c1', `key sk-secret-0123456789 ${bad}`), textReply([`said: ${bad}`]));
    const r = await run(['-p', 'x', '--output', 'json'], { TEST_MODEL_KEY: 'sk-secret-0123456789' });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).not.toMatch(/[\u2028\u2029]/);
    const answer = object(r.stdout);
    expect(answer.reply).toBe(`said: ${bad}`);
    expect(answer.tool_calls[0].arguments.message).toBe(`key [redacted:TEST_MODEL_KEY] ${bad}`);
    expect(answer.tool_calls[0].result).toBe(`Echo: key [redacted:TEST_MODEL_KEY] ${bad}`);
    expect(r.stdout).not.toContain('sk-secret-0123456789');
  });
});

describe('--output jsonl', () => {
  it('events are written as they happen: the first text is read while the model still streams', async () => {
    const gate = deferred();
    server.enqueue(gated('Hello', [', world.'], gate.promise));
    const a = startAish({ args: ['-p', 'hi', '--output', 'jsonl'], cwd: h.cwd, env: h.env });
    a.end();
    try {
      // The model server holds the rest of its stream until this line has been read.
      await a.waitFor(/^\{"type":"text","text":"Hello"\}\n/);
      expect(a.stdout).toBe('{"type":"text","text":"Hello"}\n');
    } finally {
      gate.resolve();
    }
    const r = await a.exited;
    expect(r.code).toBe(0);
    const events = lines(r.stdout);
    expect(events.map((e) => e.type)).toEqual(['text', 'text', 'done']);
    expect(events.at(-1)).toEqual({ type: 'done', reply: 'Hello, world.', cmd_lines: [], tool_calls: [], model: 'fast', usage: expect.objectContaining({ estimated: true }), session: null });
  });

  it('a tool call: tool_call and tool_result events in order, then the text and done', async () => {
    h.writeConfig(config({}, { auto_approve: ['everything__*'] }));
    server.enqueue(echoCall('c1', 'hi'), textReply(['The tool said hi.']));
    const r = await run(['-p', 'echo hi', '--output', 'jsonl']);
    expect(r.code).toBe(0);
    const events = lines(r.stdout);
    expect(events.filter((e) => e.type !== 'status')).toEqual([
      { type: 'tool_call', id: 'c1', name: 'everything__echo', arguments: { message: 'hi' } },
      { type: 'tool_result', id: 'c1', name: 'everything__echo', status: 'ok', result: 'Echo: hi' },
      { type: 'text', text: 'The tool said hi.' },
      expect.objectContaining({ type: 'done', tool_calls: [{ name: 'everything__echo', arguments: { message: 'hi' }, status: 'ok', result: 'Echo: hi' }] }),
    ]);
  });

  it('a denied call: the result event says needs_approval, a status event says why, exit 3', async () => {
    h.writeConfig(config({}, {}));
    server.enqueue(echoCall('c1', 'hi'), textReply(['ok']));
    const r = await run(['-p', 'echo hi', '--output', 'jsonl']);
    expect(r.code).toBe(3);
    const events = lines(r.stdout);
    expect(events).toContainEqual({ type: 'tool_result', id: 'c1', name: 'everything__echo', status: 'needs_approval', result: NEEDS_APPROVAL_CALL });
    expect(events).toContainEqual({ type: 'status', message: expect.stringContaining('needs approval') });
    expect(events.at(-1).type).toBe('done');
  });

  it('a model error: an error event is the last line, exit 1', async () => {
    server.enqueue({ type: 'raw', status: 500, body: '{"error":{"message":"boom"}}' });
    const r = await run(['-p', 'hi', '--output', 'jsonl']);
    expect(r.code).toBe(1);
    const events = lines(r.stdout);
    expect(events.at(-1)).toEqual({ type: 'error', kind: 'transport', message: expect.stringMatching(/^transport: HTTP 500: boom/) });
    expect(events.filter((e) => e.type === 'done')).toEqual([]);
  });
});

describe('endings', () => {
  it.each(['json', 'jsonl'])('Ctrl-C (SIGINT) mid-reply, %s: whole lines, the interrupted error last, exit 130', async (format) => {
    const gate = deferred();
    server.enqueue(gated('Partial', [' rest'], gate.promise));
    const a = startAish({ args: ['-p', 'hi', '--output', format], cwd: h.cwd, env: h.env });
    a.end();
    try {
      // The reply has begun: its first piece is on stdout (jsonl), or at least the request is in.
      await server.waitForRequests(1);
      if (format === 'jsonl') await a.waitFor('"Partial"');
      a.child.kill('SIGINT');
      const r = await a.exited;
      expect(r.code).toBe(130);
      const events = lines(r.stdout);
      const interrupted = { kind: 'interrupted', message: expect.any(String) };
      if (format === 'json') expect(events).toEqual([{ error: interrupted }]);
      else expect(events).toEqual([{ type: 'text', text: 'Partial' }, { type: 'status', message: 'cancelled' }, { type: 'error', ...interrupted }]);
    } finally {
      gate.resolve();
    }
  });

  it('a closed stdout (EPIPE): aish stops without a stack trace and exits 0, as for `| head -1`', async () => {
    // Read to its end, this answer would exit 3 (a denied CMD: line): the 0 is the closed pipe's.
    h.writeConfig(config({ permissions: { deny: ['rm *'] } }));
    const gate = deferred();
    server.enqueue(gated('First', [' second\n', 'CMD: rm -rf /tmp/x\n'], gate.promise));
    const a = startAish({ args: ['-p', 'hi', '--output', 'jsonl'], cwd: h.cwd, env: h.env });
    a.end();
    try {
      await a.waitFor('"First"');
      a.child.stdout.destroy();
    } finally {
      gate.resolve();
    }
    const r = await a.exited;
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/Error|\n\s+at /);
  });
});
