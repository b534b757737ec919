import { describe, expect, it } from 'vitest';
import { confirmCommand, parseAnswer } from '../../src/safety/confirm.js';

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

  it('confirmCommand asks with the exact wording and defaults to no', async () => {
    const asked: string[] = [];
    expect(await confirmCommand('rm x', async (q) => (asked.push(q), null))).toBe(false);
    expect(asked).toEqual(["execute 'rm x'? [y/N] "]);
    expect(await confirmCommand('ls', async () => 'y')).toBe(true);
  });
});
