import { describe, expect, it } from 'vitest';
import { Context, type ContextOptions } from '../../src/context/context.js';
import { ContextOrderError, type ToolCall, type Turn } from '../../src/context/turns.js';

const user = (content = 'hi'): Turn => ({ role: 'user', content });
const answer = (content = 'hello'): Turn => ({ role: 'assistant', content });
const call = (id: string, name = 'srv__read'): ToolCall => ({ id, name, arguments: '{"path":"/etc"}' });
const calls = (...ids: string[]): Turn => ({ role: 'assistant', content: '', tool_calls: ids.map((id) => call(id)) });
const result = (id: string, content = 'ok'): Turn => ({ role: 'tool', tool_call_id: id, content });

function statusLog(options: ContextOptions = {}) {
  const lines: string[] = [];
  const ctx = new Context({ ...options, onStatus: (kind, message) => lines.push(`${kind}: ${message}`) });
  return { ctx, lines };
}

describe('append: order', () => {
  it.each<[string, Turn[], Turn, RegExp]>([
    ['assistant first', [], answer(), /must start with a user turn/],
    ['tool first', [], result('a'), /answers no open call/],
    ['two user turns', [user()], user(), /two user turns in a row/],
    ['two assistant turns', [user(), answer()], answer(), /two assistant turns in a row/],
    ['assistant after calls', [user(), calls('a')], answer(), /assistant turn cannot come while tool calls a are unanswered/],
    ['assistant after some results', [user(), calls('a', 'b'), result('a')], answer(), /tool calls b are unanswered/],
    ['user while calls open', [user(), calls('a')], user(), /user turn cannot come while tool calls a are unanswered/],
    ['tool after user', [user()], result('a'), /answers no open call/],
    ['tool after plain assistant', [user(), answer()], result('a'), /answers no open call/],
    ['unknown call id', [user(), calls('a')], result('zz'), /tool turn for zz answers no open call \(open: a\)/],
    ['same call answered twice', [user(), calls('a', 'b'), result('a')], result('a'), /answers no open call \(open: b\)/],
    ['call of an older assistant turn', [user(), calls('a'), result('a'), answer(), user()], result('a'), /answers no open call/],
  ])('%s is refused', (_name, before, turn, message) => {
    const ctx = new Context();
    for (const t of before) ctx.append(t);
    const length = ctx.length;
    expect(() => ctx.append(turn)).toThrow(ContextOrderError);
    expect(() => ctx.append(turn)).toThrow(message);
    expect(ctx.length).toBe(length);
  });

  it.each<[string, unknown, RegExp]>([
    ['user without content', { role: 'user' }, /user turn: content must be a string/],
    ['unknown role', { role: 'system', content: 'x' }, /unknown turn role "system"/],
    ['tool without id', { role: 'tool', content: 'x' }, /tool_call_id must be a string/],
    ['call without name', { role: 'assistant', content: '', tool_calls: [{ id: 'a', arguments: '' }] }, /tool_calls\[0\]: name/],
    ['duplicate call ids', { role: 'assistant', content: '', tool_calls: [call('a'), call('a')] }, /share an id/],
  ])('%s is a bad shape', (_name, turn, message) => {
    const ctx = new Context();
    if ((turn as Turn).role !== 'user') ctx.append(user());
    expect(() => ctx.append(turn as Turn)).toThrow(message);
  });

  it('accepts a full tool exchange and tracks open calls', () => {
    const ctx = new Context();
    ctx.append(user());
    ctx.append(calls('a', 'b'));
    expect(ctx.openToolCalls().map((c) => c.id)).toEqual(['a', 'b']);
    ctx.append(result('b'));
    expect(ctx.openToolCalls().map((c) => c.id)).toEqual(['a']);
    ctx.append(result('a'));
    expect(ctx.openToolCalls()).toEqual([]);
    ctx.append(answer('done'));
    // A user turn may also follow answered results (depth limit reached, no final text).
    ctx.append(user());
    ctx.append(calls('c'));
    ctx.append(result('c'));
    ctx.append(user('next'));
    expect(ctx.length).toBe(9);
  });

  it('stores a clean frozen copy and names tool turns after their call', () => {
    const ctx = new Context();
    const input = { role: 'user', content: 'x', extra: 1 } as unknown as Turn;
    const stored = ctx.append(input);
    expect(stored).toEqual({ role: 'user', content: 'x' });
    expect(Object.isFrozen(stored)).toBe(true);
    ctx.append({ role: 'assistant', content: '', tool_calls: [call('a', 'fs__list')] });
    expect(ctx.append(result('a'))).toEqual({ role: 'tool', tool_call_id: 'a', content: 'ok', name: 'fs__list' });
    const copy = ctx.turns as Turn[];
    copy.pop();
    expect(ctx.length).toBe(3);
  });

  it('accepts OpenAI-shaped tool calls and drops an empty tool_calls array', () => {
    const ctx = new Context();
    ctx.append(user());
    const stored = ctx.append({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'a', type: 'function', function: { name: 'x__y', arguments: '{}' } }],
    } as unknown as Turn);
    expect(stored).toEqual({ role: 'assistant', content: '', tool_calls: [{ id: 'a', name: 'x__y', arguments: '{}' }] });
    const ctx2 = new Context();
    ctx2.append(user());
    expect(ctx2.append({ role: 'assistant', content: 'x', tool_calls: [] })).toEqual({ role: 'assistant', content: 'x' });
  });

  it('appendMany adds all or nothing and evicts once', () => {
    const { ctx, lines } = statusLog({ maxTurns: 4 });
    expect(() => ctx.appendMany([user(), answer(), answer()])).toThrow(/two assistant turns/);
    expect(ctx.length).toBe(0);
    ctx.appendMany([user('1'), answer(), user('2'), answer(), user('3'), answer(), user('4'), answer()]);
    expect(ctx.turns.map((t) => t.content)).toEqual(['3', 'hello', '4', 'hello']);
    expect(lines).toEqual(['context: oldest 4 turns evicted']);
  });

  it('popLastUserTurn removes only a trailing user turn', () => {
    const ctx = new Context();
    ctx.append(user('a'));
    ctx.append(answer());
    expect(ctx.popLastUserTurn()).toBeNull();
    ctx.append(user('b'));
    expect(ctx.popLastUserTurn()).toEqual({ role: 'user', content: 'b' });
    expect(ctx.length).toBe(2);
    expect(ctx.estimateTokens()).toBe(Math.ceil(('a'.length + 'hello'.length) / 4));
    ctx.append(user('c'));
    expect(ctx.length).toBe(3);
  });

  it('reset empties turns, open calls and summary', () => {
    const ctx = new Context();
    ctx.setSummary('earlier');
    ctx.append(user());
    ctx.append(calls('a'));
    ctx.reset();
    expect([ctx.length, ctx.summary, ctx.openToolCalls().length, ctx.estimateTokens()]).toEqual([0, null, 0, 0]);
    ctx.append(user());
  });
});

describe('estimateTokens', () => {
  it('is chars / 4 rounded up over contents and tool calls', () => {
    const ctx = new Context();
    ctx.append(user('abcde'));
    expect(ctx.estimateTokens()).toBe(2);
    ctx.append({ role: 'assistant', content: 'xyz', tool_calls: [{ id: 'a', name: 'n', arguments: '{}' }] });
    expect(ctx.estimateTokens()).toBe(Math.ceil((5 + 3 + 1 + 2) / 4));
  });
});

describe('eviction', () => {
  const exchange = (n: number, size = 4): Turn[] => [user(`u${n}`.padEnd(size, '.')), answer(`a${n}`.padEnd(size, '.'))];
  const toolExchange = (n: number): Turn[] => [user(`u${n}`), calls(`c${n}`), result(`c${n}`), answer(`a${n}`)];

  it.each<[string, ContextOptions, Turn[], string[], number]>([
    ['within budget', { maxTurns: 10 }, [...exchange(1), ...exchange(2)], [], 4],
    ['turn cap drops the oldest exchange', { maxTurns: 4 }, [...exchange(1), ...exchange(2), ...exchange(3)], ['oldest 2 turns evicted'], 4],
    ['a tool exchange goes whole', { maxTurns: 5 }, [...toolExchange(1), ...exchange(2)], ['oldest 4 turns evicted'], 2],
    ['token budget', { tokenBudget: 5 }, [...exchange(1, 8), ...exchange(2, 8)], ['oldest 2 turns evicted'], 2],
    ['never the current exchange', { maxTurns: 2 }, [...toolExchange(1)], [], 4],
    ['current exchange over the token budget stays', { tokenBudget: 1 }, [user('x'.repeat(100)), answer('y'.repeat(100))], [], 2],
    [
      'each append evicts as needed',
      { maxTurns: 3 },
      [...exchange(1), ...exchange(2), ...exchange(3)],
      ['oldest 2 turns evicted', 'oldest 2 turns evicted'],
      2,
    ],
  ])('%s', (_name, options, turns, expected, left) => {
    const { ctx, lines } = statusLog(options);
    for (const t of turns) ctx.append(t);
    expect(lines).toEqual(expected.map((l) => `context: ${l}`));
    expect(ctx.length).toBe(left);
    expect(ctx.turns[0]?.role).toBe('user');
  });

  it('keeps open calls whole while the current exchange is over budget', () => {
    const { ctx } = statusLog({ maxTurns: 3 });
    for (const t of exchange(1)) ctx.append(t);
    ctx.append(user('u2'));
    ctx.append(calls('a', 'b'));
    expect(ctx.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(ctx.openToolCalls()).toHaveLength(2);
    ctx.append(result('a'));
    ctx.append(result('b'));
    expect(ctx.length).toBe(4);
  });

  it('enforceBudget is a no-op within budget', async () => {
    const { ctx, lines } = statusLog({ maxTurns: 4 });
    for (const t of exchange(1)) ctx.append(t);
    await ctx.enforceBudget();
    expect(lines).toEqual([]);
  });
});

describe('summaries', () => {
  function summarized(summarize: NonNullable<ContextOptions['summarize']>, options: ContextOptions = {}) {
    const seen: string[] = [];
    const { ctx, lines } = statusLog({ maxTurns: 2, summarize, onSummary: (s) => seen.push(s), ...options });
    return { ctx, lines, seen };
  }

  it('passes evicted turns with the prior summary and keeps the result as ctx.summary', async () => {
    const asked: [string | null, string[]][] = [];
    const { ctx, seen } = summarized(async (prior, evicted) => {
      asked.push([prior, evicted.map((t) => t.content)]);
      return `S${asked.length}`;
    });
    ctx.append(user('u1'));
    ctx.append(answer('a1'));
    ctx.append(user('u2'));
    expect(ctx.summary).toBeNull();
    await ctx.settle();
    expect(ctx.summary).toBe('S1');
    ctx.append(answer('a2'));
    ctx.append(user('u3'));
    await ctx.enforceBudget();
    expect(asked).toEqual([
      [null, ['u1', 'a1']],
      ['S1', ['u2', 'a2']],
    ]);
    expect(ctx.summary).toBe('S2');
    expect(seen).toEqual(['S1', 'S2']);
    expect(ctx.turns.some((t) => t.content.startsWith('S'))).toBe(false);
  });

  it('batches evictions that happened before settle into one call', async () => {
    let callsMade = 0;
    const { ctx } = summarized(async (_p, evicted) => {
      callsMade++;
      return `${evicted.length} turns`;
    });
    for (const n of [1, 2, 3]) {
      ctx.append(user(`u${n}`));
      ctx.append(answer(`a${n}`));
    }
    await ctx.settle();
    expect(callsMade).toBe(1);
    expect(ctx.summary).toBe('4 turns');
  });

  it('re-summarizes a long summary once, then cuts it', async () => {
    const asked: number[] = [];
    const { ctx } = summarized(
      async (prior, evicted) => {
        asked.push(evicted.length);
        return evicted.length ? 'x'.repeat(50) : 'y'.repeat(30);
      },
      { maxSummaryChars: 20 },
    );
    ctx.appendMany([user(), answer(), user()]);
    await ctx.settle();
    expect(asked).toEqual([2, 0]);
    expect(ctx.summary).toHaveLength(20);
    expect(ctx.summary!.startsWith('yyy')).toBe(true);
    expect(ctx.summary!.endsWith('…')).toBe(true);
  });

  it('keeps a re-summarized summary that fits', async () => {
    const { ctx } = summarized(async (_p, evicted) => (evicted.length ? 'x'.repeat(50) : 'short'), { maxSummaryChars: 20 });
    ctx.appendMany([user(), answer(), user()]);
    await ctx.settle();
    expect(ctx.summary).toBe('short');
  });

  it.each<[string, () => Promise<string | null>, RegExp]>([
    ['null', async () => null, /summary failed \(the summarizer returned nothing\); 2 evicted turns dropped/],
    ['a throw', async () => Promise.reject(new Error('transport: Connection refused')), /summary failed \(transport: Connection refused\)/],
  ])('%s evicts silently with one status line', async (_name, summarize, message) => {
    const { ctx, lines } = summarized(summarize);
    ctx.setSummary('before');
    ctx.appendMany([user(), answer(), user()]);
    await ctx.enforceBudget();
    await ctx.settle();
    expect(lines.filter((l) => l.startsWith('status:'))).toHaveLength(1);
    expect(lines.find((l) => l.startsWith('status:'))).toMatch(message);
    expect(lines).toContain('context: oldest 2 turns evicted');
    expect(ctx.summary).toBe('before');
    expect(ctx.length).toBe(1);
  });

  it('setSummarizing(false) stops summarizing (Norris mode)', async () => {
    let callsMade = 0;
    const { ctx } = summarized(async () => `${++callsMade}`);
    ctx.appendMany([user(), answer(), user()]);
    ctx.setSummarizing(false);
    expect(ctx.summarizing).toBe(false);
    await ctx.settle();
    ctx.append(answer());
    ctx.append(user());
    await ctx.enforceBudget();
    expect(callsMade).toBe(0);
    ctx.setSummarizing(true);
    ctx.append(answer());
    ctx.append(user());
    await ctx.settle();
    expect(callsMade).toBe(1);
  });

  it('a summary still running when reset() is called is dropped', async () => {
    let release!: (s: string) => void;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const { ctx } = summarized(() => {
      started();
      return new Promise<string>((r) => (release = r));
    });
    ctx.appendMany([user(), answer(), user()]);
    const settling = ctx.settle();
    await running;
    ctx.reset();
    release('stale');
    await settling;
    expect(ctx.summary).toBeNull();
  });

  it('Ctrl-C during a summary ends the wait at once and keeps the turns for the next one', async () => {
    const asked: string[][] = [];
    const { ctx, lines } = summarized((_prior, evicted, signal) => {
      asked.push(evicted.map((t) => t.content));
      if (asked.length > 1) return Promise.resolve('S');
      // The first run hangs until it is cancelled, like a model that does not answer.
      return new Promise<string>((_resolve, reject) => signal!.addEventListener('abort', () => reject(signal!.reason)));
    });
    ctx.appendMany([user('u1'), answer('a1'), user('u2')]);
    const cancel = new AbortController();
    const settling = ctx.enforceBudget(cancel.signal);
    await Promise.resolve();
    cancel.abort(new Error('cancelled'));
    await settling;
    expect(ctx.summary).toBeNull();
    expect(lines.filter((l) => l.startsWith('status'))).toEqual([]);
    await ctx.settle();
    expect(asked).toEqual([
      ['u1', 'a1'],
      ['u1', 'a1'],
    ]);
    expect(ctx.summary).toBe('S');
  });

  it('an already cancelled settle does not start a summary', async () => {
    let callsMade = 0;
    const { ctx } = summarized(async () => `S${++callsMade}`);
    ctx.appendMany([user(), answer(), user()]);
    await ctx.enforceBudget(AbortSignal.abort());
    expect([callsMade, ctx.summary]).toEqual([0, null]);
    await ctx.settle();
    expect([callsMade, ctx.summary]).toEqual([1, 'S1']);
  });

  it('a throwing onSummary rejects that settle only', async () => {
    let n = 0;
    const ctx = new Context({
      maxTurns: 2,
      summarize: async () => `S${++n}`,
      onSummary: (s) => {
        if (s === 'S1') throw new Error('log full');
      },
    });
    ctx.appendMany([user(), answer(), user()]);
    await expect(ctx.settle()).rejects.toThrow('log full');
    ctx.append(answer());
    ctx.append(user());
    await ctx.settle();
    expect(ctx.summary).toBe('S2');
  });

  it('no summarizer: eviction only', async () => {
    const { ctx, lines } = statusLog({ maxTurns: 2 });
    expect(ctx.summarizing).toBe(false);
    ctx.appendMany([user(), answer(), user()]);
    await ctx.settle();
    expect(lines).toEqual(['context: oldest 2 turns evicted']);
  });
});

describe('toMessages', () => {
  const toolExchange = (ctx: Context) => {
    ctx.append(user('list /etc'));
    ctx.append({ role: 'assistant', content: 'Looking.', tool_calls: [call('a', 'fs__list'), call('b', 'fs__stat')] });
    ctx.append(result('a', 'passwd\nhosts'));
    ctx.append(result('b', 'dir'));
  };

  it('emits the OpenAI shape with the tool role', () => {
    const ctx = new Context();
    toolExchange(ctx);
    ctx.append(answer('Two files.'));
    expect(ctx.toMessages('SYS')).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'list /etc' },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'fs__list', arguments: '{"path":"/etc"}' } },
          { id: 'b', type: 'function', function: { name: 'fs__stat', arguments: '{"path":"/etc"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'passwd\nhosts' },
      { role: 'tool', tool_call_id: 'b', content: 'dir' },
      { role: 'assistant', content: 'Two files.' },
    ]);
  });

  it('sends empty assistant content as "" next to tool calls', () => {
    const ctx = new Context();
    ctx.append(user());
    ctx.append(calls('a'));
    expect(ctx.toMessages('S')[2]).toMatchObject({ role: 'assistant', content: '' });
  });

  it('without the tool role, mid tool loop: results as a synthetic user message at the end', () => {
    const ctx = new Context({ useToolRole: false });
    toolExchange(ctx);
    expect(ctx.toMessages('SYS')).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'list /etc' },
      { role: 'assistant', content: 'Looking.' },
      { role: 'user', content: '[tool: fs__list]\npasswd\nhosts\n\n[tool: fs__stat]\ndir' },
    ]);
  });

  it('without the tool role, results are a prefix of a user turn that follows them', () => {
    const ctx = new Context({ useToolRole: false });
    toolExchange(ctx);
    ctx.append(user('[exec output]\nx\n\nand now?'));
    expect(ctx.toMessages('SYS').slice(3)).toEqual([
      { role: 'user', content: '[tool: fs__list]\npasswd\nhosts\n\n[tool: fs__stat]\ndir\n\n[exec output]\nx\n\nand now?' },
    ]);
  });

  it('without the tool role, results stay where they were once the model answered', () => {
    const ctx = new Context({ useToolRole: false });
    toolExchange(ctx);
    ctx.append(answer('Two files.'));
    ctx.append(user('thanks'));
    expect(ctx.toMessages('SYS').map((m) => [m.role, m.content])).toEqual([
      ['system', 'SYS'],
      ['user', 'list /etc'],
      ['assistant', 'Looking.'],
      ['user', '[tool: fs__list]\npasswd\nhosts\n\n[tool: fs__stat]\ndir'],
      ['assistant', 'Two files.'],
      ['user', 'thanks'],
    ]);
  });
});

describe('tool-call arguments on the wire', () => {
  it.each<[string, string, string]>([
    ['a JSON object passes unchanged', '{"path":"/etc"}', '{"path":"/etc"}'],
    ['empty arguments become {}', '', '{}'],
    ['broken JSON is wrapped so every backend accepts it', '{"path":', '{"unparsed_arguments":"{\\"path\\":"}'],
    ['a JSON array is wrapped', '[1,2]', '{"unparsed_arguments":"[1,2]"}'],
    ['a bare string is wrapped', 'hello', '{"unparsed_arguments":"hello"}'],
  ])('%s', (_name, args, wire) => {
    const ctx = new Context();
    ctx.append(user('go'));
    ctx.append({ role: 'assistant', content: '', tool_calls: [{ id: 'a', name: 'srv__read', arguments: args }] });
    ctx.append(result('a', '[aish] tool arguments not parseable as JSON: ...'));
    const sent = ctx.toMessages('sys')[2] as { tool_calls: { function: { arguments: string } }[] };
    expect(sent.tool_calls[0]!.function.arguments).toBe(wire);
    expect(JSON.parse(sent.tool_calls[0]!.function.arguments)).toBeTypeOf('object');
    // The turn itself (and so the session log) keeps what the model sent.
    expect((ctx.turns[1] as { tool_calls: { arguments: string }[] }).tool_calls[0]!.arguments).toBe(args);
  });
});

