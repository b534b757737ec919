import { appendFileSync, writeFileSync, createWriteStream } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../src/context/context.js';
import type { Turn } from '../../src/context/turns.js';
import { INTERRUPTED_TOOL_RESULT, NO_REPLY_RESULT, loadSession } from '../../src/history/load.js';
import { SessionError } from '../../src/history/session-error.js';
import { SessionLog } from '../../src/history/session-log.js';
import { tempDir } from '../support/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('aish-load-');
});

const HEADER = '{"meta":{"started":"2026-05-12T10:03:07.000Z","model":"fast","aish_version":"0.1.0","format":1}}';
const j = (v: unknown) => JSON.stringify(v);
const U = (content: string) => j({ role: 'user', content });
const A = (content: string, calls?: { id: string; name: string; arguments: string }[]) =>
  j(calls ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content });
const T = (id: string, content: string) => j({ role: 'tool', tool_call_id: id, content });
const call = (id: string, name = 'fs__read') => ({ id, name, arguments: '{}' });

function file(...lines: string[]): string {
  const f = path.join(dir, `s${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(f, lines.map((l) => `${l}\n`).join(''));
  return f;
}

/** Loaded turns must always go into a Context as they are. */
function appendable(turns: Turn[]): void {
  new Context({ maxTurns: 1e9, tokenBudget: 1e9 }).appendMany(turns);
}

describe('loadSession', () => {
  it('round-trips what SessionLog wrote, summary included', async () => {
    const { log } = SessionLog.create({ dir, startedAt: new Date('2026-05-12T10:03:07Z'), model: 'fast', version: '0.1.0' });
    const turns: Turn[] = [
      { role: 'user', content: 'read a' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', tool_call_id: 'c1', content: 'A', name: 'fs__read' },
      { role: 'assistant', content: 'It says A.' },
    ];
    log.appendTurn(turns[0]!);
    log.appendSummary('first');
    for (const t of turns.slice(1)) log.appendTurn(t);
    log.appendToolAudit({ name: 'fs__read', arguments: '{}', decision: 'approved', by: 'user', duration_ms: 1, outcome: 'ok' });
    log.appendSummary('second');
    log.close();
    const loaded = await loadSession(log.file!);
    expect(loaded.meta).toEqual({ started: '2026-05-12T10:03:07.000Z', model: 'fast', aish_version: '0.1.0', format: 1 });
    expect(loaded.turns).toEqual(turns);
    expect(loaded.summary).toBe('second');
    expect(loaded.warnings).toEqual([]);
    expect(loaded.repaired).toEqual([]);
  });

  it('skips a torn last line with one warning naming it', async () => {
    const f = file(HEADER, U('hi'), A('hello'));
    appendFileSync(f, '{"role":"user","content":"half a li');
    const loaded = await loadSession(f);
    expect(loaded.turns).toHaveLength(2);
    expect(loaded.warnings).toEqual(['line 4: cut off mid-write (the last line is torn), dropped']);
  });

  it('a reply torn by a full disk: the question before it stays, closed, and the conversation can go on', async () => {
    const f = file(HEADER, U('q1'), A('a1'), U('q2'));
    appendFileSync(f, '{"role":"assistant","content":"a2 cut he');
    const loaded = await loadSession(f);
    expect(loaded.turns.map((t) => [t.role, t.content])).toEqual([
      ['user', 'q1'],
      ['assistant', 'a1'],
      ['user', 'q2'],
      ['assistant', NO_REPLY_RESULT],
    ]);
    expect(loaded.warnings).toEqual(['line 5: cut off mid-write (the last line is torn), dropped', 'line 4: the last question has no reply in the log, closed']);
    expect(loaded.repaired).toEqual([{ role: 'assistant', content: NO_REPLY_RESULT }]);
    appendable(loaded.turns);
  });

  it('a question logged as unanswered (its request failed) is not a turn', async () => {
    const f = file(HEADER, U('q1'), A('a1'), j({ event: 'unanswered', role: 'user', content: 'q2', error: 'transport: Connection refused' }));
    const loaded = await loadSession(f);
    expect(loaded.turns.map((t) => t.content)).toEqual(['q1', 'a1']);
    expect(loaded.warnings).toEqual([]);
  });

  it('skips garbage in the middle and keeps what follows', async () => {
    const f = file(HEADER, U('one'), 'garbage {', A('two'), '[1,2]', '{"role":"user"}', U('three'), A('four'));
    const loaded = await loadSession(f);
    expect(loaded.turns.map((t) => t.content)).toEqual(['one', 'two', 'three', 'four']);
    expect(loaded.warnings).toEqual([
      'line 3: not valid JSON, skipped',
      'line 5: not a turn (a turn must be an object), skipped',
      'line 6: not a turn (user turn: content must be a string), skipped',
    ]);
  });

  it('refuses an empty file', async () => {
    await expect(loadSession(file())).rejects.toThrow(/session .* is empty/);
    const blank = path.join(dir, 'blank.jsonl');
    writeFileSync(blank, '\n\n');
    await expect(loadSession(blank)).rejects.toBeInstanceOf(SessionError);
  });

  it('refuses a file written by a newer aish', async () => {
    const f = file('{"meta":{"started":"x","model":"m","aish_version":"9.0.0","format":2}}', U('hi'));
    await expect(loadSession(f)).rejects.toThrow(`session ${f} was written by a newer aish (format 2)`);
  });

  it('reads a header without format (older writers) as format 1', async () => {
    const loaded = await loadSession(file('{"meta":{"started":"s","model":"m","aish_version":"0.0.1"}}', U('hi'), A('hello')));
    expect(loaded.meta.format).toBe(1);
    expect(loaded.turns).toHaveLength(2);
  });

  it('refuses a file that does not start with a header', async () => {
    await expect(loadSession(file(U('hi')))).rejects.toThrow(/is not an aish session \(line 1/);
  });

  it('names a missing file', async () => {
    await expect(loadSession(path.join(dir, 'nope.jsonl'))).rejects.toThrow(/cannot read session .*nope\.jsonl: ENOENT/);
  });

  it('repairs a session killed mid tool loop (assistant calls, no results)', async () => {
    const f = file(HEADER, U('go'), A('Checking.', [call('a', 'fs__list'), call('b', 'fs__stat')]), T('a', 'listed'));
    const loaded = await loadSession(f);
    const interrupted = { role: 'tool', tool_call_id: 'b', content: INTERRUPTED_TOOL_RESULT, name: 'fs__stat' };
    expect(loaded.repaired).toEqual([interrupted]);
    expect(loaded.turns.at(-1)).toEqual(interrupted);
    expect(loaded.turns).toHaveLength(4);
    appendable(loaded.turns);
    const ctx = new Context();
    ctx.appendMany(loaded.turns);
    ctx.append({ role: 'user', content: 'again' });
  });

  it('repairs open calls in the middle when later turns follow', async () => {
    const f = file(HEADER, U('go'), A('', [call('a')]), U('next'), A('ok'));
    const loaded = await loadSession(f);
    expect(loaded.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(loaded.repaired).toHaveLength(1);
    appendable(loaded.turns);
  });

  it.each<[string, string[], string[], string[]]>([
    ['a user turn that was never answered gives way to the retry', [U('q'), U('q again'), A('a')], ['q again', 'a'], ['line 2: user turn never answered, dropped']],
    ['an assistant turn first', [A('orphan'), U('q'), A('a')], ['q', 'a'], ['line 2: the conversation must start with a user turn, skipped']],
    ['two assistant turns', [U('q'), A('a'), A('b')], ['q', 'a'], ['line 4: two assistant turns in a row, skipped']],
    ['an orphan tool turn', [U('q'), T('x', 'r'), A('a')], ['q', 'a'], ['line 3: tool turn for x answers no open call of a preceding assistant turn, skipped']],
  ])('%s', async (_name, body, contents, warnings) => {
    const loaded = await loadSession(file(HEADER, ...body));
    expect(loaded.turns.map((t) => t.content)).toEqual(contents);
    expect(loaded.warnings).toEqual(warnings);
    appendable(loaded.turns);
  });

  it('caps warnings for a file full of garbage', async () => {
    const loaded = await loadSession(file(HEADER, ...Array.from({ length: 100 }, () => 'x')));
    expect(loaded.warnings).toHaveLength(21);
    expect(loaded.warnings.at(-1)).toBe('80 more problem lines skipped');
  });

  it('keepTurns holds only the newest whole exchanges', async () => {
    const body: string[] = [];
    for (let i = 0; i < 10; i++) body.push(U(`u${i}`), A('', [call(`c${i}`)]), T(`c${i}`, 'r'), A(`a${i}`));
    const loaded = await loadSession(file(HEADER, ...body), { keepTurns: 10 });
    expect(loaded.turns).toHaveLength(8);
    expect(loaded.turns[0]).toEqual({ role: 'user', content: 'u8' });
    expect(loaded.omitted).toBe(32);
    appendable(loaded.turns);
  });

  it('loads a 100 000-line file holding a bounded number of turns (speed is in npm run bench)', async () => {
    const f = path.join(dir, 'big.jsonl');
    const out = createWriteStream(f);
    out.write(`${HEADER}\n`);
    const filler = 'x'.repeat(200);
    for (let i = 0; i < 50_000; i++) {
      out.write(`${U(`question ${i} ${filler}`)}\n${A(`answer ${i} ${filler}`)}\n`);
      if (i % 10_000 === 0) out.write(`{"event":"summary","summary":"at ${i}"}\n`);
    }
    out.end();
    await once(out, 'close');
    const loaded = await loadSession(f, { keepTurns: 160 });
    expect(loaded.turns).toHaveLength(160);
    expect(loaded.turns.at(-1)).toEqual({ role: 'assistant', content: `answer 49999 ${filler}` });
    expect(loaded.omitted).toBe(100_000 - 160);
    expect(loaded.summary).toBe('at 40000');
    expect(loaded.warnings).toEqual([]);
  });
});

describe('a reset record', () => {
  it('drops the turns and summary before it', async () => {
    const dir = tempDir('aish-reset-');
    const file = path.join(dir, 's.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ meta: { started: '2026-01-01T00:00:00.000Z', model: 'fast', aish_version: '0.1.0', format: 1 } }),
        JSON.stringify({ role: 'user', content: 'old' }),
        JSON.stringify({ role: 'assistant', content: 'old answer' }),
        JSON.stringify({ event: 'summary', summary: 'old summary' }),
        JSON.stringify({ event: 'reset' }),
        JSON.stringify({ role: 'user', content: 'new' }),
        JSON.stringify({ role: 'assistant', content: 'new answer' }),
      ].join('\n') + '\n',
    );
    const loaded = await loadSession(file);
    expect(loaded.turns.map((t) => t.content)).toEqual(['new', 'new answer']);
    expect(loaded.summary).toBeNull();
  });
});
