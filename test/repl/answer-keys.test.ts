// One-key answers: which keys of one read answer a question, and what it says when they do not.

import { describe, expect, it } from 'vitest';
import { answerOf, keysHint, keysOfChunk } from '../../src/render/answer-keys.js';

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
    ['yn', '', '(one key: y or n, or Enter)'],
  ])('%s', (k, fallback, hint) => {
    expect(keysHint(k, fallback)).toBe(hint);
  });
});

describe('keysOfChunk: raw terminal input before the line editor exists', () => {
  it.each([
    ['y', 'y'],
    ['N', 'n'],
    ['y\r', 'y'],
    ['\r', 'n'],
    ['v\n', 'v'],
    ['yes\r', null],
    ['x', null],
    ['\x1b[A', null],
    ['\x19', null],
    ['é', null],
  ])('%j → %j', (chunk, answer) => {
    expect(answerOf(keysOfChunk(chunk), 'ynv', 'n')).toBe(answer);
  });

  it('names Ctrl-C and Ctrl-D as control keys', () => {
    expect(keysOfChunk('\x03')[0]!.key).toMatchObject({ name: 'c', ctrl: true });
    expect(keysOfChunk('\x04')[0]!.key).toMatchObject({ name: 'd', ctrl: true });
  });
});
