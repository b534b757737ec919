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
});
