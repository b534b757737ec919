// The one sanitizer: a corpus of hostile sequences, each made visible; nothing raw leaves.

import { describe, expect, it } from 'vitest';
import { jsonLine, neutralize } from '../../src/render/sanitize.js';
import { HOSTILE, RAW_CONTROL } from '../support/hostile.js';

describe('neutralize', () => {
  it.each(HOSTILE)('%s becomes visible', (_name, input, shown) => {
    const out = neutralize(input);
    expect(out).toBe(shown);
    expect(out).not.toMatch(RAW_CONTROL);
  });

  it('keeps newline, tab and ordinary Unicode as they are', () => {
    expect(neutralize('a\tb\nc — ü 日本 🙂')).toBe('a\tb\nc — ü 日本 🙂');
  });

  it('leaves no raw control character in any string of the corpus run together', () => {
    expect(neutralize(HOSTILE.map(([, input]) => input).join(''))).not.toMatch(RAW_CONTROL);
  });
});

describe('jsonLine', () => {
  it.each(HOSTILE)('%s: escaped, and parsed back exactly', (_name, input) => {
    const line = jsonLine({ text: input, nested: [input] });
    expect(line).not.toMatch(RAW_CONTROL);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ text: input, nested: [input] });
  });

  it('escapes the line and paragraph separators, which some line readers split at', () => {
    const line = jsonLine({ text: 'a\u2028b\u2029c\u0085d' });
    expect(line).toBe('{"text":"a\\u2028b\\u2029c\\u0085d"}');
    expect(JSON.parse(line).text).toBe('a\u2028b\u2029c\u0085d');
  });

  it('leaves ordinary Unicode, emoji and joiners as they are', () => {
    expect(jsonLine({ t: 'ü 日本 🙂 👩\u200d💻' })).toBe('{"t":"ü 日本 🙂 👩\u200d💻"}');
  });
});
