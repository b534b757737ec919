// The shell's rendered prompt as aish draws it: colours kept, every other escape gone, controls
// shown, never a style left on for the typed line.

import { describe, expect, it } from 'vitest';
import { shellPromptText } from '../../src/render/shell-prompt.js';

describe('shellPromptText', () => {
  it.each([
    ['plain', 'me@box:~/src$ ', 'me@box:~/src$ '],
    ['colours kept, then a reset', '\x01\x1b[32m\x02me\x01\x1b[0m\x02:~$ ', '\x1b[32mme\x1b[0m:~$ \x1b[0m'],
    ['a 24-bit colour with colons', '\x1b[38:2::1:2:3mx ', '\x1b[38:2::1:2:3mx \x1b[0m'],
    ['a window title dropped, BEL or ST', '\x1b]0;title\x07a\x1b]2;t\x1b\\b$ ', 'ab$ '],
    ['OSC 133 and a hyperlink dropped', '\x1b]133;A\x07\x1b]8;;http://x\x07l\x1b]8;;\x07> ', 'l> '],
    ['cursor moves and a clear dropped', '\x1b[s\x1b[10C\x1b[u\x1b[K\x1b7x\x1b8 ', 'x '],
    ['controls shown, tab a space, CR gone', 'a\x07b\tc\r\n$ ', 'a^Gb c\n$ '],
    ['bidi control shown', 'a\u202eb ', 'a\\u202eb '],
    ['two lines', '\n~/src on main\n❯ ', '\n~/src on main\n❯ '],
  ])('%s', (_, raw, shown) => {
    expect(shellPromptText(raw)).toBe(shown);
  });

  it.each([
    ['empty', ''],
    ['blank', '  '],
    ['too long', 'x'.repeat(5000)],
  ])('none to draw: %s', (_, raw) => {
    expect(shellPromptText(raw)).toBeNull();
  });
});
