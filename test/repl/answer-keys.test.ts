// One-key answers: which keys of one read answer a question, and what it says when they do not.

import { describe, expect, it } from 'vitest';
import { answerOf, keysHint } from '../../src/repl/line-reader.js';

const key = (s: string) => ({ s, key: { name: s === '\r' ? 'return' : s.toLowerCase(), sequence: s }, pasted: false });
const keys = (text: string) => [...text].map(key);

describe('answerOf', () => {
  it.each([
    ['y', 'y'],
    ['Y', 'y'],
    ['e', 'e'],
    ['n', 'n'],
    ['y\r', 'y'],
    ['\r', 'n'],
    ['a', null],
    ['e -vv', null],
    ['yes', null],
    ['what does it do?\r', null],
    ['\r\r', null],
    ['x\r', null],
  ])('%j → %j', (typed, answer) => {
    expect(answerOf(keys(typed), 'yne', 'n')).toBe(answer);
  });

  it('a pasted key is not an answer', () => {
    expect(answerOf([{ ...key('y'), pasted: true }], 'yne', 'n')).toBe(null);
  });

  it('a control key is not an answer', () => {
    expect(answerOf([{ s: '\x19', key: { name: 'y', ctrl: true, sequence: '\x19' }, pasted: false }], 'yne', 'n')).toBe(null);
  });
});

describe('keysHint', () => {
  it.each([
    ['yne', 'n', '(one key: y, n or e; Enter: n)'],
    ['psa', 'a', '(one key: p, s or a; Enter: a)'],
    ['yn', 'y', '(one key: y or n; Enter: y)'],
  ])('%s', (k, fallback, hint) => {
    expect(keysHint(k, fallback)).toBe(hint);
  });
});
