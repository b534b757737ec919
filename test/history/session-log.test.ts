import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { SessionLog, type SessionLogOptions } from '../../src/history/session-log.js';
import type { Turn } from '../../src/context/turns.js';
import { tempDir } from '../support/temp-dir.js';

let dir: string;
const started = new Date('2026-05-12T10:03:07.123Z');

beforeEach(() => {
  dir = path.join(tempDir('aish-history-'), 'state');
});

const create = (extra: Partial<SessionLogOptions> = {}) => {
  const { log, problem } = SessionLog.create({ dir, startedAt: started, model: 'fast', version: '0.1.0', ...extra });
  expect(problem).toBeNull();
  return log;
};

const lines = (file: string) => readFileSync(file, 'utf8').split('\n');

describe('SessionLog.create', () => {
  it('names the file by UTC start time, with the header on line 1', () => {
    const log = create();
    expect(log.file).toBe(path.join(dir, 'sessions', '2026-05-12T10-03-07Z.jsonl'));
    log.close();
    expect(readFileSync(log.file!, 'utf8')).toBe(
      '{"meta":{"started":"2026-05-12T10:03:07.123Z","model":"fast","aish_version":"0.1.0","format":1}}\n',
    );
  });

  it('creates dirs 0700 and the file 0600', () => {
    const log = create();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, 'sessions')).mode & 0o777).toBe(0o700);
    expect(statSync(log.file!).mode & 0o777).toBe(0o600);
  });

  it('adds -2, -3 when the name is taken', () => {
    const names = [create(), create(), create()].map((l) => path.basename(l.file!));
    expect(names).toEqual(['2026-05-12T10-03-07Z.jsonl', '2026-05-12T10-03-07Z-2.jsonl', '2026-05-12T10-03-07Z-3.jsonl']);
  });

  it('an unset dir turns logging off with a reason, and the log does nothing', () => {
    const { log, problem } = SessionLog.create({ dir: undefined, startedAt: started, model: 'fast', version: '1' });
    expect(problem).toMatch(/session history off/);
    expect(log.enabled).toBe(false);
    expect(log.file).toBeNull();
    log.appendTurn({ role: 'user', content: 'x' });
    log.appendSummary('s');
    log.close();
    expect(() => log.rename('x')).toThrow(UsageError);
  });

  it.skipIf(process.getuid?.() === 0)('an unwritable dir turns logging off without throwing (skipped as root: root writes anywhere)', () => {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o500);
    const { log, problem } = SessionLog.create({ dir, startedAt: started, model: 'fast', version: '1' });
    expect(log.enabled).toBe(false);
    expect(problem).toMatch(/^session history off: cannot write .*sessions: EACCES/);
  });

  it('a file where the dir should be turns logging off', () => {
    const parent = tempDir('aish-f-');
    writeFileSync(path.join(parent, 'state'), 'not a dir');
    const { log, problem } = SessionLog.create({ dir: path.join(parent, 'state'), startedAt: started, model: 'm', version: '1' });
    expect(log.enabled).toBe(false);
    expect(problem).toMatch(/session history off/);
  });
});

describe('SessionLog lines', () => {
  it('writes each turn as one line with exactly the documented keys', () => {
    const log = create();
    const turns: Turn[] = [
      { role: 'user', content: '[exec output]\nx\n\nwhy?' },
      { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'c1', name: 'fs__read', arguments: '{"path":"a"}' }] },
      { role: 'tool', tool_call_id: 'c1', content: 'data', name: 'fs__read' },
      { role: 'tool', tool_call_id: 'c2', content: 'no name' },
      { role: 'assistant', content: 'Done.\nCMD: ls' },
    ];
    for (const t of turns) log.appendTurn(t);
    log.close();
    const written = lines(log.file!);
    expect(written).toHaveLength(7);
    expect(written[6]).toBe('');
    expect(written.slice(1, 6)).toEqual([
      '{"role":"user","content":"[exec output]\\nx\\n\\nwhy?"}',
      '{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"c1","name":"fs__read","arguments":"{\\"path\\":\\"a\\"}"}]}',
      '{"role":"tool","tool_call_id":"c1","content":"data","name":"fs__read"}',
      '{"role":"tool","tool_call_id":"c2","content":"no name"}',
      '{"role":"assistant","content":"Done.\\nCMD: ls"}',
    ]);
    const keys = written.slice(1, 6).map((l) => Object.keys(JSON.parse(l)));
    expect(keys).toEqual([
      ['role', 'content'],
      ['role', 'content', 'tool_calls'],
      ['role', 'tool_call_id', 'content', 'name'],
      ['role', 'tool_call_id', 'content'],
      ['role', 'content'],
    ]);
  });

  it('writes events with the event key first', () => {
    const log = create();
    log.appendSummary('user asked about X');
    log.appendToolAudit({ name: 'fs__read', arguments: '{}', decision: 'approved', by: 'policy', duration_ms: 12, outcome: 'ok' });
    log.appendEvent('custom', { event: 'ignored', n: 1 });
    log.close();
    expect(lines(log.file!).slice(1, 4)).toEqual([
      '{"event":"summary","summary":"user asked about X"}',
      '{"event":"tool_audit","name":"fs__read","arguments":"{}","decision":"approved","by":"policy","duration_ms":12,"outcome":"ok"}',
      '{"event":"custom","n":1}',
    ]);
  });

  it('appends after close do nothing', () => {
    const log = create();
    log.close();
    log.close();
    log.appendTurn({ role: 'user', content: 'late' });
    expect(lines(log.file!)).toHaveLength(2);
  });

  it('writes only what it is given: no headers, keys or tokens of its own', () => {
    const secret = 'sk-test-SECRET-0123456789';
    process.env.AISH_TEST_TOKEN = secret;
    try {
      const log = create();
      log.appendTurn({ role: 'user', content: 'call the server' });
      log.appendTurn({ role: 'assistant', content: '', tool_calls: [{ id: 'a', name: 'srv__x', arguments: '{}' }] });
      log.appendTurn({ role: 'tool', tool_call_id: 'a', content: 'ok' });
      log.appendToolAudit({ name: 'srv__x', arguments: '{}', decision: 'approved', by: 'user', duration_ms: 3, outcome: 'ok' });
      log.close();
      const text = readFileSync(log.file!, 'utf8');
      expect(text).not.toContain(secret);
      expect(text.toLowerCase()).not.toContain('authorization');
      expect(text.toLowerCase()).not.toContain('bearer');
    } finally {
      delete process.env.AISH_TEST_TOKEN;
    }
  });

  it('writes every turn synchronously, one line each (write cost is in npm run bench territory, not asserted)', () => {
    const log = create();
    const turn: Turn = { role: 'assistant', content: 'x'.repeat(500) };
    for (let i = 0; i < 5000; i++) log.appendTurn(turn);
    log.close();
    expect(lines(log.file!)).toHaveLength(5002);
  });
});

describe('SessionLog.rename', () => {
  it('renames to <name>.jsonl and keeps appending to it', () => {
    const log = create();
    log.appendTurn({ role: 'user', content: 'before' });
    const old = log.file!;
    expect(log.rename('my-work')).toBe(path.join(dir, 'sessions', 'my-work.jsonl'));
    expect(existsSync(old)).toBe(false);
    log.appendTurn({ role: 'user', content: 'after' });
    log.close();
    expect(lines(log.file!).slice(1, 3).map((l) => JSON.parse(l).content)).toEqual(['before', 'after']);
    expect(statSync(log.file!).mode & 0o777).toBe(0o600);
  });

  it('accepts the name with .jsonl and a rename to its own name', () => {
    const log = create();
    log.rename('a.jsonl');
    expect(path.basename(log.file!)).toBe('a.jsonl');
    expect(log.rename('a')).toBe(log.file);
  });

  it.each(['', '  ', 'a/b', '../x', 'a\\b', '.hidden', '.jsonl'])('refuses the name %j', (name) => {
    const log = create();
    expect(() => log.rename(name)).toThrow(UsageError);
    expect(readdirSync(path.join(dir, 'sessions'))).toEqual([path.basename(log.file!)]);
  });

  it('refuses to overwrite an existing session', () => {
    const first = create();
    first.rename('taken');
    const second = create();
    expect(() => second.rename('taken')).toThrow(/session 'taken' already exists/);
    expect(second.file).toMatch(/2026-05-12T10-03-07Z\.jsonl$/);
  });
});
