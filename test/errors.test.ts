// A config error quotes the file's own keys and values: capped, so a 5 MB value is not echoed.

import { describe, expect, it } from 'vitest';
import { ConfigError, QUOTE_CHARS, clipQuote } from '../src/errors.js';

describe('clipQuote', () => {
  it.each([
    ['short', 'gpt-4o', 10, 'gpt-4o'],
    ['exactly the cap', 'abcdefghij', 10, 'abcdefghij'],
    ['one over', 'abcdefghijk', 10, 'abcdefghij[… 1 more chars]'],
    ['5 MB', 'x'.repeat(5_000_000), 10, 'xxxxxxxxxx[… 4999990 more chars]'],
    ['astral characters counted whole', '🙂'.repeat(12), 10, `${'🙂'.repeat(10)}[… 2 more chars]`],
  ])('%s', (_name, text, max, quoted) => {
    expect(clipQuote(text, max)).toBe(quoted);
  });
});

describe('ConfigError', () => {
  it('caps the keys and values it quotes', () => {
    const err = new ConfigError('/x/.aishrc.json', [
      { path: 'k'.repeat(5_000_000), message: 'unknown key' },
      { path: 'default_model', message: `no preset named "${'x'.repeat(5_000_000)}" (presets: fast)` },
    ]);
    expect(err.message.length).toBeLessThan(QUOTE_CHARS * 4);
    expect(err.message).toContain(`${'k'.repeat(QUOTE_CHARS)}[… ${5_000_000 - QUOTE_CHARS} more chars]: unknown key`);
    expect(err.message).toMatch(/default_model: no preset named "x+\[… \d+ more chars\]/);
  });

  it('lists twenty problems and counts the rest', () => {
    const err = new ConfigError(undefined, Array.from({ length: 25 }, (_, i) => ({ path: `k${i}`, message: 'unknown key' })));
    expect(err.message.split('\n')).toHaveLength(22);
    expect(err.message).toMatch(/^config: 25 problems\n/);
    expect(err.message).toMatch(/ {2}… and 5 more$/);
  });
});
