// The front's dim and bold (src/render/sgr.ts) must write what chalk writes: the REPL's prompt and
// status lines are chalk's, and the front's are drawn before chalk is loaded.

import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { frontStyle, type ColorLevel } from '../../src/render/sgr.js';

const TEXTS = [
  '',
  'plain',
  '[aish:fast]',
  'two\nlines\n',
  'crlf\r\nline',
  '\n',
  'has a close \x1b[22m inside',
  'close \x1b[22m twice \x1b[22m and\nnewline',
  'other \x1b[31mred\x1b[39m code',
  'ünïcødé ✓ 漢字',
];

describe('frontStyle', () => {
  for (const level of [0, 1, 2, 3] as ColorLevel[]) {
    it(`writes dim and bold as chalk does at level ${level}`, () => {
      const chalk = new Chalk({ level });
      const style = frontStyle(level);
      for (const text of TEXTS) {
        expect(style.dim(text), JSON.stringify(text)).toBe(chalk.dim(text));
        expect(style.bold(text), JSON.stringify(text)).toBe(chalk.bold(text));
      }
    });
  }
});
