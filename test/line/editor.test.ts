// The line editor's keys as table tests: bytes as a terminal sends them, decoded by Node's keypress
// decoding, applied in order; the expected line shows the cursor as `|`.

import { describe, expect, it } from 'vitest';
import { editKey, initialState, suggestionFor, type EditorState, type Effect } from '../../src/line/editor.js';
import { keysOf } from '../support/headless-term.js';

const C = (ch: string) => String.fromCharCode(ch.toUpperCase().charCodeAt(0) - 64);
const M = (ch: string) => `\x1b${ch}`;
const LEFT = '\x1b[D';
const RIGHT = '\x1b[C';
const UP = '\x1b[A';
const DOWN = '\x1b[B';
const HOME = '\x1b[H';
const END = '\x1b[F';
const DEL = '\x1b[3~';
const BS = '\x7f';
const ESC = '\x1b';
const PASTE = (text: string) => `\x1b[200~${text}\x1b[201~`;

interface Run {
  state: EditorState;
  effects: Effect[];
}

function run(data: string, opts: { history?: string[]; mode?: 'emacs' | 'vi'; state?: EditorState } = {}): Run {
  let state = opts.state ?? initialState({ history: opts.history ?? [], mode: opts.mode ?? 'emacs' });
  const effects: Effect[] = [];
  for (const input of keysOf(data)) {
    const step = editKey(state, input);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

/** The line with `|` where the cursor is. */
function shown(state: EditorState): string {
  return `${state.text.slice(0, state.cursor)}|${state.text.slice(state.cursor)}`;
}

describe('emacs keys', () => {
  const table: [string, string, string][] = [
    ['typing inserts at the end', 'echo hi', 'echo hi|'],
    ['a burst mid-line lands in order at the cursor', `:why abcdef${LEFT}${LEFT}${LEFT}XY`, ':why abcXY|def'],
    ['a paste lands whole at the cursor', `echo A B${LEFT}${LEFT}${PASTE('pasted ')}`, 'echo Apasted | B'],
    ['a pasted block keeps its newlines', PASTE('echo 1\necho 2'), 'echo 1\necho 2|'],
    ['a pasted CR is a newline', PASTE('a\rb'), 'a\nb|'],
    ['pasted escape sequences are not text', PASTE('a\x1b[31mb'), 'ab|'],
    ['C-a and C-e', `hello${C('a')}X${C('e')}Y`, 'XhelloY|'],
    ['Home and End', `hello${HOME}X${END}Y`, 'XhelloY|'],
    ['C-b and C-f', `abc${C('b')}${C('b')}X${C('f')}Y`, 'aXbY|c'],
    ['M-b and M-f move by words', `one two three${M('b')}${M('b')}X${M('f')}Y`, 'one XtwoY| three'],
    ['Ctrl-Left and Ctrl-Right move by words', `one two${'\x1b[1;5D'}X${'\x1b[1;5C'}Y`, 'one XtwoY|'],
    ['Backspace and Delete', `abcd${LEFT}${LEFT}${BS}${DEL}`, 'a|d'],
    ['C-h is Backspace', `abc${C('h')}`, 'ab|'],
    ['C-d deletes forward on a non-empty line', `abc${HOME}${C('d')}`, '|bc'],
    ['C-k kills to the end', `hello world${M('b')}${C('k')}`, 'hello |'],
    ['C-u kills to the start', `hello world${M('b')}${C('u')}`, '|world'],
    ['C-w kills a blank-separated word', `git commit -m x/y/z${C('w')}`, 'git commit -m |'],
    ['M-Backspace kills a word by letters', `path/to/file${M('\x7f')}`, 'path/to/|'],
    ['M-d kills the next word', `one two three${HOME}${M('d')}`, '| two three'],
    ['C-y yanks the last kill', `hello world${C('w')}${C('a')}${C('y')}`, 'world|hello '],
    ['C-w then C-y yanks that kill, not an older one', `first${C('u')}second word${C('w')}${C('y')}`, 'second word|'],
    ['kills in a row join', `a b c${C('w')}${C('w')}${C('y')}`, 'a b c|'],
    ['M-y after C-y cycles the ring', `one${C('u')}two${C('u')}${C('y')}${M('y')}`, 'one|'],
    ['M-y without a yank does nothing', `one${C('u')}x${M('y')}`, 'x|'],
    ['C-t swaps the two characters before the cursor at the end', `ab${C('t')}`, 'ba|'],
    ['C-t mid-line swaps around the cursor', `abc${LEFT}${C('t')}`, 'acb|'],
    ['C-_ undoes the last edit', `hello world${C('w')}${C('_')}`, 'hello world|'],
    ['C-_ undoes typing a word at a time', `echo one two${'\x1f'}`, 'echo one |'],
    ['C-x C-u undoes too', `abc${C('u')}${C('x')}${C('u')}`, 'abc|'],
    ['M-u, M-l, M-c change the case of the next word', `one two three${HOME}${M('u')}${M('c')}${M('l')}`, 'ONE Two three|'],
    ['a control character typed alone is not inserted', `a${C('v')}b`, 'ab|'],
    ['wide characters move a grapheme at a time', `日本${LEFT}x`, '日x|本'],
    ['an emoji with a modifier is one grapheme', `a👍🏽${LEFT}${BS}`, '|👍🏽'],
    ['Ctrl-Z does nothing to the line', `abc${C('z')}`, 'abc|'],
    ['Escape alone does nothing in emacs mode', `abc${ESC}`, 'abc|'],
  ];
  it.each(table)('%s', (_name, keys, expected) => {
    expect(shown(run(keys).state)).toBe(expected);
  });

  it('Enter submits the line as it stands', () => {
    expect(run(`echo A B${LEFT}${LEFT}${PASTE('pasted ')}\r`).effects).toEqual([{ type: 'submit', text: 'echo Apasted  B', flipped: false }]);
  });

  it('Enter inside a paste is text, not a submit', () => {
    const r = run(PASTE('one\rtwo\r'));
    expect(r.effects).toEqual([]);
    expect(r.state.text).toBe('one\ntwo\n');
  });

  it('Alt-Enter submits flipped', () => {
    expect(run(`ls\x1b\r`).effects).toEqual([{ type: 'submit', text: 'ls', flipped: true }]);
  });

  it('C-d on an empty line is the end of input; C-c interrupts; Tab completes; C-l clears', () => {
    expect(run(C('d')).effects).toEqual([{ type: 'eof' }]);
    expect(run(`ab${C('c')}`).effects).toEqual([{ type: 'interrupt' }]);
    expect(run(`ab\t`).effects).toEqual([{ type: 'complete' }]);
    expect(run(C('l')).effects).toEqual([{ type: 'clear-screen' }]);
    expect(run(`${C('x')}${C('e')}`).effects).toEqual([{ type: 'edit' }]);
    expect(run(C('r')).effects).toEqual([{ type: 'search', forward: false }]);
  });

  it('Ctrl-X then another key: that key acts alone', () => {
    expect(shown(run(`ab${C('x')}c`).state)).toBe('abc|');
  });
});

describe('history', () => {
  const history = ['git status', 'echo two', 'git log --oneline', 'ls -la'];

  it('Up and Down walk the history, newest first, and come back to the line typed', () => {
    expect(run(UP, { history }).state.text).toBe('git status');
    expect(run(`${UP}${UP}`, { history }).state.text).toBe('echo two');
    expect(run(`${UP}${UP}${DOWN}`, { history }).state.text).toBe('git status');
    expect(run(`${UP}${DOWN}`, { history }).state.text).toBe('');
    expect(run(`${C('p')}${C('p')}${C('n')}`, { history }).state.text).toBe('git status');
  });

  it('Up searches by what was typed before it (prefix search)', () => {
    expect(run(`git${UP}`, { history }).state.text).toBe('git status');
    expect(run(`git${UP}${UP}`, { history }).state.text).toBe('git log --oneline');
    expect(run(`git${UP}${UP}${UP}`, { history }).state.text).toBe('git log --oneline');
    expect(run(`git${UP}${UP}${DOWN}${DOWN}`, { history }).state.text).toBe('git');
  });

  it('past the oldest entry it rings the bell and stays', () => {
    const r = run(`${UP}${UP}${UP}${UP}${UP}`, { history });
    expect(r.state.text).toBe('ls -la');
    expect(r.effects.at(-1)).toEqual({ type: 'bell' });
  });

  it('M-. inserts the last word of the previous line; again, of the one before', () => {
    expect(shown(run(`cat ${M('.')}`, { history }).state)).toBe('cat status|');
    expect(shown(run(`cat ${M('.')}${M('.')}`, { history }).state)).toBe('cat two|');
    expect(shown(run(`cat ${M('_')}${M('_')}${M('_')}`, { history }).state)).toBe('cat --oneline|');
  });

  it('M-. keeps a quoted last word whole', () => {
    expect(run(`x ${M('.')}`, { history: ['git commit -m "fix it"'] }).state.text).toBe('x "fix it"');
  });

  it('M-< and M-> go to the oldest entry and back to the line', () => {
    expect(run(M('<'), { history }).state.text).toBe('ls -la');
    expect(run(`ab${M('<')}${M('>')}`, { history }).state.text).toBe('ab');
  });

  it('Up in a buffer of several lines moves a line up first', () => {
    const r = run(`${PASTE('for i in 1 2; do\necho $i')}${UP}`, { history });
    expect(r.state.text).toBe('for i in 1 2; do\necho $i');
    expect(r.state.cursor).toBe(7);
  });
});

describe('suggestions', () => {
  const history = ['git status --short', 'git stash pop', 'npm test'];

  it('the rest of the newest matching history line', () => {
    expect(suggestionFor(run('git st', { history }).state)).toBe('atus --short');
    expect(suggestionFor(run('npm', { history }).state)).toBe(' test');
    expect(suggestionFor(run('', { history }).state)).toBe('');
    expect(suggestionFor(run('zzz', { history }).state)).toBe('');
  });

  it('none when the cursor is not at the end', () => {
    expect(suggestionFor(run(`git st${LEFT}`, { history }).state)).toBe('');
  });

  it('Right, End and C-f at the end accept it; M-f one word', () => {
    expect(run(`git st${RIGHT}`, { history }).state.text).toBe('git status --short');
    expect(run(`git st${END}`, { history }).state.text).toBe('git status --short');
    expect(run(`git st${C('f')}`, { history }).state.text).toBe('git status --short');
    expect(run(`git st${M('f')}`, { history }).state.text).toBe('git status');
    expect(run(`git st${M('f')}${M('f')}`, { history }).state.text).toBe('git status --short');
  });
});

describe('vi mode', () => {
  const vi = (keys: string, history: string[] = []) => shown(run(keys, { mode: 'vi', history }).state);
  const table: [string, string, string][] = [
    ['insert mode types', 'echo hi', 'echo hi|'],
    ['Escape goes to command mode on the last character', `echo hi${ESC}`, 'echo h|i'],
    ['h and l move', `abc${ESC}hhl`, 'a|bc'],
    ['0 and $', `abc def${ESC}0`, '|abc def'],
    ['w and b move by words', `one two three${ESC}0ww`, 'one two |three'],
    ['e moves to a word end', `one two${ESC}0e`, 'on|e two'],
    ['x deletes under the cursor', `abc${ESC}0x`, '|bc'],
    ['dw deletes a word', `one two three${ESC}0dw`, '|two three'],
    ['d$ and D delete to the end', `one two${ESC}0wD`, 'one| '],
    ['cw changes a word', `one two${ESC}0cwXX`, 'XX| two'],
    ['dd deletes the line', `one two${ESC}dd`, '|'],
    ['cc changes the line', `one two${ESC}ccnew`, 'new|'],
    ['a counts: 2dw', `one two three${ESC}02dw`, '|three'],
    ['f finds a character', `a,b,c${ESC}0f,x`, 'a|b,c'],
    ['; repeats the find', `a,b,c${ESC}0f,;x`, 'a,b|c'],
    ['t stops before', `abc(def)${ESC}0dt(`, '|(def)'],
    ['r replaces a character', `abc${ESC}0rX`, '|Xbc'],
    ['~ toggles case', `abc${ESC}0~~`, 'AB|c'],
    ['p puts after the cursor what was deleted', `ab${ESC}0xp`, 'b|a'],
    ['u undoes', `abc${ESC}0xu`, '|abc'],
    ['I and A insert at the ends', `mid${ESC}IX${ESC}AY`, 'XmidY|'],
    ['a appends after the cursor', `ac${ESC}0ab`, 'ab|c'],
    ['S changes the whole line', `abc${ESC}Sx`, 'x|'],
    ['C-w in insert mode kills a word', `one two${C('w')}`, 'one |'],
    ['Escape and a key in the same read are Escape then the key', `abc${M('0')}`, '|abc'],
  ];
  it.each(table)('%s', (_name, keys, expected) => {
    expect(vi(keys)).toBe(expected);
  });

  it('k and j walk the history in command mode', () => {
    expect(run(`${ESC}k`, { mode: 'vi', history: ['ls -la', 'pwd'] }).state.text).toBe('ls -la');
    expect(run(`${ESC}kk`, { mode: 'vi', history: ['ls -la', 'pwd'] }).state.text).toBe('pwd');
  });

  it('Enter submits from either mode (Escape and Enter in one read too); v opens the editor', () => {
    expect(run(`ls${ESC}\r`, { mode: 'vi' }).effects).toEqual([{ type: 'submit', text: 'ls', flipped: false }]);
    expect(run(`ls${ESC}v`, { mode: 'vi' }).effects).toEqual([{ type: 'edit' }]);
  });
});
