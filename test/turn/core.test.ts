// The turn core and its tool loop, driven with a scripted ModelClient and ToolHost: no network, no
// terminal. Each case scripts the model's replies and the person's answers, then asserts the
// events the core reported, the conversation it kept, what it recorded and what it ran.

import { describe, expect, it } from 'vitest';
import { BrokerError } from '../../src/broker/errors.js';
import type { BrokerEvent, ChatMessage, ChatResult, ModelClient, ToolCall, ToolDefinition } from '../../src/broker/types.js';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig, type Config } from '../../src/config/schema.js';
import { PendingOutput } from '../../src/context/pending-output.js';
import type { Turn } from '../../src/context/turns.js';
import type { SessionRecorder } from '../../src/history/session.js';
import type { ToolAudit } from '../../src/history/session-log.js';
import { ApprovalGate } from '../../src/safety/gate.js';
import { policyFromConfig } from '../../src/safety/policy.js';
import { CANCELLED_CALL, DECLINED_CALL, NEEDS_APPROVAL_CALL, type ToolOutcome } from '../../src/tool-call.js';
import { TurnCore } from '../../src/turn/core.js';
import type { ModelAccess } from '../../src/turn/model-client.js';
import { UsageLedger } from '../../src/turn/usage.js';
import { DEPTH_LIMIT_STATUS } from '../../src/turn/tool-loop.js';
import type { ToolHost, TurnEvent } from '../../src/turn/types.js';

/** One scripted reply: text and calls, or a failure, or a wait for the signal (Ctrl-C). */
type Step = { text?: string; calls?: ToolCall[]; capped?: number } | { fail: unknown; partial?: string } | { hang: string };

function config(data: Record<string, unknown> = {}): Config {
  const result = resolveConfig(data, defaultModels({}));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

/** A model that plays `steps` in order and records every request it was sent. */
function scriptedModel(name: string, steps: Step[]) {
  const requests: { messages: ChatMessage[]; tools: ToolDefinition[] | undefined }[] = [];
  const client: ModelClient = {
    name,
    async stream(messages, onEvent: (e: BrokerEvent) => void, opts): Promise<ChatResult> {
      requests.push({ messages, tools: opts.tools });
      // As the broker does: the text is collected in the caller's buffer, emptied first.
      opts.text?.clear();
      const text = (t: string) => {
        opts.text?.push(t);
        onEvent({ type: 'text', text: t });
      };
      const step = steps.shift();
      if (!step) throw new Error(`${name}: no scripted reply left`);
      if ('fail' in step) {
        if (step.partial) text(step.partial);
        throw step.fail;
      }
      if ('hang' in step) {
        text(step.hang);
        return new Promise((_, reject) => opts.signal.addEventListener('abort', () => reject(opts.signal.reason), { once: true }));
      }
      if (step.text) text(step.text);
      for (const [index, call] of (step.calls ?? []).entries()) onEvent({ type: 'tool_call', index, name: call.name });
      return { text: step.text ?? '', toolCalls: step.calls ?? [], finishReason: 'stop', receivedDelta: true, ...(step.capped ? { capped: step.capped } : {}) };
    },
  };
  return { client, requests };
}

/** Tools named `srv__*` that answer from `results`, recording each call. */
function scriptedTools(results: Record<string, ToolOutcome | ((signal: AbortSignal) => Promise<ToolOutcome>)> = {}) {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const host: ToolHost = {
    definitions: () => Object.keys(results).map((name) => ({ type: 'function', function: { name, description: name, parameters: { type: 'object' } } })),
    validate: (name, args) => (name === 'srv__strict' && typeof args.path !== 'string' ? ['path: must be a string'] : []),
    has: (name) => name in results,
    annotations: () => undefined,
    async call(name, args, { signal }) {
      calls.push({ name, args });
      const result = results[name];
      if (!result) return { status: 'error', content: `[aish] tool dispatch failed: no tool named ${name}` };
      return typeof result === 'function' ? result(signal) : result;
    },
  };
  return { host, calls };
}

const call = (id: string, name: string, args = '{}'): ToolCall => ({ id, name, arguments: args });
const ok = (content: string): ToolOutcome => ({ status: 'ok', content });

interface Setup {
  config?: Config;
  steps?: Step[];
  fallbackSteps?: Step[];
  tools?: ReturnType<typeof scriptedTools>;
  /** Answers the person gives, in order, to any question; null: nobody can answer. */
  answers?: string[] | null;
  summary?: (messages: ChatMessage[], signal?: AbortSignal) => Promise<string>;
  /** Nobody will ever be asked (`aish -p`). */
  unattended?: boolean;
  /** What the preset's server says of its context. */
  contextLength?: (name: string) => Promise<number | null>;
}

function setup(s: Setup = {}) {
  const cfg = s.config ?? config();
  const primary = scriptedModel(cfg.default_model, s.steps ?? []);
  const fallback = scriptedModel('cloud', s.fallbackSteps ?? []);
  const summaries: ChatMessage[][] = [];
  const usage = new UsageLedger(cfg);
  const models: ModelAccess = {
    usage,
    client: (name) => usage.counting(name === 'cloud' ? fallback.client : { ...primary.client, name }),
    askOnce: async (_name, messages, limits) => {
      summaries.push(messages);
      return s.summary ? s.summary(messages, limits.signal) : 'a short summary';
    },
    ...(s.contextLength ? { contextLength: s.contextLength } : {}),
  };
  const events: TurnEvent[] = [];
  const questions: string[] = [];
  const answers = s.answers === undefined ? [] : s.answers;
  const ask = answers === null ? null : async (q: string) => (questions.push(q), answers.shift() ?? null);
  const recorded: { turns: Turn[]; unanswered: [string, string][]; audits: ToolAudit[]; summaries: string[]; resets: number } = {
    turns: [],
    unanswered: [],
    audits: [],
    summaries: [],
    resets: 0,
  };
  const recorder: SessionRecorder = {
    turn: (t) => recorded.turns.push(t),
    unanswered: (q, e) => recorded.unanswered.push([q, e]),
    audit: (a) => recorded.audits.push(a),
    summary: (x) => recorded.summaries.push(x),
    reset: () => recorded.resets++,
  };
  const ran: string[] = [];
  const tools = s.tools ?? scriptedTools();
  const pending = new PendingOutput();
  const core = new TurnCore({
    config: cfg,
    models,
    pending,
    tools: tools.host,
    gate: new ApprovalGate({ policy: policyFromConfig(cfg), ask, show: () => {} }),
    commands: {
      async run(command) {
        ran.push(command);
        pending.append({ command, output: `ran ${command}`, exitCode: 0 });
      },
    },
    recorder,
    background: () => null,
    project: async () => null,
    observer: (e) => events.push(e),
    ...(s.unattended ? { unattended: true } : {}),
  });
  const statuses = () => events.filter((e) => e.type === 'status').map((e) => (e as { message: string }).message);
  const texts = () => events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text).join('');
  return { core, primary, fallback, tools, events, statuses, texts, questions, recorded, ran, pending, summaries };
}

const signal = () => new AbortController().signal;

describe('turn core: text replies and CMD: offers', () => {
  it('text only: streams the reply, keeps and records both turns, says it answered', async () => {
    const t = setup({ steps: [{ text: 'Hello there.' }] });
    const result = await t.core.ask('hi', 'fast', signal());
    expect(result).toMatchObject({ outcome: 'done', text: 'Hello there.' });
    expect(t.texts()).toBe('Hello there.');
    expect(t.core.context.turns.map((x) => [x.role, x.content])).toEqual([['user', 'hi'], ['assistant', 'Hello there.']]);
    expect(t.recorded.turns).toEqual(t.core.context.turns);
    expect(t.events.map((e) => e.type)).toEqual(['request-start', 'text', 'request-end', 'answered']);
    expect(t.questions).toEqual([]);
  });

  it('puts the pending exec output in front of the user turn and empties the buffer', async () => {
    const t = setup({ steps: [{ text: 'It failed.' }] });
    t.pending.append({ command: 'make', output: 'boom', exitCode: 2 });
    await t.core.ask('why?', 'fast', signal());
    expect(t.core.context.turns[0]!.content).toBe('[exec output]\n$ make\nboom\n[exit 2]\n\nwhy?');
    expect(t.pending.isEmpty).toBe(true);
  });

  it.each<[string, string[] | null, Record<string, unknown>, string[], RegExp | null]>([
    ['approved with y', ['y'], {}, ['ls -la'], null],
    ['declined with n', ['n'], {}, [], /^skipped: ls -la$/],
    ['declined by Enter', [''], {}, [], /^skipped: ls -la$/],
    ['declined when nobody can answer', null, {}, [], /n \(input is not a terminal\)/],
    ['run without asking when confirm_cmd is off', [], { shell: { confirm_cmd: false } }, ['ls -la'], null],
  ])('CMD: %s', async (_name, answers, data, expectedRuns, status) => {
    const t = setup({ config: config(data), steps: [{ text: 'Try this:\nCMD: ls -la\n' }], answers });
    await t.core.ask('list files', 'fast', signal());
    expect(t.ran).toEqual(expectedRuns);
    if (answers && answers.length) expect(t.questions).toEqual(["execute 'ls -la'? [y/N/e] "]);
    if (status) expect(t.statuses().some((m) => status.test(m))).toBe(true);
  });

  it('offers CMD: lines of the final text only, in order, and runs the approved ones as typed lines', async () => {
    const t = setup({ steps: [{ text: 'CMD: echo one\nnot CMD: this\n  CMD: indented\nCMD: echo two' }], answers: ['y', 'n'] });
    await t.core.ask('go', 'fast', signal());
    expect(t.questions).toEqual(["execute 'echo one'? [y/N/e] ", "execute 'echo two'? [y/N/e] "]);
    expect(t.ran).toEqual(['echo one']);
    expect(t.pending.text).toBe("[exec output]\n$ echo one\nran echo one\n[exit 0]\n[aish] CMD not run, declined by the user: echo two");
  });

  it('offers nothing and runs nothing without a command runner (one-shot prints only)', async () => {
    const t = setup({ steps: [{ text: 'CMD: rm -rf build' }], answers: ['y'] });
    const printOnly = new TurnCore(partsOf(t, { commands: null }));
    await printOnly.ask('clean', 'fast', signal());
    expect(t.questions).toEqual([]);
    expect(t.ran).toEqual([]);
  });
});

describe('turn core: tool calls', () => {
  it('approved: runs the call, answers it with one tool turn, asks the model again', async () => {
    const tools = scriptedTools({ srv__read: ok('file body') });
    const t = setup({ tools, steps: [{ calls: [call('c1', 'srv__read', '{"path":"a"}')] }, { text: 'It says: file body' }], answers: ['y'] });
    const result = await t.core.ask('read a', 'fast', signal());
    expect(result).toMatchObject({ outcome: 'done', toolCalls: 1 });
    expect(tools.calls).toEqual([{ name: 'srv__read', args: { path: 'a' } }]);
    expect(t.questions).toEqual(["call 'srv__read'? [y/N/a] "]);
    expect(t.core.context.turns.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(t.core.context.turns[2]).toMatchObject({ role: 'tool', tool_call_id: 'c1', content: 'file body' });
    expect(t.primary.requests[1]!.messages.some((m) => m.role === 'tool' && m.content === 'file body')).toBe(true);
    expect(t.primary.requests[0]!.tools?.map((d) => d.function.name)).toEqual(['srv__read']);
    expect(t.recorded.audits).toMatchObject([{ name: 'srv__read', decision: 'approved', by: 'user', outcome: 'ok' }]);
    expect(t.events.map((e) => e.type)).toContain('tool-begin');
    expect(t.events.find((e) => e.type === 'tool-end')).toMatchObject({ outcome: { status: 'ok' } });
  });

  it.each<[string, Setup['answers'], Record<string, unknown>, string, ToolAudit['by'] | null]>([
    ['denied by the person', ['n'], {}, DECLINED_CALL, 'user'],
    ['denied with nobody to ask', null, {}, DECLINED_CALL, 'no-terminal'],
    ['approved by mcp.auto_approve', [], { mcp: { auto_approve: ['srv__*'] } }, 'file body', 'policy'],
  ])('%s', async (_name, answers, data, content, by) => {
    const tools = scriptedTools({ srv__read: ok('file body') });
    const t = setup({ config: config(data), tools, steps: [{ calls: [call('c1', 'srv__read')] }, { text: 'done' }], answers });
    await t.core.ask('read', 'fast', signal());
    expect(t.core.context.turns[2]).toMatchObject({ role: 'tool', content });
    expect(t.recorded.audits[0]!.by).toBe(by);
    expect(tools.calls.length).toBe(content === DECLINED_CALL ? 0 : 1);
  });

  it('unattended (aish -p): a call that would ask ends needs_approval, the model is told, and the view hears of it', async () => {
    const tools = scriptedTools({ srv__read: ok('file body') });
    const t = setup({ tools, steps: [{ calls: [call('c1', 'srv__read')] }, { text: 'done' }], answers: null, unattended: true });
    await t.core.ask('read', 'fast', signal());
    expect(tools.calls).toEqual([]);
    expect(t.core.context.turns[2]).toMatchObject({ role: 'tool', tool_call_id: 'c1', content: NEEDS_APPROVAL_CALL });
    expect(t.recorded.audits[0]).toMatchObject({ decision: 'declined', by: 'no-terminal', outcome: 'needs_approval' });
    expect(t.events.find((e) => e.type === 'tool-declined')).toMatchObject({ call: { id: 'c1' }, args: {}, outcome: { status: 'needs_approval' } });
    expect(t.statuses()).toContain('tool call srv__read not run: it needs approval (mcp.auto_approve)');
  });

  it.each<[string, string, string, RegExp]>([
    ['arguments that are not JSON', 'srv__read', '{"path":', /^\[aish\] tool arguments not parseable as JSON: /],
    ['arguments that are not an object', 'srv__read', '[1,2]', /^\[aish\] tool arguments not parseable as JSON: expected a JSON object/],
    ['arguments against the schema', 'srv__strict', '{"path":3}', /^\[aish\] tool arguments do not match the tool's input schema: path: must be a string/],
    ['a tool no server offers (never an approval question)', 'srv__nothing', '{}', /^\[aish\] no tool named srv__nothing exists; call only the tools offered/],
  ])('%s: nothing runs, the tool turn says why', async (_name, tool, args, content) => {
    const tools = scriptedTools({ srv__read: ok('x'), srv__strict: ok('x') });
    const t = setup({ tools, steps: [{ calls: [call('c1', tool, args)] }, { text: 'sorry' }], answers: ['y'] });
    await t.core.ask('go', 'fast', signal());
    expect(tools.calls).toEqual([]);
    expect(t.questions).toEqual([]);
    expect(t.core.context.turns[2]!.content).toMatch(content);
    expect(t.recorded.audits[0]).toMatchObject({ decision: 'invalid', by: 'aish', outcome: 'error' });
  });

  it('failed: the failure is the tool turn, the frame ends red, the model hears it', async () => {
    const failed: ToolOutcome = { status: 'error', content: '[aish] tool transport error: server died', display: 'transport error' };
    const t = setup({ tools: scriptedTools({ srv__read: failed }), steps: [{ calls: [call('c1', 'srv__read')] }, { text: 'it died' }], answers: ['y'] });
    await t.core.ask('read', 'fast', signal());
    expect(t.core.context.turns[2]!.content).toBe('[aish] tool transport error: server died');
    expect(t.events.find((e) => e.type === 'tool-end')).toMatchObject({ outcome: { status: 'error' } });
    expect(t.primary.requests).toHaveLength(2);
  });

  it('cancelled while running: the call gets its tool turn, later calls too, and the turn ends cancelled', async () => {
    const controller = new AbortController();
    const slow = async (s: AbortSignal): Promise<ToolOutcome> => {
      controller.abort();
      return s.aborted ? { status: 'cancelled', content: CANCELLED_CALL } : ok('late');
    };
    const t = setup({ tools: scriptedTools({ srv__slow: slow, srv__read: ok('x') }), steps: [{ calls: [call('c1', 'srv__slow'), call('c2', 'srv__read')] }], answers: ['y', 'y'] });
    const result = await t.core.ask('go', 'fast', controller.signal);
    expect(result.outcome).toBe('cancelled');
    expect(t.core.context.turns.slice(2).map((x) => [x.role, x.content])).toEqual([['tool', CANCELLED_CALL], ['tool', CANCELLED_CALL]]);
    expect(t.statuses()).toContain('cancelled');
    expect(t.primary.requests).toHaveLength(1);
  });

  it('stops at mcp.max_tool_depth with the status line, every call answered', async () => {
    const steps: Step[] = Array.from({ length: 3 }, (_, i) => ({ calls: [call(`c${i}`, 'srv__read')] }));
    const t = setup({ config: config({ mcp: { max_tool_depth: 3, auto_approve: ['srv__read'] } }), tools: scriptedTools({ srv__read: ok('x') }), steps });
    const result = await t.core.ask('loop', 'fast', signal());
    expect(result).toMatchObject({ outcome: 'depth-limit', toolCalls: 3 });
    expect(t.statuses()).toContain(DEPTH_LIMIT_STATUS);
    expect(t.primary.requests).toHaveLength(3);
    expect(t.core.context.turns.filter((x) => x.role === 'tool')).toHaveLength(3);
  });
});

describe('turn core: failures, Ctrl-C, fallback, routing', () => {
  it('a failed request removes the user turn and restores the pending output', async () => {
    const t = setup({ steps: [{ fail: new BrokerError('transport', 'Connection refused') }] });
    t.pending.append({ command: 'false', output: 'exit 1 output', exitCode: 1 });
    const result = await t.core.ask('why', 'fast', signal());
    expect(result).toMatchObject({ outcome: 'failed', userTurnRemoved: true });
    expect(t.core.context.turns).toEqual([]);
    expect(t.pending.text).toBe('[exec output]\n$ false\nexit 1 output\n[exit 1]');
    const error = t.events.find((e) => e.type === 'error') as { message: string };
    expect(error.message).toMatch(/^transport: Connection refused \(fast at http:\/\/127\.0\.0\.1:8080\/v1: is the server running\?/);
    expect(t.recorded.turns).toEqual([]);
    // The question is kept in the log, outside the conversation, with why it went unanswered.
    expect(t.recorded.unanswered).toEqual([['[exec output]\n$ false\nexit 1 output\n[exit 1]\n\nwhy', 'transport: Connection refused']]);
  });

  it('Ctrl-C mid-stream keeps the partial reply marked [interrupted], recorded', async () => {
    const controller = new AbortController();
    const t = setup({ steps: [{ hang: 'Half an ans' }] });
    const pending = t.core.ask('explain', 'fast', controller.signal);
    await new Promise((r) => setImmediate(r));
    controller.abort();
    const result = await pending;
    expect(result.outcome).toBe('cancelled');
    expect(t.core.context.turns.map((x) => x.content)).toEqual(['explain', 'Half an ans\n[interrupted]']);
    expect(t.recorded.turns.map((x) => x.content)).toEqual(['explain', 'Half an ans\n[interrupted]']);
    expect(t.statuses()).toEqual(['cancelled']);
  });

  it.each<[string, unknown, boolean]>([
    ['HTTP 503 falls back', new BrokerError('transport', 'HTTP 503: busy', { status: 503 }), true],
    ['connection refused falls back', new BrokerError('transport', 'Connection refused'), true],
    ['HTTP 401 does not', new BrokerError('transport', 'HTTP 401: no', { status: 401 }), false],
    ['an api: error does not', new BrokerError('api', 'model overloaded'), false],
  ])('fallback: %s', async (_name, error, fellBack) => {
    const cfg = config({
      models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'small' }, cloud: { endpoint: 'http://127.0.0.1:9/v1', model: 'big' } },
      routing: { cloud_fallback: true, fallback_model: 'cloud' },
    });
    const t = setup({ config: cfg, steps: [{ fail: error }], fallbackSteps: [{ text: 'from the cloud' }] });
    const result = await t.core.ask('hi', 'fast', signal());
    expect(result.outcome).toBe(fellBack ? 'done' : 'failed');
    expect(t.fallback.requests).toHaveLength(fellBack ? 1 : 0);
    if (fellBack) {
      expect(t.statuses().some((m) => /^local fast failed \(.+\); retrying via cloud$/.test(m))).toBe(true);
      expect(t.fallback.requests[0]!.messages).toEqual(t.primary.requests[0]!.messages);
    }
  });

  it('fallback is off when :fallback off says so, read per request', async () => {
    const cfg = config({
      models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'small' }, cloud: { endpoint: 'http://127.0.0.1:9/v1', model: 'big' } },
      routing: { cloud_fallback: true, fallback_model: 'cloud' },
    });
    const t = setup({ config: cfg, steps: [{ fail: new BrokerError('transport', 'Connection refused') }], fallbackSteps: [{ text: 'x' }] });
    t.core.routing.cloudFallback = false;
    expect((await t.core.ask('hi', 'fast', signal())).outcome).toBe('failed');
    expect(t.fallback.requests).toHaveLength(0);
  });

  it('routing picks the preset once per request and says so', async () => {
    const cfg = config({
      models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'small' }, deep: { endpoint: 'http://127.0.0.1:9/v1', model: 'big' } },
      routing: { auto: true, classes: { code: 'deep' } },
    });
    const t = setup({ config: cfg, steps: [{ text: 'ok' }] });
    await t.core.ask('fix this:\n```js\nconst x = 1;\n```', 'fast', signal());
    expect(t.statuses()).toContain('routed to deep');
    expect(t.events.find((e) => e.type === 'request-start')).toMatchObject({ model: 'deep' });
  });
});

describe('turn core: a failed turn leaves the conversation well formed', () => {
  it('something thrown outside the model request (the renderer) takes the question back, logs it as unanswered, and the next question goes through', async () => {
    const t = setup({ steps: [{ text: 'never seen' }, { text: 'Second answer.' }] });
    let broken = true;
    const core = new TurnCore(
      partsOf(t, {
        recorder: recorderOf(t),
        observer: (e) => {
          if (broken && e.type === 'request-end') throw new RangeError('Invalid string length');
          t.events.push(e);
        },
      }),
    );
    t.pending.append({ command: 'make', output: 'boom', exitCode: 2 });
    const first = await core.ask('first question', 'fast', signal());
    expect(first).toMatchObject({ outcome: 'failed', userTurnRemoved: true });
    expect(core.context.turns).toEqual([]);
    expect(t.pending.text).toContain('boom');
    expect(t.events.find((e) => e.type === 'error')).toEqual({ type: 'error', message: 'internal error: Invalid string length' });
    expect(t.recorded.unanswered).toEqual([[expect.stringMatching(/boom[\s\S]*first question$/), 'Invalid string length']]);
    broken = false;
    const second = await core.ask('second question', 'fast', signal());
    expect(second).toMatchObject({ outcome: 'done', text: 'Second answer.' });
    expect(core.context.turns.map((x) => x.content)).toEqual([expect.stringMatching(/boom[\s\S]*second question$/), 'Second answer.']);
  });

  it('a tool host that throws: the call is answered with what went wrong and the loop goes on', async () => {
    const tools = scriptedTools({ srv__read: ok('x') });
    tools.host.call = async () => {
      throw new Error('host exploded');
    };
    const t = setup({ config: config({ mcp: { auto_approve: ['srv__*'] } }), tools, steps: [{ calls: [call('c1', 'srv__read')] }, { text: 'Sorry.' }, { text: 'Next.' }] });
    expect(await t.core.ask('read', 'fast', signal())).toMatchObject({ outcome: 'done', text: 'Sorry.' });
    expect(t.core.context.turns[2]).toMatchObject({ role: 'tool', tool_call_id: 'c1', content: '[aish] tool call failed: internal error: host exploded' });
    expect(t.statuses()).toContain('tool call srv__read failed: internal error: host exploded');
    expect(await t.core.ask('again', 'fast', signal())).toMatchObject({ outcome: 'done', text: 'Next.' });
  });

  it('a failure after the calls were made closes every open call with a tool turn saying why', async () => {
    const tools = scriptedTools({ srv__read: ok('x') });
    const t = setup({ tools, steps: [{ calls: [call('c1', 'srv__read'), call('c2', 'srv__read')] }, { text: 'Next.' }] });
    const core = new TurnCore(
      partsOf(t, {
        recorder: {
          ...recorderOf(t),
          turn: (turn) => {
            if (turn.role === 'assistant' && turn.tool_calls) throw new Error('log gone');
            t.recorded.turns.push(turn);
          },
        },
      }),
    );
    expect(await core.ask('read two', 'fast', signal())).toMatchObject({ outcome: 'failed', userTurnRemoved: false });
    expect(tools.calls).toEqual([]);
    expect(core.context.turns.map((x) => [x.role, x.content])).toEqual([
      ['user', 'read two'],
      ['assistant', ''],
      ['tool', '[aish] tool call not run: the turn failed (log gone)'],
      ['tool', '[aish] tool call not run: the turn failed (log gone)'],
    ]);
    expect(await core.ask('and now?', 'fast', signal())).toMatchObject({ outcome: 'done', text: 'Next.' });
  });

  it('arguments nested 5 000 deep are answered without running, printing or validating them', async () => {
    const tools = scriptedTools({ srv__read: ok('x') });
    const deep = `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const t = setup({ tools, steps: [{ calls: [call('c1', 'srv__read', deep)] }, { text: 'Too deep, sorry.' }, { text: 'Fine.' }], answers: ['y'] });
    expect(await t.core.ask('go', 'fast', signal())).toMatchObject({ outcome: 'done', text: 'Too deep, sorry.' });
    expect(tools.calls).toEqual([]);
    expect(t.questions).toEqual([]);
    expect(t.core.context.turns[2]).toMatchObject({ role: 'tool', content: '[aish] tool arguments nested deeper than 64 levels; not run' });
    expect(await t.core.ask('and now', 'fast', signal())).toMatchObject({ outcome: 'done' });
  });

  it('past broker.max_tool_calls the rest of the calls are answered as not run', async () => {
    const tools = scriptedTools({ srv__read: ok('x') });
    const calls = Array.from({ length: 5 }, (_, i) => call(`c${i}`, 'srv__read'));
    const t = setup({ config: config({ broker: { max_tool_calls: 2 }, mcp: { auto_approve: ['srv__*'] } }), tools, steps: [{ calls }, { text: 'ok' }] });
    await t.core.ask('many', 'fast', signal());
    expect(tools.calls).toHaveLength(2);
    const answers = t.core.context.turns.filter((x) => x.role === 'tool').map((x) => x.content);
    expect(answers).toEqual(['x', 'x', ...Array(3).fill('[aish] tool call not run: more than 2 calls in one reply (broker.max_tool_calls)')]);
    expect(t.statuses()).toContain('the reply made 5 tool calls; the first 2 run, the rest are answered as not run (broker.max_tool_calls)');
    expect(t.recorded.audits.filter((a) => a.decision === 'invalid')).toHaveLength(3);
  });

  it('a reply cut at broker.max_reply_chars is kept marked; its calls and CMD: lines do not run', async () => {
    const tools = scriptedTools({ srv__read: ok('x') });
    const t = setup({ tools, steps: [{ text: 'CMD: rm -rf /tmp/x', calls: [call('c1', 'srv__read')], capped: 18 }], answers: ['y'] });
    const result = await t.core.ask('go', 'fast', signal());
    expect(result).toMatchObject({ outcome: 'done', cut: true });
    expect(tools.calls).toEqual([]);
    expect(t.ran).toEqual([]);
    expect(t.core.context.turns.map((x) => x.content)).toEqual([
      'go',
      'CMD: rm -rf /tmp/x\n[reply cut at 18 chars]',
      '[aish] tool call not run: the reply was cut at 18 chars (broker.max_reply_chars), its calls may be cut too',
    ]);
    expect(t.statuses()).toContain('reply cut at 18 chars (broker.max_reply_chars): aish stopped reading it');
  });
});

describe('turn core: summary on eviction and reset', () => {
  it('summarizes evicted turns through the summarizer preset and records the summary', async () => {
    const cfg = config({ context: { max_turns: 2, summarize_on_evict: true } });
    const t = setup({ config: cfg, steps: [{ text: 'one' }, { text: 'two' }], summary: async () => 'they said hi' });
    await t.core.ask('first', 'fast', signal());
    await t.core.ask('second', 'fast', signal());
    expect(t.events.some((e) => e.type === 'context' && /oldest 2 turns evicted/.test(e.message))).toBe(true);
    expect(t.summaries).toHaveLength(1);
    expect(t.summaries[0]![0]).toMatchObject({ role: 'system', content: 'Summarize the following conversation in 2-3 sentences.' });
    expect(t.summaries[0]![1]!.content).toMatch(/first/);
    expect(t.core.context.summary).toBe('they said hi');
    expect(t.recorded.summaries).toEqual(['they said hi']);
    expect(t.primary.requests[1]!.messages[0]!.content).toMatch(/\[earlier conversation summary\][\s\S]*they said hi/);
  });

  it('a failing summarizer evicts silently with one status line naming the reason', async () => {
    const cfg = config({ context: { max_turns: 2, summarize_on_evict: true } });
    const t = setup({ config: cfg, steps: [{ text: 'one' }, { text: 'two' }], summary: async () => Promise.reject(new BrokerError('transport', 'Timeout was reached')) });
    await t.core.ask('first', 'fast', signal());
    await t.core.ask('second', 'fast', signal());
    expect(t.core.context.summary).toBeNull();
    expect(t.statuses().filter((m) => m.startsWith('summary failed'))).toEqual(['summary failed (transport: Timeout was reached); 2 evicted turns dropped without a summary']);
  });

  it('Ctrl-C while the summary runs cancels the turn at once, well formed, and the next turn summarizes', async () => {
    const cfg = config({ context: { max_turns: 2, summarize_on_evict: true } });
    const controller = new AbortController();
    let hang = true;
    const t = setup({
      config: cfg,
      steps: [{ text: 'one' }, { text: 'three' }],
      summary: (_messages, s) => {
        if (!hang) return Promise.resolve('they said hi');
        hang = false;
        // The summarizer preset does not answer; the person presses Ctrl-C.
        setImmediate(() => controller.abort());
        return new Promise((_, reject) => s!.addEventListener('abort', () => reject(s!.reason), { once: true }));
      },
    });
    await t.core.ask('first', 'fast', signal());
    const cancelled = await t.core.ask('second', 'fast', controller.signal);
    expect(cancelled.outcome).toBe('cancelled');
    expect(t.statuses().filter((m) => m.startsWith('summary failed'))).toEqual([]);
    expect(t.primary.requests).toHaveLength(1);
    await t.core.ask('third', 'fast', signal());
    expect(t.core.context.summary).toBe('they said hi');
    expect(t.core.context.turns.map((turn) => turn.role)).toEqual(['user', 'assistant']);
    expect(t.primary.requests[1]!.messages[0]!.content).toMatch(/they said hi/);
  });

  it('reset empties the conversation and the pending output and is recorded', async () => {
    const t = setup({ steps: [{ text: 'one' }] });
    await t.core.ask('first', 'fast', signal());
    t.pending.append({ command: 'ls', output: 'more', exitCode: 0 });
    t.core.reset();
    expect(t.core.context.turns).toEqual([]);
    expect(t.pending.isEmpty).toBe(true);
    expect(t.recorded.resets).toBe(1);
  });
});

/** The parts of a setup's core, with some replaced (to build a second core on the same fakes). */
/** A recorder that keeps what it is given in `t.recorded`. */
function recorderOf(t: ReturnType<typeof setup>): SessionRecorder {
  return {
    turn: (x) => void t.recorded.turns.push(x),
    unanswered: (q, e) => void t.recorded.unanswered.push([q, e]),
    audit: (a) => void t.recorded.audits.push(a),
    summary: (x) => void t.recorded.summaries.push(x),
    reset: () => void t.recorded.resets++,
  };
}

function partsOf(t: ReturnType<typeof setup>, over: Partial<ConstructorParameters<typeof TurnCore>[0]>): ConstructorParameters<typeof TurnCore>[0] {
  const cfg = config();
  return {
    config: cfg,
    models: { client: () => t.primary.client, askOnce: async () => '', usage: new UsageLedger(cfg) },
    pending: t.pending,
    tools: t.tools.host,
    gate: new ApprovalGate({ policy: policyFromConfig(cfg), ask: async (q) => (t.questions.push(q), 'y'), show: () => {} }),
    commands: { run: async (c) => void t.ran.push(c) },
    recorder: null,
    background: () => null,
    project: async () => null,
    observer: (e) => t.events.push(e),
    ...over,
  };
}

describe('turn core: the token budget and the output of commands', () => {
  it("takes the budget from the preset's server once it says, asked once, never waiting for it", async () => {
    let answer!: (length: number | null) => void;
    const asked: string[] = [];
    const t = setup({
      steps: [{ text: 'one' }, { text: 'two' }],
      contextLength: (name) => (asked.push(name), new Promise((resolve) => (answer = resolve))),
    });
    // The server has not answered: the question goes at once, on the default budget.
    await t.core.ask('first', 'fast', signal());
    expect(t.core.context.tokenBudget).toBe(16_384);
    expect(t.core.context.budgetSource).toEqual({ type: 'default' });
    answer(8192);
    await new Promise((r) => setImmediate(r));
    expect(t.core.context.tokenBudget).toBe(6144);
    expect(t.core.context.budgetSource).toEqual({ type: 'server', preset: 'fast', contextLength: 8192 });
    await t.core.ask('second', 'fast', signal());
    expect(asked).toEqual(['fast']);
  });

  it('context.token_budget in the config wins: the server is not asked', async () => {
    const asked: string[] = [];
    const t = setup({ config: config({ context: { token_budget: 3000 } }), steps: [{ text: 'ok' }], contextLength: async (name) => (asked.push(name), 100_000) });
    await t.core.ask('hi', 'fast', signal());
    expect(asked).toEqual([]);
    expect(t.core.context.tokenBudget).toBe(3000);
    expect(t.core.context.budgetSource).toEqual({ type: 'config' });
  });

  it('the output of long commands is cut to a share of the budget and evicts no earlier exchange', async () => {
    const t = setup({ config: config({ context: { token_budget: 2000 } }), steps: [{ text: 'first answer' }, { text: 'second answer' }] });
    await t.core.ask('a first question', 'fast', signal());
    const lines = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join('\n');
    t.pending.append({ command: 'seq 1 2000', output: lines(2000), exitCode: 0 });
    t.pending.append({ command: 'seq 1 600', output: lines(600), exitCode: 0 });
    await t.core.ask('what did they print?', 'fast', signal());
    expect(t.statuses().filter((m) => /evicted/.test(m))).toEqual([]);
    expect(t.events.filter((e) => e.type === 'context')).toEqual([]);
    const turn = t.core.context.turns[2]!.content;
    expect(turn.length).toBeLessThanOrEqual(4000 + '\n\nwhat did they print?'.length);
    expect(turn).toContain('$ seq 1 2000\n1\n2\n');
    expect(turn).toMatch(/chars left out \.\.\.\]\n[\s\S]*\n2000\n\[exit 0\]/);
    expect(turn).toContain(`$ seq 1 600\n${lines(600)}\n[exit 0]`);
    expect(t.core.context.turns.map((x) => x.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });
});
