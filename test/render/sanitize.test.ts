// The one sanitizer: a corpus of hostile sequences, each made visible; nothing raw leaves.

import { describe, expect, it } from 'vitest';
import { neutralize } from '../../src/render/sanitize.js';
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
