import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AishError, UsageError } from '../../src/errors.js';
import { MemoryLockedError } from '../../src/memory/lock.js';
import { BACKGROUND_HEADER, MemoryStore, formatBackground, type MemoryItem } from '../../src/memory/store.js';
import { tempDir } from '../support/temp-dir.js';

let dir: string;
let file: string;
let lock: string;
const now = () => new Date('2026-05-12T10:00:00.000Z');
const open = () => MemoryStore.open(dir, { now, lockWaitMs: 0 });
const lines = () =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeEach(() => {
  dir = path.join(tempDir('aish-memory-'), 'state');
  file = path.join(dir, 'memory.jsonl');
  lock = path.join(dir, 'memory.lock');
});

describe('MemoryStore', () => {
  it('adds items as lines and lists them oldest first', () => {
    const store = open();
    expect(store.list()).toEqual([]);
    const a = store.add('fact', 'the build uses esbuild');
    const b = store.add('pref', 'answers\nin  English\r\n please');
    expect(a).toEqual({ id: 1, ts: '2026-05-12T10:00:00.000Z', kind: 'fact', content: 'the build uses esbuild' });
    expect(b.content).toBe('answers in  English please');
    expect(store.list()).toEqual([a, b]);
    expect(readFileSync(file, 'utf8')).toBe(
      '{"id":1,"ts":"2026-05-12T10:00:00.000Z","kind":"fact","content":"the build uses esbuild"}\n' +
        '{"id":2,"ts":"2026-05-12T10:00:00.000Z","kind":"pref","content":"answers in  English please"}\n',
    );
    expect(existsSync(lock)).toBe(false);
  });

  it('rejects an unknown kind and empty content', () => {
    const store = open();
    expect(() => store.add('opinion', 'x')).toThrow(UsageError);
    expect(() => store.add('fact', ' \n ')).toThrow('memory content is empty');
    expect(existsSync(file)).toBe(false);
  });

  it('forgets with a tombstone and never reuses ids, also across reopen and clear', () => {
    const store = open();
    store.add('fact', 'one');
    store.add('fact', 'two');
    expect(store.forget(2)).toBe(true);
    expect(store.forget(2)).toBe(false);
    expect(store.forget(99)).toBe(false);
    expect(lines().at(-1)).toEqual({ id: 2, ts: '2026-05-12T10:00:00.000Z', forget: true });
    expect(lines()).toHaveLength(3);

    const again = open();
    expect(again.list().map((i) => i.content)).toEqual(['one']);
    expect(again.add('context', 'three').id).toBe(3);

    expect(again.clear()).toBe(2);
    expect(lines().at(-1)).toEqual({ ts: '2026-05-12T10:00:00.000Z', clear: true });
    expect(again.list()).toEqual([]);
    expect(again.clear()).toBe(0);
    expect(lines()).toHaveLength(5);
    expect(open().add('fact', 'four').id).toBe(4);
    expect(open().list().map((i) => i.id)).toEqual([4]);
  });

  it('creates the dir 0700 and the file 0600', () => {
    open().add('fact', 'x');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('skips garbage in the middle and a torn last line, counting them, and appends on a fresh line', () => {
    const store = open();
    store.add('fact', 'one');
    appendFileSync(file, 'not json\n[1,2]\n{"id":"x","kind":"fact"}\n{"id":7,"ts":"t","kind":"nope","content":"c"}\n');
    store.add('fact', 'two');
    appendFileSync(file, '{"id":3,"ts":"2026-05-12T1');
    const reader = open();
    expect(reader.list().map((i) => [i.id, i.content])).toEqual([
      [1, 'one'],
      [8, 'two'],
    ]);
    expect(reader.warnings).toEqual([
      'line 2: not valid JSON, skipped',
      'line 3: not a memory record, skipped',
      'line 4: no valid id, skipped',
      'line 5: not a memory item, skipped',
      'line 7: not valid JSON, skipped',
    ]);
    expect(reader.add('pref', 'three').id).toBe(9);
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('{"id":3,"ts":"2026-05-12T1\n{"id":9,"ts":"2026-05-12T10:00:00.000Z","kind":"pref","content":"three"}\n')).toBe(true);
    expect(open().list().map((i) => i.id)).toEqual([1, 8, 9]);
  });

  it('is off without a history dir: reads are empty, writes throw', () => {
    const store = MemoryStore.open(undefined);
    expect(store.enabled).toBe(false);
    expect(store.file).toBeNull();
    expect(store.list()).toEqual([]);
    expect(store.inject()).toBe('');
    for (const write of [() => store.add('fact', 'x'), () => store.forget(1), () => store.clear()]) {
      expect(write).toThrow(new UsageError('memory is off: no history directory'));
    }
  });

  it('reports an unwritable dir as a memory error', () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, '');
    const blocked = MemoryStore.open(path.join(file, 'sub'), { lockWaitMs: 0 });
    expect(() => blocked.add('fact', 'x')).toThrow(AishError);
  });
});

describe('the memory lock', () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('fails a write clearly while another live process holds it, and leaves its lock alone', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(child);
    await once(child, 'spawn');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(lock, `${child.pid}\n`);

    const store = open();
    let caught: unknown;
    try {
      store.add('fact', 'x');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MemoryLockedError);
    expect(caught).toBeInstanceOf(AishError);
    expect((caught as MemoryLockedError).code).toBe('memory');
    expect((caught as Error).message).toBe(`memory is being written by another aish (pid ${child.pid}); try again`);
    expect(() => store.forget(1)).toThrow(MemoryLockedError);
    expect(() => store.clear()).toThrow(MemoryLockedError);
    expect(readFileSync(lock, 'utf8')).toBe(`${child.pid}\n`);
    expect(existsSync(file)).toBe(false);
    // Reads do not take the lock.
    expect(store.list()).toEqual([]);
  });

  it('takes over a lock whose process is gone', async () => {
    const child = spawn('true', [], { stdio: 'ignore' });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(lock, `${child.pid}\n`);

    expect(open().add('fact', 'after a crash').id).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a leftover lock holding our own pid', () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(lock, `${process.pid}\n`);
    expect(open().add('fact', 'x').id).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for an unreadable (just created) lock, then names no pid', () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(lock, '');
    expect(() => open().add('fact', 'x')).toThrow('memory is being written by another aish; try again');
  });
});

describe('inject', () => {
  const item = (id: number, kind: MemoryItem['kind'], content: string): MemoryItem => ({ id, ts: 't', kind, content });

  it('is empty without items', () => {
    expect(open().inject()).toBe('');
    expect(formatBackground([])).toBe('');
  });

  it('lists newest first under the header', () => {
    const store = open();
    store.add('fact', 'the repo is aish');
    store.add('pref', 'short answers');
    store.add('context', 'working on memory');
    store.forget(2);
    expect(store.inject()).toBe(
      '[background] (memory.jsonl; manage via :memory)\n- (context) working on memory\n- (fact) the repo is aish',
    );
  });

  it('stops before the block would pass the cap (2000 by default)', () => {
    // Each line is "\n- (fact) " (10 chars) + 90 chars = 100 chars.
    const items = Array.from({ length: 30 }, (_, i) => item(i + 1, 'fact', String(i + 1).padStart(90, 'x')));
    const block = formatBackground(items);
    const header = BACKGROUND_HEADER.length;
    const fits = Math.floor((2000 - header) / 100);
    expect(block.length).toBe(header + fits * 100);
    expect(block.length).toBeLessThanOrEqual(2000);
    const shown = block.split('\n').slice(1);
    expect(shown).toHaveLength(fits);
    expect(shown[0]).toBe(`- (fact) ${'30'.padStart(90, 'x')}`);
    expect(shown.at(-1)).toBe(`- (fact) ${String(30 - fits + 1).padStart(90, 'x')}`);

    expect(formatBackground(items, header + 100)).toBe(`${BACKGROUND_HEADER}\n- (fact) ${'30'.padStart(90, 'x')}`);
    expect(formatBackground(items, header + 99)).toBe('');
  });

  it('the store passes its cap through', () => {
    const store = open();
    store.add('fact', 'a');
    store.add('fact', 'b');
    expect(store.inject(BACKGROUND_HEADER.length + 11)).toBe(`${BACKGROUND_HEADER}\n- (fact) b`);
  });
});
