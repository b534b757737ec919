import { describe, expect, it } from 'vitest';
import { extractCmdLines } from '../src/cmd-contract.js';

describe('extractCmdLines', () => {
  it.each([
    ['CMD: ls -la', ['ls -la']],
    ['Run this:\nCMD: make test\nand then\nCMD: git status\n', ['make test', 'git status']],
    [' CMD: indented', []],
    ['CMD:no-space', []],
    ['CMD:  two spaces', ['two spaces']],
    ['CMD: ', []],
    ['CMD:    ', []],
    ['cmd: lower', []],
    ['text CMD: inline', []],
    ['CMD: echo hi\r\n', ['echo hi']],
    ['```\nCMD: inside a fence still counts\n```', ['inside a fence still counts']],
    ['CMD: a\nCMD: \nCMD: b', ['a', 'b']],
    ['\n\nCMD: after blank lines\nxCMD: no\n CMD: no\nCMD: last', ['after blank lines', 'last']],
    ['CMD:\nCMD: x', ['x']],
  ])('%j', (text, expected) => {
    expect(extractCmdLines(text)).toEqual(expected);
  });

  it('finds what splitting the text into lines finds, on 5 000 texts made of the prefix\'s pieces', () => {
    // The contract as first written: every line (CR dropped) that starts with the prefix.
    const byLines = (text: string) =>
      text
        .split('\n')
        .map((raw) => (raw.endsWith('\r') ? raw.slice(0, -1) : raw))
        .filter((line) => line.startsWith('CMD: '))
        .map((line) => line.slice('CMD: '.length).trim())
        .filter((body) => body !== '');
    const pieces = ['CMD: ', 'CMD:', 'C', 'MD: ', ' ', '\n', '\r', '\r\n', 'x', 'ls -la', '\t'];
    let seed = 17;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: next() % 12 }, () => pieces[next() % pieces.length]).join('');
      expect(extractCmdLines(text), JSON.stringify(text)).toEqual(byLines(text));
    }
  });
});
