// Every write path on a real full disk (a 64 KiB tmpfs, filled): a line lands whole or not at all,
// nothing half-written or stale is left behind, and the error says the disk is full in words.
// Without the rights to mount a tmpfs the tests skip and their name says why.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLog } from '../src/history/session-log.js';
import { SavedPrompts } from '../src/history/saved-prompts.js';
import { MemoryStore } from '../src/memory/store.js';
import { writePrivateFile } from '../src/private-file.js';
import { appendInputHistory, loadInputHistory } from '../src/repl/input-history.js';
import { SMALL_DISK, fillDisk, freeDisk, mountSmallDisk, unmountSmallDisk } from './support/small-disk.js';

let base: string;
let disk: string;

beforeEach(() => {
  if (!SMALL_DISK.ok) return;
  base = mkdtempSync(path.join(tmpdir(), 'aish-disk-'));
  disk = path.join(base, 'disk');
  mountSmallDisk(disk);
});
afterEach(() => {
  if (!SMALL_DISK.ok) return;
  unmountSmallDisk(disk);
  rmSync(base, { recursive: true, force: true });
});

const lines = (file: string) => readFileSync(file, 'utf8').split('\n');
const FULL = 'the disk is full (ENOSPC)';

describe.skipIf(!SMALL_DISK.ok)(`on a full disk${SMALL_DISK.ok ? '' : ` (skipped: ${SMALL_DISK.reason})`}`, () => {
  it('the session log cuts a line the disk stopped part way back out, says so once, and keeps every line before it whole', () => {
    const problems: string[] = [];
    const { log } = SessionLog.create({ dir: disk, startedAt: new Date('2026-01-01T00:00:00Z'), model: 'fast', version: '1', onProblem: (m) => problems.push(m) });
    log.appendTurn({ role: 'user', content: 'q1' });
    fillDisk(disk);
    // Longer than the free bytes of the log's last page: the write stops part way.
    log.appendTurn({ role: 'assistant', content: 'a'.repeat(20_000) });
    log.appendTurn({ role: 'user', content: 'q2' });
    expect(problems).toEqual([`session log stopped: cannot write ${log.file}: ${FULL}; the lines written before are whole, later turns are not saved`]);
    const text = readFileSync(log.file!, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(lines(log.file!).filter(Boolean).map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ meta: expect.anything() }), { role: 'user', content: 'q1' }]);
  });

  it('a session log that cannot take its header is off, with the reason, and leaves no file', () => {
    fillDisk(disk);
    // The sessions folder exists with no free page left for a new file's header.
    const created = SessionLog.create({ dir: disk, startedAt: new Date('2026-01-01T00:00:00Z'), model: 'fast', version: '1' });
    expect(created.problem).toMatch(new RegExp(`^session history off: cannot write .*: ${FULL.replace(/[()]/g, '\\$&')}$`));
    expect(readdirSync(path.join(disk, 'sessions'))).toEqual([]);
  });

  it(':remember says the disk is full, changes nothing, leaves no lock behind, and works once there is room', () => {
    const memory = MemoryStore.open(disk, { lockWaitMs: 200 });
    memory.add('fact', 'the first thing');
    fillDisk(disk);
    expect(() => memory.add('fact', `a long thing ${'x'.repeat(20_000)}`)).toThrow(new RegExp(`${FULL.replace(/[()]/g, '\\$&')}; nothing was changed`));
    expect(existsSync(path.join(disk, 'memory.lock'))).toBe(false);
    expect(lines(path.join(disk, 'memory.jsonl')).filter(Boolean).map((l) => JSON.parse(l).content)).toEqual(['the first thing']);
    freeDisk(disk);
    memory.add('fact', 'the second thing');
    expect(memory.list().map((i) => i.content)).toEqual(['the first thing', 'the second thing']);
  });

  it('input history: the entry is not saved, the error says why, and the file keeps whole lines', async () => {
    const file = path.join(disk, 'input_history');
    await appendInputHistory(file, 'ls -la', 100);
    fillDisk(disk);
    await expect(appendInputHistory(file, `echo ${'y'.repeat(20_000)}`, 100)).rejects.toThrow(`cannot write ${file}: ${FULL}`);
    expect(readFileSync(file, 'utf8')).toBe('ls -la\n');
    expect(await loadInputHistory(file, 100)).toEqual(['ls -la']);
  });

  it('a private file (trusted configs, OAuth tokens) and saved prompts stay as they were, with no temp file left', () => {
    const file = path.join(disk, 'trusted-configs.json');
    writePrivateFile(file, '{"version":1}\n');
    fillDisk(disk);
    expect(() => writePrivateFile(file, 'z'.repeat(20_000))).toThrow(/ENOSPC/);
    expect(readFileSync(file, 'utf8')).toBe('{"version":1}\n');
    const prompts = new SavedPrompts(disk);
    expect(() => prompts.save('big', 'p'.repeat(20_000))).toThrow(`cannot write ${path.join(disk, 'prompts.json')}: ${FULL}; the saved prompts are as they were`);
    expect(readdirSync(disk).sort()).toEqual(['filler', 'trusted-configs.json']);
  });
});
