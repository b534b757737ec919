// vi mode for the line editor (editor.ts): insert mode is emacs's keys less Escape, which enters
// command mode; command mode has vi's motions (h l 0 ^ $ w b e W B E f F t T ; ,), operators with
// a motion or doubled (d c y), counts, and x X D C s S r ~ p P u i a I A j k v / ?. Pure.

import { emacsKey } from './emacs.js';
import { historyStep, insert, kill, undoOnce } from './ops.js';
import type { EditorState, KeyInput, Step, ViState } from './state.js';
import { lineEnd, lineStart, nextBoundary, prevBoundary } from './text.js';

const CLEAR: ViState = { count: '', operator: null, find: null };

export function viKey(state: EditorState, input: KeyInput): Step {
  const { key } = input;
  // Escape and the next key typed within Node's escape timeout come as one meta key (`\x1bh` is
  // M-h): in vi that is Escape, then the key.
  const seq = key.sequence ?? '';
  // Enter too: `\x1b\r` is Escape then Enter to a vi user, never Alt-Enter.
  if (key.meta && !key.ctrl && (key.name === 'return' || key.name === 'enter')) {
    const escaped = viKey(state, { s: undefined, key: { name: 'escape', sequence: '\x1b' } });
    return { state: escaped.state, effects: [...escaped.effects, { type: 'submit', text: escaped.state.text, flipped: false }] };
  }
  if (key.meta && !key.ctrl && seq.length === 2 && seq[0] === '\x1b' && seq[1]! >= ' ' && seq[1] !== '\x7f' && seq[1] !== '[' && seq[1] !== 'O') {
    const escaped = viKey(state, { s: undefined, key: { name: 'escape', sequence: '\x1b' } });
    const ch = seq[1]!;
    const next = viKey(escaped.state, { s: ch, key: { name: /^[a-z]$/i.test(ch) ? ch.toLowerCase() : undefined, sequence: ch, shift: /^[A-Z]$/.test(ch) } });
    return { state: next.state, effects: [...escaped.effects, ...next.effects] };
  }
  if (state.mode === 'vi-insert') {
    // A lone Escape comes after Node's escape timeout, marked meta.
    if (key.name === 'escape') {
      const start = lineStart(state.text, state.cursor);
      return done({ ...state, mode: 'vi-command', cursor: state.cursor > start ? prevBoundary(state.text, state.cursor) : state.cursor, last: { type: 'none' } });
    }
    return emacsKey(state, input);
  }
  return commandKey(state, input);
}

function done(state: EditorState): Step {
  return { state, effects: [] };
}

/** The last position the cursor may take in command mode: on the last character, not after it. */
function clampCommand(text: string, at: number): number {
  const end = lineEnd(text, at);
  const start = lineStart(text, at);
  if (at >= end && end > start) return prevBoundary(text, end);
  return at;
}

function commandKey(state: EditorState, input: KeyInput): Step {
  const { key, s } = input;
  const vi = state.vi;
  const ch = s !== undefined && !key.ctrl && !key.meta ? s : undefined;
  // The character after f F t T or r.
  if (vi.find && vi.find.char === null) {
    if (ch === undefined || key.name === 'escape') return done({ ...state, vi: CLEAR });
    if (vi.find.kind === 'r') return done(replaceChar({ ...state, vi: CLEAR }, ch, count(vi)));
    const find = { kind: vi.find.kind, char: ch };
    return motion({ ...state, vi: { ...vi, find } }, findTarget(state.text, state.cursor, find, count(vi)), find.kind === 'f' || find.kind === 't');
  }
  if (key.name === 'return' || key.name === 'enter') return { state: { ...state, vi: CLEAR }, effects: [{ type: 'submit', text: state.text, flipped: Boolean(key.meta) }] };
  if (key.name === 'escape') return done({ ...state, vi: CLEAR });
  if (key.ctrl || key.meta || ch === undefined) {
    // Arrows, Home and End move; Ctrl keys act as in emacs (Ctrl-C, Ctrl-D, Ctrl-R, Ctrl-L).
    const step = emacsKey({ ...state, vi: CLEAR }, input);
    return { ...step, state: { ...step.state, cursor: step.state.mode === 'vi-command' ? clampCommand(step.state.text, step.state.cursor) : step.state.cursor } };
  }
  if (/^[1-9]$/.test(ch) || (ch === '0' && vi.count !== '')) return done({ ...state, vi: { ...vi, count: vi.count + ch } });
  const n = count(vi);
  const { text, cursor } = state;
  switch (ch) {
    case 'h':
      return motion(state, repeat(n, cursor, (at) => Math.max(lineStart(text, cursor), prevBoundary(text, at))), false);
    case 'l':
    case ' ':
      return motion(state, repeat(n, cursor, (at) => Math.min(lineEnd(text, cursor), nextBoundary(text, at))), false);
    case '0':
      return motion(state, lineStart(text, cursor), false);
    case '^':
      return motion(state, lineStart(text, cursor) + (/^\s*/.exec(text.slice(lineStart(text, cursor)))?.[0].length ?? 0), false);
    case '$':
      return motion(state, lineEnd(text, cursor), true);
    case 'w':
    case 'W':
      // `cw` changes to the end of the word, as vi does.
      if (vi.operator === 'c') return motion(state, repeat(n, cursor, (at) => viWordEnd(text, at, ch === 'W')), true);
      return motion(state, repeat(n, cursor, (at) => viNextWord(text, at, ch === 'W')), false);
    case 'b':
    case 'B':
      return motion(state, repeat(n, cursor, (at) => viPrevWord(text, at, ch === 'B')), false);
    case 'e':
    case 'E':
      return motion(state, repeat(n, cursor, (at) => viWordEnd(text, at, ch === 'E')), true);
    case 'f':
    case 'F':
    case 't':
    case 'T':
      return done({ ...state, vi: { ...vi, find: { kind: ch, char: null } } });
    case ';':
    case ',': {
      const last = state.vi.find;
      if (!last || last.char === null || last.kind === 'r') return done({ ...state, vi: CLEAR });
      const kind = ch === ';' ? last.kind : ({ f: 'F', F: 'f', t: 'T', T: 't' } as const)[last.kind];
      return motion(state, findTarget(text, cursor, { kind, char: last.char }, n), kind === 'f' || kind === 't');
    }
    case 'd':
    case 'c':
    case 'y':
      if (vi.operator === ch) return lineOperator(state, ch);
      if (vi.operator) return done({ ...state, vi: CLEAR });
      return done({ ...state, vi: { ...vi, operator: ch } });
  }
  // Commands that do not take a motion; an operator waiting is dropped.
  const plain = { ...state, vi: { ...CLEAR, find: vi.find } };
  switch (ch) {
    case 'x': {
      const end = Math.min(lineEnd(text, cursor), repeat(n, cursor, (at) => nextBoundary(text, at)));
      return done(fix(kill({ ...plain, last: { type: 'none' } }, cursor, end, false)));
    }
    case 'X': {
      const start = Math.max(lineStart(text, cursor), repeat(n, cursor, (at) => prevBoundary(text, at)));
      return done(fix(kill({ ...plain, last: { type: 'none' } }, start, cursor, true)));
    }
    case 'D':
      return done(fix(kill({ ...plain, last: { type: 'none' } }, cursor, lineEnd(text, cursor), false)));
    case 'C':
      return done({ ...kill({ ...plain, last: { type: 'none' } }, cursor, lineEnd(text, cursor), false), mode: 'vi-insert' });
    case 's': {
      const end = Math.min(lineEnd(text, cursor), repeat(n, cursor, (at) => nextBoundary(text, at)));
      return done({ ...kill({ ...plain, last: { type: 'none' } }, cursor, end, false), mode: 'vi-insert' });
    }
    case 'S':
      return lineOperator(plain, 'c');
    case 'r':
      return done({ ...plain, vi: { ...CLEAR, find: { kind: 'r', char: null } } });
    case '~':
      return done(toggleCase(plain, n));
    case 'p':
    case 'P':
      return done(put(plain, ch === 'p', n));
    case 'u':
      return done(fix(undoOnce(plain)));
    case 'i':
      return done({ ...plain, mode: 'vi-insert', last: { type: 'none' } });
    case 'a':
      return done({ ...plain, mode: 'vi-insert', cursor: Math.min(lineEnd(text, cursor), nextBoundary(text, cursor)), last: { type: 'none' } });
    case 'I':
      return done({ ...plain, mode: 'vi-insert', cursor: lineStart(text, cursor), last: { type: 'none' } });
    case 'A':
      return done({ ...plain, mode: 'vi-insert', cursor: lineEnd(text, cursor), last: { type: 'none' } });
    case 'k':
    case 'j': {
      const step = historyStep(plain, ch === 'k' ? 1 : -1);
      return { ...step, state: { ...step.state, cursor: lineStart(step.state.text, step.state.text.length) } };
    }
    case 'v':
      return { state: plain, effects: [{ type: 'edit' }] };
    case '/':
    case '?':
      return { state: plain, effects: [{ type: 'search', forward: false }] };
  }
  return { state: plain, effects: [{ type: 'bell' }] };
}

function count(vi: ViState): number {
  return vi.count === '' ? 1 : Math.min(Number(vi.count), 1000);
}

function repeat(n: number, from: number, step: (at: number) => number): number {
  let at = from;
  for (let i = 0; i < n; i++) at = step(at);
  return at;
}

/**
 * A motion to `target`: the cursor moves, or the waiting operator acts on the text between.
 * `inclusive` motions (e, $, f, t) take the character under the target too.
 */
function motion(state: EditorState, target: number, inclusive: boolean): Step {
  const { text, cursor, vi } = state;
  if (!vi.operator) return done({ ...state, cursor: clampCommand(text, target), vi: { ...CLEAR, find: vi.find } });
  let from = Math.min(cursor, target);
  let to = Math.max(cursor, target);
  if (inclusive && target >= cursor) to = Math.min(lineEnd(text, to), nextBoundary(text, to));
  if (to > lineEnd(text, cursor) && vi.operator !== 'y') to = Math.max(to, from);
  const cleared = { ...state, vi: { ...CLEAR, find: vi.find }, last: { type: 'none' as const } };
  if (vi.operator === 'y') {
    const kills = [...state.kills, text.slice(from, to)];
    return done({ ...cleared, kills, cursor: clampCommand(text, from) });
  }
  if (from === to) return done({ ...cleared, mode: vi.operator === 'c' ? 'vi-insert' : state.mode });
  from = Math.max(from, 0);
  const killed = kill(cleared, from, to, false);
  return done(vi.operator === 'c' ? { ...killed, mode: 'vi-insert' } : fix(killed));
}

/** dd, cc, yy (and S): the whole logical line. */
function lineOperator(state: EditorState, op: 'd' | 'c' | 'y'): Step {
  const start = lineStart(state.text, state.cursor);
  const end = lineEnd(state.text, state.cursor);
  const cleared = { ...state, vi: CLEAR, last: { type: 'none' as const } };
  if (op === 'y') return done({ ...cleared, kills: [...state.kills, state.text.slice(start, end)] });
  const killed = kill(cleared, start, end, false);
  return done(op === 'c' ? { ...killed, mode: 'vi-insert' } : fix(killed));
}

/** Keeps the cursor on a character in command mode. */
function fix(state: EditorState): EditorState {
  return state.mode === 'vi-command' ? { ...state, cursor: clampCommand(state.text, state.cursor) } : state;
}

function put(state: EditorState, after: boolean, n: number): EditorState {
  const text = state.kills.at(-1);
  if (text === undefined) return state;
  const at = after && state.text !== '' ? Math.min(lineEnd(state.text, state.cursor), nextBoundary(state.text, state.cursor)) : state.cursor;
  const inserted = insert({ ...state, cursor: at, last: { type: 'none' } }, text.repeat(n));
  return { ...inserted, cursor: Math.max(at, inserted.cursor - 1), last: { type: 'none' } };
}

function replaceChar(state: EditorState, ch: string, n: number): EditorState {
  const { text, cursor } = state;
  const end = repeat(n, cursor, (at) => nextBoundary(text, at));
  if (end > lineEnd(text, cursor) || end === cursor) return state;
  const undo = [...state.undo, { text, cursor }];
  return { ...state, undo, text: text.slice(0, cursor) + ch.repeat(n) + text.slice(end), cursor: prevBoundary(text.slice(0, cursor) + ch.repeat(n), cursor + ch.length * n), last: { type: 'none' } };
}

function toggleCase(state: EditorState, n: number): EditorState {
  const { text, cursor } = state;
  const end = Math.min(lineEnd(text, cursor), repeat(n, cursor, (at) => nextBoundary(text, at)));
  if (end === cursor) return state;
  const part = [...text.slice(cursor, end)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  const undo = [...state.undo, { text, cursor }];
  return fix({ ...state, undo, text: text.slice(0, cursor) + part + text.slice(end), cursor: end, last: { type: 'none' } });
}

/** vi's character classes: blanks, word characters, and the rest (punctuation). */
function classOf(c: string | undefined, big: boolean): 0 | 1 | 2 {
  if (c === undefined || /\s/.test(c)) return 0;
  if (big) return 1;
  return /[\p{L}\p{N}_]/u.test(c) ? 1 : 2;
}

function viNextWord(text: string, at: number, big: boolean): number {
  const end = text.length;
  let i = at;
  const cls = classOf(text[i], big);
  if (cls !== 0) while (i < end && classOf(text[i], big) === cls) i++;
  while (i < end && classOf(text[i], big) === 0 && text[i] !== '\n') i++;
  return i;
}

function viPrevWord(text: string, at: number, big: boolean): number {
  let i = at;
  while (i > 0 && classOf(text[i - 1], big) === 0) i--;
  const cls = classOf(text[i - 1], big);
  while (i > 0 && classOf(text[i - 1], big) === cls && cls !== 0) i--;
  return i;
}

function viWordEnd(text: string, at: number, big: boolean): number {
  let i = at + 1;
  while (i < text.length && classOf(text[i], big) === 0) i++;
  const cls = classOf(text[i], big);
  while (i + 1 < text.length && classOf(text[i + 1], big) === cls) i++;
  return Math.min(i, text.length);
}

function findTarget(text: string, at: number, find: { kind: 'f' | 'F' | 't' | 'T'; char: string }, n: number): number {
  const start = lineStart(text, at);
  const end = lineEnd(text, at);
  let i = at;
  for (let k = 0; k < n; k++) {
    if (find.kind === 'f' || find.kind === 't') {
      const from = find.kind === 't' && k === 0 ? i + 2 : i + 1;
      const j = text.indexOf(find.char, from);
      if (j === -1 || j >= end) return at;
      i = j;
    } else {
      const from = find.kind === 'T' && k === 0 ? i - 2 : i - 1;
      const j = from < 0 ? -1 : text.lastIndexOf(find.char, from);
      if (j === -1 || j < start) return at;
      i = j;
    }
  }
  if (find.kind === 't') return Math.max(at, i - 1);
  if (find.kind === 'T') return Math.min(at, i + 1);
  return i;
}
