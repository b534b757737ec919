// A one-key question asked as a line (no one-key reader): a key or its word answers, any other
// answer starting with y is yes (the seed's rule), an empty line is the fallback, anything else
// is no answer.

import { describe, expect, it } from 'vitest';
import { keysFromLine, questionLine, type KeyQuestion } from '../../src/safety/confirm.js';

const q: KeyQuestion = { before: "execute '", subject: 'ls -la', after: "'? [y/N/e] ", kind: 'command', keys: 'yne', fallback: 'n' };

describe('keysFromLine', () => {
  it.each([
    ['y', 'y'],
    ['YES', 'y'],
    [' y ', 'y'],
    ['', 'n'],
    [null, null],
    ['n', 'n'],
    ['e', 'e'],
    ['edit', 'e'],
    ['e -vv', null],
    ['yep', 'y'],
    ['Yeah, run it', 'y'],
    ['nope', null],
    ['a', null],
  ] as const)('%j → %j', async (line, key) => {
    const asked: string[] = [];
    expect(await keysFromLine(async (text) => (asked.push(text), line))(q)).toBe(key);
    expect(asked).toEqual([questionLine(q)]);
    expect(questionLine(q)).toBe("execute 'ls -la'? [y/N/e] ");
  });
});

describe('keysFromLine: a yes-prefix only where y is an answer', () => {
  it.each([
    ['yup', 'yna', 'y'],
    ['always', 'yna', 'a'],
    ['yup', 'nc', null],
  ] as const)('%j to [%s] → %j', async (line, keys, key) => {
    expect(await keysFromLine(async () => line)({ ...q, keys })).toBe(key);
  });
});
