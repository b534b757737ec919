// Server log lines: which levels show, how data of any JSON shape becomes one line, and the cap.

import { describe, expect, it } from 'vitest';
import { logBudget, logLine } from '../../src/mcp/server-log.js';

describe('logLine', () => {
  it.each([
    [{ level: 'debug', data: 'x' }, null],
    [{ level: 'info', data: 'x' }, null],
    [{ level: 'notice', data: 'x' }, null],
    [{ level: 'nonsense', data: 'x' }, null],
    [{ level: 'warning', data: 'disk almost full' }, 'mcp fs warning: disk almost full'],
    [{ level: 'error', logger: 'db', data: { code: 5, msg: 'gone' } }, 'mcp fs error (db): {"code":5,"msg":"gone"}'],
    [{ level: 'emergency', data: 'two\n  lines' }, 'mcp fs emergency: two lines'],
    [{ level: 'critical', data: null }, 'mcp fs critical: null'],
    [{ level: 'alert' }, 'mcp fs alert: undefined'],
  ])('%j', (params, line) => {
    expect(logLine('fs', params)).toBe(line);
  });

  it('cuts a long message to 300 characters', () => {
    expect(logLine('fs', { level: 'error', data: 'x'.repeat(1000) })!.length).toBeLessThan(330);
  });
});

describe('logBudget', () => {
  it('lets 10 lines a minute through, says so once, then starts again the next minute', () => {
    let now = 0;
    const budget = logBudget('fs', 10, () => now);
    const out = Array.from({ length: 14 }, (_, i) => budget(`line ${i}`));
    expect(out.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}`));
    expect(out[10]).toBe("mcp fs: more than 10 log messages this minute; the rest of the minute's are not shown");
    expect(out.slice(11)).toEqual([null, null, null]);
    now = 60_000;
    expect(budget('later')).toBe('later');
  });
});
