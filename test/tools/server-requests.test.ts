// What aish answers a server's elicitation, sampling and roots requests, with a scripted person.

import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ApprovalGate } from '../../src/safety/gate.js';
import { policyFromConfig } from '../../src/safety/policy.js';
import { parseField, serverRequests, type ServerRequestDeps } from '../../src/tools/server-requests.js';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig } from '../../src/config/schema.js';

function config() {
  const result = resolveConfig({}, defaultModels({}));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

const signal = () => new AbortController().signal;

function setup(over: Partial<ServerRequestDeps> & { answers?: (string | null)[] | null } = {}) {
  const questions: string[] = [];
  const statuses: string[] = [];
  const shown: string[] = [];
  const answers = over.answers === undefined ? [] : over.answers;
  const ask = answers === null ? null : async (q: string) => (questions.push(q), answers.length ? answers.shift()! : null);
  const opened: string[] = [];
  const sent: { messages: unknown[]; maxTokens: number }[] = [];
  const deps: ServerRequestDeps = {
    elicitation: 'decline',
    sampling: 'deny',
    ask,
    status: (m) => statuses.push(m),
    gate: new ApprovalGate({ policy: policyFromConfig(config()), ask, show: (t) => shown.push(t) }),
    openUrl: async (url) => void opened.push(url),
    complete: async (messages, maxTokens) => (sent.push({ messages, maxTokens }), { text: 'a haiku', model: 'm-1' }),
    cwd: () => '/work/proj',
    roots: [],
    home: '/home/ada',
    ...over,
  };
  return { handlers: serverRequests(deps), questions, statuses, shown, opened, sent };
}

const form = {
  mode: 'form' as const,
  message: 'Who are you?',
  requestedSchema: {
    type: 'object' as const,
    properties: {
      name: { type: 'string' as const, description: 'Your name' },
      age: { type: 'integer' as const, minimum: 0, default: 30 },
      pet: { type: 'string' as const, enum: ['cat', 'dog'] },
    },
    required: ['name'],
  },
};

describe('parseField', () => {
  it.each([
    [{ type: 'boolean' }, 'y', { value: true }],
    [{ type: 'boolean' }, 'no', { value: false }],
    [{ type: 'boolean' }, 'maybe', { error: 'answer y or n' }],
    [{ type: 'integer' }, '42', { value: 42 }],
    [{ type: 'integer' }, '4.2', { error: 'not a whole number' }],
    [{ type: 'number', maximum: 10 }, '11', { error: 'at most 10' }],
    [{ type: 'number' }, 'x', { error: 'not a number' }],
    [{ type: 'string', enum: ['a', 'b'] }, 'b', { value: 'b' }],
    [{ type: 'string', enum: ['a', 'b'] }, 'c', { error: 'answer one of a, b' }],
    [{ type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] }, 'h1', { value: 'h1' }],
    [{ type: 'array', items: { enum: ['x', 'y'] }, maxItems: 1 }, 'x, y', { error: 'pick at most 1' }],
    [{ type: 'array', items: { anyOf: [{ const: 'f1' }, { const: 'f2' }] } }, 'f1,f2', { value: ['f1', 'f2'] }],
    [{ type: 'string', maxLength: 3 }, 'abcd', { error: 'at most 3 characters' }],
  ])('%j %j', (field, text, out) => {
    expect(parseField(field, text)).toEqual(out);
  });
});

describe('elicitation', () => {
  it('on a terminal: y, then each field; Enter takes the default or leaves an optional field out; a bad answer is asked again', async () => {
    const t = setup({ answers: ['y', 'Ada', 'old', '', ''] });
    const result = await t.handlers.elicit!('srv', form, signal());
    expect(result).toEqual({ action: 'accept', content: { name: 'Ada', age: 30 } });
    expect(t.statuses).toEqual(['mcp srv asks: Who are you?', '  name: Your name', '  age: not a number']);
    expect(t.questions).toEqual([
      'answer it? [y/N/c] (y fills in the form, N declines, c cancels) ',
      '  name (required) [string]: ',
      '  age [integer, Enter for 30]: ',
      '  age [integer, Enter for 30]: ',
      '  pet [one of cat|dog, Enter to leave out]: ',
    ]);
  });

  it('a boolean field is one key, as every other question: y or n, Enter its default or leaves it out; a required one asks again', async () => {
    const keyed: { text: string; keys: string; fallback: string }[] = [];
    const keys = ['y', 'n', '', '', '', 'y'];
    const t = setup({
      answers: [],
      askKey: async (q) => (keyed.push({ text: q.before, keys: q.keys, fallback: q.fallback }), keys.shift() ?? null),
    });
    const bools = {
      mode: 'form' as const,
      message: 'Settings?',
      requestedSchema: {
        type: 'object' as const,
        properties: {
          agree: { type: 'boolean' as const },
          notify: { type: 'boolean' as const, default: true },
          dark: { type: 'boolean' as const },
          sure: { type: 'boolean' as const },
        },
        required: ['sure'],
      },
    };
    expect(await t.handlers.elicit!('srv', bools, signal())).toEqual({ action: 'accept', content: { agree: false, notify: true, sure: true } });
    expect(t.questions).toEqual([]);
    expect(keyed.slice(1)).toEqual([
      { text: '  agree [y/n, Enter to leave out]: ', keys: 'yn', fallback: '' },
      { text: '  notify [y/n, Enter for true]: ', keys: 'yn', fallback: 'y' },
      { text: '  dark [y/n, Enter to leave out]: ', keys: 'yn', fallback: '' },
      { text: '  sure (required) [y/n]: ', keys: 'yn', fallback: '' },
      { text: '  sure (required) [y/n]: ', keys: 'yn', fallback: '' },
    ]);
    expect(t.statuses).toContain('  sure is required');
  });

  it.each([
    [['n'], 'decline'],
    [[''], 'decline'],
    [['c'], 'cancel'],
    [[null], 'cancel'],
    [['y', null], 'cancel'],
    [['y', '', '', ''], 'cancel'],
  ])('answers %j give %s', async (answers, action) => {
    expect((await setup({ answers }).handlers.elicit!('srv', form, signal())).action).toBe(action);
  });

  it('without a terminal: decline by default; `defaults` accepts only when every required field has one', async () => {
    expect(await setup({ answers: null }).handlers.elicit!('srv', form, signal())).toEqual({ action: 'decline' });
    expect(await setup({ answers: null, elicitation: 'defaults' }).handlers.elicit!('srv', form, signal())).toEqual({ action: 'decline' });
    const all = { ...form, requestedSchema: { ...form.requestedSchema, required: ['age'] } };
    const t = setup({ answers: null, elicitation: 'defaults' });
    expect(await t.handlers.elicit!('srv', all, signal())).toEqual({ action: 'accept', content: { age: 30 } });
    expect(t.statuses).toEqual(['mcp srv asked: Who are you? (accepted with its defaults: mcp.elicitation)']);
  });

  it('URL mode: the URL is shown; y opens it and accepts, anything else declines, nobody declines', async () => {
    const url = { mode: 'url' as const, message: 'Log in to the tracker', url: 'https://tracker.example/auth', elicitationId: 'e1' };
    const yes = setup({ answers: ['y'] });
    expect(await yes.handlers.elicit!('srv', url, signal())).toEqual({ action: 'accept' });
    expect(yes.opened).toEqual(['https://tracker.example/auth']);
    expect(yes.statuses).toEqual(['mcp srv asks you to open https://tracker.example/auth: Log in to the tracker']);
    expect(await setup({ answers: ['n'] }).handlers.elicit!('srv', url, signal())).toEqual({ action: 'decline' });
    expect(await setup({ answers: null }).handlers.elicit!('srv', url, signal())).toEqual({ action: 'decline' });
  });
});

describe('sampling', () => {
  const request = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Write a haiku' } }], systemPrompt: 'Be brief', maxTokens: 50 };

  it('the gate shows the prompt and asks; yes runs the active preset with maxTokens', async () => {
    const t = setup({ answers: ['y'] });
    const result = await t.handlers.sample!('srv', request, signal());
    expect(result).toEqual({ role: 'assistant', content: { type: 'text', text: 'a haiku' }, model: 'm-1', stopReason: 'endTurn' });
    expect(t.shown).toEqual(['mcp srv asks the model (at most 50 tokens):\nsystem: Be brief\nuser: Write a haiku']);
    expect(t.questions).toEqual(['[aish] mcp srv asks the model: Write a haiku  [y/N] ']);
    expect(t.sent).toEqual([{ messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Write a haiku' }], maxTokens: 50 }]);
  });

  it.each([
    ['declined at the terminal', { answers: ['n'] }],
    ['Ctrl-C', { answers: [null] }],
    ['no terminal, mcp.sampling deny', { answers: null }],
  ])('%s: rejected with the spec’s error, nothing sent', async (_name, over) => {
    const t = setup(over);
    await expect(t.handlers.sample!('srv', request, signal())).rejects.toThrow(McpError);
    expect(t.sent).toEqual([]);
  });

  it('no terminal, mcp.sampling allow: runs and says so', async () => {
    const t = setup({ answers: null, sampling: 'allow' });
    expect((await t.handlers.sample!('srv', request, signal())).content).toEqual({ type: 'text', text: 'a haiku' });
    expect(t.statuses).toEqual(['mcp srv asked the model (allowed by mcp.sampling)']);
  });
});

describe('roots', () => {
  it('a server\'s own setting wins over mcp.roots; false offers none (no roots capability)', () => {
    const t = setup({ roots: ['/srv/shared'] });
    expect(t.handlers.roots!('fs', false)).toBeUndefined();
    expect(t.handlers.roots!('fs', undefined)!()).toEqual([{ uri: 'file:///srv/shared', name: 'shared' }]);
    expect(t.handlers.roots!('fs', 'cwd')!()).toEqual([{ uri: 'file:///work/proj', name: 'proj' }]);
    expect(setup({ roots: false }).handlers.roots!('fs', undefined)).toBeUndefined();
  });

  it('a list: ~ expanded, relative paths from the current directory, as file URIs without repeats', () => {
    const t = setup();
    expect(t.handlers.roots!('fs', ['.', '~/notes', '../lib', '/work/proj'])!()).toEqual([
      { uri: 'file:///work/proj', name: 'proj' },
      { uri: 'file:///home/ada/notes', name: 'notes' },
      { uri: 'file:///work/lib', name: 'lib' },
    ]);
  });

  it('"cwd" follows the current directory; the home folder, above it and / are withheld, said once', () => {
    let cwd = '/home/ada/proj';
    const t = setup({ cwd: () => cwd });
    const answer = t.handlers.roots!('fs', 'cwd')!;
    expect(answer()).toEqual([{ uri: 'file:///home/ada/proj', name: 'proj' }]);
    for (const dir of ['/home/ada', '/home', '/']) {
      cwd = dir;
      expect(answer()).toEqual([]);
    }
    expect(t.handlers.roots!('other', ['~', '/srv'])!()).toEqual([{ uri: 'file:///srv', name: 'srv' }]);
    expect(t.statuses).toEqual(["mcp: ~ withheld from the servers' roots (the home folder, the folders above it and / are never offered)"]);
  });
});
