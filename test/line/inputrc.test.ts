// ~/.inputrc's settings that aish's line editor honours, read as readline would.

import { describe, expect, it } from 'vitest';
import { parseInputrc } from '../../src/line/inputrc.js';

describe('parseInputrc', () => {
  const table: [string, string, ReturnType<typeof parseInputrc>][] = [
    ['nothing', '', {}],
    ['vi mode', 'set editing-mode vi\n', { editingMode: 'vi' }],
    ['comments and case', '# a comment\nSet Editing-Mode Emacs\n', { editingMode: 'emacs' }],
    ['completion-ignore-case on', 'set completion-ignore-case on', { completionIgnoreCase: true }],
    ['completion-ignore-case off', 'set completion-ignore-case off', { completionIgnoreCase: false }],
    ['bell-style', 'set bell-style none', { bellStyle: 'none' }],
    ['an unknown value is left out', 'set bell-style loud\nset editing-mode ed', {}],
    ['key bindings are not read', '"\\e[A": history-search-backward\nset editing-mode vi', { editingMode: 'vi' }],
    ['$if for another program is skipped', '$if Python\nset editing-mode vi\n$endif', {}],
    ['$if aish applies', '$if aish\nset editing-mode vi\n$endif', { editingMode: 'vi' }],
    ['$else of another program applies', '$if Bash\nset bell-style none\n$else\nset bell-style audible\n$endif', { bellStyle: 'audible' }],
    ['$if mode= follows the mode set before it', 'set editing-mode vi\n$if mode=vi\nset bell-style none\n$endif', { editingMode: 'vi', bellStyle: 'none' }],
    ['$if term= is taken as true', '$if term=xterm\nset completion-ignore-case on\n$endif', { completionIgnoreCase: true }],
  ];
  it.each(table)('%s', (_name, text, expected) => {
    expect(parseInputrc(text)).toEqual(expected);
  });
});
