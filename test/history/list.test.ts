import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { listSessions, resolveSession } from '../../src/history/list.js';
import { SessionLog } from '../../src/history/session-log.js';
import type { Turn } from '../../src/context/turns.js';
import { tempDir } from '../support/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('aish-list-');
});

function session(startedAt: string, turns: Turn[], name?: string): string {
  const { log } = SessionLog.create({ dir, startedAt: new Date(startedAt), model: 'fast', version: '0.1.0' });
  for (const t of turns) log.appendTurn(t);
  log.appendSummary('s');
  if (name) log.rename(name);
  log.close();
  return log.file!;
}

const exchange = (q: string): Turn[] => [
  { role: 'user', content: q },
  { role: 'assistant', content: 'answer' },
];

describe('listSessions', () => {
  it('lists newest first with turn counts, first prompt and the active flag', async () => {
    const old = session('2026-05-10T08:00:00Z', exchange('how do I list files?'));
    const named = session('2026-05-11T08:00:00Z', [...exchange('[exec output]\nerror: x\n\nwhy did make fail?\nmore'), ...exchange('b')], 'make-fail');
    const active = session('2026-05-12T08:00:00Z', []);
    const list = await listSessions(dir, active);
    expect(list.map((s) => [s.name, s.turns, s.firstPrompt, s.active])).toEqual([
      ['2026-05-12T08-00-00Z', 0, '', true],
      ['make-fail', 4, 'why did make fail?', false],
      ['2026-05-10T08-00-00Z', 2, 'how do I list files?', false],
    ]);
    expect(list[2]!.file).toBe(old);
    expect(list[1]!.file).toBe(named);
    expect(list[0]!.started.toISOString()).toBe('2026-05-12T08:00:00.000Z');
  });

  it('cuts a long first prompt to one short line', async () => {
    session('2026-05-10T08:00:00Z', exchange(`${'word '.repeat(30)}\nsecond line`));
    const [info] = await listSessions(dir);
    expect(info!.firstPrompt.length).toBeLessThanOrEqual(60);
    expect(info!.firstPrompt.endsWith('…')).toBe(true);
    expect(info!.firstPrompt).not.toContain('\n');
  });

  it('is empty when there is no sessions dir, and tolerates a file without header', async () => {
    expect(await listSessions(path.join(dir, 'none'))).toEqual([]);
    mkdirSync(path.join(dir, 'sessions'));
    writeFileSync(path.join(dir, 'sessions', 'odd.jsonl'), 'garbage\n{"role":"user","content":"q"}\n');
    writeFileSync(path.join(dir, 'sessions', 'notes.txt'), 'not a session');
    const list = await listSessions(dir);
    expect(list.map((s) => [s.name, s.turns, s.firstPrompt])).toEqual([['odd', 1, 'q']]);
  });
});

describe('resolveSession', () => {
  it('last is the newest session that is not the active one', async () => {
    session('2026-05-10T08:00:00Z', exchange('a'));
    const previous = session('2026-05-11T08:00:00Z', exchange('b'));
    const active = session('2026-05-12T08:00:00Z', []);
    expect(await resolveSession(dir, 'last', active)).toBe(previous);
    expect(await resolveSession(dir, 'last')).toBe(active);
  });

  it('finds a name with or without .jsonl, or a path', async () => {
    const f = session('2026-05-10T08:00:00Z', exchange('a'), 'work');
    expect(await resolveSession(dir, 'work')).toBe(f);
    expect(await resolveSession(dir, 'work.jsonl')).toBe(f);
    expect(await resolveSession(dir, f)).toBe(f);
  });

  it.each([
    ['unknown', /no session named 'unknown'/],
    ['last', /no earlier session to resume/],
    ['', /give a name or `last`/],
  ])('%j is an error', async (name, message) => {
    await expect(resolveSession(dir, name)).rejects.toThrow(message);
  });
});
