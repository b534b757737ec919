import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../src/safety/confirm.js';

describe('parseAnswer', () => {
  it.each([
    ['y', false, 'yes'],
    ['YES', false, 'yes'],
    [' y ', false, 'yes'],
    ['', false, 'no'],
    [null, false, 'no'],
    ['n', false, 'no'],
    ['yep', false, 'no'],
    ['a', false, 'no'],
    ['a', true, 'always'],
    ['always', true, 'always'],
  ] as const)('%j (always allowed: %s) → %s', (answer, allowAlways, expected) => {
    expect(parseAnswer(answer, allowAlways)).toBe(expected);
  });
});
