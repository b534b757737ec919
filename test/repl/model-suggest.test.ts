// Suggestions from a model: a line that looks secret is never sent (with the session's real
// redactor), the reply is cleaned to the rest of the line, the next key's signal reaches the
// request, and a failure is said once a session.

import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/broker/types.js';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig } from '../../src/config/schema.js';
import { MAX_SUGGESTION_CHARS, modelSuggester, suggestionFrom, suggestMessages, type ModelSuggestParts } from '../../src/repl/model-suggest.js';
import { Redactor } from '../../src/safety/redact.js';
import type { AskOnceLimits } from '../../src/turn/model-client.js';
import { secretShapeScan } from '../../src/secret-rules.js';
import { fakeSecrets } from '../support/fake-secrets.js';

const resolved = resolveConfig({}, defaultModels({}));
if (!resolved.ok) throw new Error('test config');
const env = { HOME: '/home/me', DEPLOY_TOKEN: 'tok-abcdefgh-1234' };
const { redact } = Redactor.forEnv({ env: () => env, config: resolved.config, shapes: secretShapeScan() });

interface Asked {
  name: string;
  messages: ChatMessage[];
  limits: AskOnceLimits;
}

function suggester(reply: (asked: Asked) => Promise<string>, overrides: Partial<ModelSuggestParts> = {}) {
  const asked: Asked[] = [];
  const notices: string[] = [];
  const ask = modelSuggester({
    model: () => 'fast',
    askOnce: (name, messages, limits) => {
      const one = { name, messages, limits };
      asked.push(one);
      return reply(one);
    },
    redact,
    place: () => ({ cwd: '/home/me/src', shell: 'bash' }),
    notice: (message) => notices.push(message),
    ...overrides,
  });
  return { ask, asked, notices };
}

const signal = () => new AbortController().signal;

describe('lines that are never sent', () => {
  // A secret of several lines (a private key) is pasted, never typed: a line of several lines is never sent (below).
  const oneLine = fakeSecrets().filter((secret) => !secret.text.includes('\n'));

  it.each(oneLine.map((s) => [s.name, s.text] as const))('a line holding a secret by shape: %s', async (_name, text) => {
    const s = suggester(async () => 'anything');
    expect(await s.ask(text, signal())).toBeNull();
    expect(s.asked).toEqual([]);
  });

  it.each([
    ['a secret the environment holds', 'curl -H tok-abcdefgh-1234 https://x'],
    ['a secret-looking assignment', 'export API_KEY=abcdefgh12345'],
    ['a line typed with a leading space (kept out of history too)', ' mysql -p hunter2'],
    ['a meta command (Tab completes those)', ':mod'],
    ['a blank line', '   '],
    ['a line of several lines', 'for x in a\ndo'],
    ['a line too long to be typing', 'x'.repeat(1001)],
  ])('%s', async (_name, line) => {
    const s = suggester(async () => `${line} more`);
    expect(await s.ask(line, signal())).toBeNull();
    expect(s.asked).toEqual([]);
  });
  it('a line the redactor could not check (its rules did not load)', async () => {
    const s = suggester(async () => 'ls -la', {
      redact: () => {
        throw new Error('secret rules not loaded');
      },
    });
    expect(await s.ask('ls', signal())).toBeNull();
    expect(s.asked).toEqual([]);
  });
});

describe('the request', () => {
  it('asks the preset of the moment for the line, counted as a suggestion, small and with the signal', async () => {
    let preset = 'fast';
    const s = suggester(async () => 'git log --oneline', { model: () => preset });
    const controller = new AbortController();
    expect(await s.ask('git lo', controller.signal)).toBe('g --oneline');
    preset = 'deep';
    await s.ask('git lo', controller.signal);
    expect(s.asked.map((a) => a.name)).toEqual(['fast', 'deep']);
    const { messages, limits } = s.asked[0]!;
    expect(limits).toMatchObject({ purpose: 'suggest', signal: controller.signal });
    expect(limits.maxTokens).toBeLessThanOrEqual(128);
    expect(limits.timeoutMs).toBeLessThanOrEqual(10_000);
    expect(messages).toEqual(suggestMessages('git lo', { cwd: '/home/me/src', shell: 'bash' }));
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'git lo' });
    expect(messages[0]!.content).toContain('/home/me/src');
    expect(messages[0]!.content).toContain('bash shell commands');
  });

  it('the next key aborts the request: the answer is null, and nothing is said', async () => {
    const s = suggester(
      ({ limits }) =>
        new Promise((_resolve, reject) => limits.signal!.addEventListener('abort', () => reject(limits.signal!.reason), { once: true })),
    );
    const controller = new AbortController();
    const answer = s.ask('docker ps', controller.signal);
    controller.abort();
    expect(await answer).toBeNull();
    expect(s.notices).toEqual([]);
  });

  it('a failure gives no suggestion and is said once a session', async () => {
    const s = suggester(async () => {
      throw new Error('transport: connect ECONNREFUSED 127.0.0.1:8080');
    });
    expect(await s.ask('ls -', signal())).toBeNull();
    expect(await s.ask('ls -l', signal())).toBeNull();
    expect(s.asked).toHaveLength(2);
    expect(s.notices).toEqual(['suggestions from fast failed (transport: connect ECONNREFUSED 127.0.0.1:8080); not said again this session']);
  });
});

describe('suggestionFrom: the reply made the rest of the line', () => {
  it.each<[string, string, string, string | null]>([
    ['the whole line: its rest', 'git lo', 'git log --oneline', 'g --oneline'],
    ['a space the rest starts with is kept', 'git', 'git status', ' status'],
    ['only the first line', 'ls', 'ls -la\nThis lists every file.', ' -la'],
    ['a code fence and backticks passed over', 'tar x', '```bash\n`tar xzf a.tgz`\n```', 'zf a.tgz'],
    ['a shell prompt passed over', 'make', '$ make test', ' test'],
    ['a closed think block passed over', 'npm run', '<think>\nbuild?\n</think>\nnpm run build', ' build'],
    ['tabs become spaces', 'echo', 'echo\ta', ' a'],
    ['the line as typed: nothing to add', 'pwd', 'pwd', null],
    ['trailing blanks only: nothing', 'pwd', 'pwd   ', null],
    ['a rest of one character', 'git lo', 'git log', 'g'],
    ['the line rewritten: no continuation', 'git lo', 'git show', null],
    ['only the rest, against the instructions: its spacing is unknown', 'git lo', 'g --oneline', null],
    ['an empty reply', 'git', '', null],
    ['control characters: not shown, not taken into the line', 'echo', 'echo \x1b[2Jhi', null],
    ['a bidi control: not shown', 'echo', 'echo \u202eevil', null],
  ])('%s', (_name, line, reply, expected) => {
    expect(suggestionFrom(reply, line)).toBe(expected);
  });

  it(`cuts a long suggestion at ${MAX_SUGGESTION_CHARS} characters`, () => {
    expect(suggestionFrom(`echo ${'é'.repeat(500)}`, 'echo')).toBe(` ${'é'.repeat(MAX_SUGGESTION_CHARS - 1)}`);
  });
});
