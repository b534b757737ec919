// The emacs key map of bash's readline and zsh: movement by character, word and line, the kill
// ring, undo, `M-.`, history by prefix, Tab, Ctrl-R, Ctrl-X Ctrl-E. vi's insert mode uses these
// too. Pure.

import { changeCase, deleteRange, done, downKey, endOfLine, forwardChar, forwardWord, historyStep, historyTo, insert, isText, kill, moved, submit, transpose, undoOnce, upKey, yank, yankLastArg, yankPop } from './ops.js';
import { NONE, type EditorState, type KeyInput, type Step } from './state.js';
import { bigWordStart, lineEnd, lineStart, nextBoundary, prevBoundary, wordEnd, wordStart } from './text.js';

/** A key in emacs mode (vi's insert mode uses these too, less the ones vi gives another meaning). */
export function emacsKey(state: EditorState, input: KeyInput): Step {
  const { key, s } = input;
  const name = key.name;
  const seq = key.sequence ?? s ?? '';
  if (key.ctrl && !key.meta) {
    switch (name) {
      case 'a':
        return moved(state, lineStart(state.text, state.cursor));
      case 'e':
        return endOfLine(state);
      case 'b':
        return moved(state, prevBoundary(state.text, state.cursor));
      case 'f':
        return forwardChar(state);
      case 'd':
        if (state.text === '') return { state, effects: [{ type: 'eof' }] };
        return done(deleteRange(state, state.cursor, nextBoundary(state.text, state.cursor)));
      case 'h':
        return done(deleteRange(state, prevBoundary(state.text, state.cursor), state.cursor));
      case 'k':
        return done(kill(state, state.cursor, lineEnd(state.text, state.cursor) === state.cursor && state.cursor < state.text.length ? state.cursor + 1 : lineEnd(state.text, state.cursor), false));
      case 'u':
        return done(kill(state, lineStart(state.text, state.cursor), state.cursor, true));
      case 'w':
        return done(kill(state, bigWordStart(state.text, state.cursor), state.cursor, true));
      case 'y':
        return done(yank(state));
      case 't':
        return done(transpose(state));
      case 'l':
        return { state: { ...state, last: NONE }, effects: [{ type: 'clear-screen' }] };
      case 'c':
        return { state: { ...state, last: NONE, pending: null }, effects: [{ type: 'interrupt' }] };
      case 'r':
      case 's':
        return { state: { ...state, last: NONE }, effects: [{ type: 'search', forward: name === 's' }] };
      case 'p':
        return historyStep(state, 1);
      case 'n':
        return historyStep(state, -1);
      case 'x':
        return done({ ...state, pending: 'ctrl-x' });
      case 'g':
        return { state: { ...state, last: NONE }, effects: [{ type: 'bell' }] };
      case 'z':
        // Ctrl-Z at the prompt stops nothing (bash ignores it too): there is no job to stop.
        return { state, effects: [] };
      case 'left':
        return moved(state, wordStart(state.text, state.cursor));
      case 'right':
        return forwardWord(state);
      case 'j':
      case 'm':
        return submit(state, false);
    }
  }
  if (seq === '\x1f' || (key.ctrl && name === '_') || (key.ctrl && key.shift && name === '-')) return done(undoOnce(state));
  if (key.meta && !key.ctrl) {
    switch (name) {
      case 'b':
      case 'left':
        return moved(state, wordStart(state.text, state.cursor));
      case 'f':
      case 'right':
        return forwardWord(state);
      case 'd':
        return done(kill(state, state.cursor, wordEnd(state.text, state.cursor), false));
      case 'backspace':
        return done(kill(state, wordStart(state.text, state.cursor), state.cursor, true));
      case 'y':
        return done(yankPop(state));
      case 'u':
      case 'l':
      case 'c':
        return done(changeCase(state, name));
      case 'return':
      case 'enter':
        return submit(state, true);
    }
    if (seq === '\x1b.' || seq === '\x1b_') return done(yankLastArg(state));
    if (seq === '\x1b<') return historyTo(state, state.history.length - 1);
    if (seq === '\x1b>') return historyTo(state, -1);
    return { state, effects: [] };
  }
  switch (name) {
    case 'return':
    case 'enter':
      return submit(state, false);
    case 'backspace':
      return done(deleteRange(state, prevBoundary(state.text, state.cursor), state.cursor));
    case 'delete':
      return done(deleteRange(state, state.cursor, nextBoundary(state.text, state.cursor)));
    case 'left':
      return moved(state, prevBoundary(state.text, state.cursor));
    case 'right':
      return forwardChar(state);
    case 'home':
      return moved(state, lineStart(state.text, state.cursor));
    case 'end':
      return endOfLine(state);
    case 'up':
      return upKey(state);
    case 'down':
      return downKey(state);
    case 'tab':
      return { state: { ...state, last: NONE }, effects: [{ type: 'complete' }] };
    case 'escape':
      return { state, effects: [] };
  }
  if (s !== undefined && !key.ctrl && !key.meta && isText(s)) return done(insert(state, s));
  return { state, effects: [] };
}

