// What the line editor's keys do to its state: insert, kill and yank through the ring, undo,
// transpose, change case, move through the history by prefix, take a suggestion or a completion.
// Shared by the emacs and vi key maps. Pure.

import { NONE, type EditorState, type KeyInput, type Step } from './state.js';
import { lastArgument, lineEnd, lineStart, nextBoundary, prevBoundary, wordEnd } from './text.js';

/** How many kills the ring keeps (readline keeps 10 by default... and emacs 120; bash's is unbounded). */
const KILL_RING_SIZE = 60;
const UNDO_SIZE = 200;

/** The suggestion for a line: the rest of the newest history entry that starts with it. */
export function suggestionFor(state: EditorState): string {
  const { text, cursor } = state;
  if (text === '' || cursor !== text.length || text.includes('\n') || state.historyIndex !== -1) return '';
  const at = suggestionIndex(state.history, text);
  return at === -1 ? '' : state.history[at]!.slice(text.length);
}

/**
 * The last answer of `suggestionIndex` for a history (by identity and length): a line that only
 * grew starts its search where the shorter line's match was, since no newer entry can match the
 * longer line; the same line asked again (a redraw) is answered at once. Module state on purpose:
 * a cache of a pure function's last answer, keyed by its arguments.
 */
let lastSuggestion: { history: readonly string[]; length: number; first: string | undefined; text: string; at: number } | null = null;

/** The index of the newest entry that continues `text` (longer, one line), or -1. */
function suggestionIndex(history: readonly string[], text: string): number {
  const last = lastSuggestion;
  const same = last !== null && last.history === history && last.length === history.length && last.first === history[0];
  if (same && last.text === text) return last.at;
  let from = 0;
  if (same && text.startsWith(last.text)) {
    if (last.at === -1) return remember(history, text, -1);
    from = last.at;
  }
  for (let i = from; i < history.length; i++) {
    const entry = history[i]!;
    if (entry.length > text.length && entry.startsWith(text) && !entry.includes('\n')) return remember(history, text, i);
  }
  return remember(history, text, -1);
}

function remember(history: readonly string[], text: string, at: number): number {
  lastSuggestion = { history, length: history.length, first: history[0], text, at };
  return at;
}

/** Whether a key's text is printable (a control character typed alone is not inserted). */
export function isText(s: string): boolean {
  return s.length > 0 && !/[\x00-\x1f\x7f-\x9f]/.test(s);
}

export function done(state: EditorState): Step {
  return { state, effects: [] };
}

export function submit(state: EditorState, flipped: boolean): Step {
  return { state: { ...state, last: NONE }, effects: [{ type: 'submit', text: state.text, flipped }] };
}

export function moved(state: EditorState, cursor: number): Step {
  return done({ ...state, cursor, last: NONE });
}

/** Saves the line for undo; a run of typed characters is one step. */
export function withUndo(state: EditorState, grouped = false): EditorState {
  if (grouped && state.last.type === 'insert') return state;
  const undo = [...state.undo, { text: state.text, cursor: state.cursor }];
  if (undo.length > UNDO_SIZE) undo.shift();
  return { ...state, undo };
}

export function insert(state: EditorState, text: string): EditorState {
  // Typing is undone a word at a time: a word begins a new step.
  const wordStarts = /\S/.test(text) && /\s/.test(state.text[state.cursor - 1] ?? '');
  const before = withUndo(state, text.length === 1 && !wordStarts);
  const { cursor } = state;
  return { ...before, text: state.text.slice(0, cursor) + text + state.text.slice(cursor), cursor: cursor + text.length, last: { type: 'insert' } };
}

/** A pasted key: text goes in as it is, a newline as a newline, other control characters not at all. */
export function insertPasted(state: EditorState, input: KeyInput): EditorState {
  const { key, s } = input;
  if (key.name === 'return' || key.name === 'enter') return insert({ ...state, last: { type: 'none' } }, '\n');
  if (key.name === 'tab') return insert(state, '\t');
  const text = s ?? '';
  if (!isText(text)) return state;
  return insert(state, text);
}

export function deleteRange(state: EditorState, from: number, to: number): EditorState {
  if (from >= to) return { ...state, last: NONE };
  return { ...withUndo(state), text: state.text.slice(0, from) + state.text.slice(to), cursor: from, last: NONE };
}

/** Kills `from`..`to` into the ring; kills in a row join into one entry. */
export function kill(state: EditorState, from: number, to: number, backward: boolean): EditorState {
  if (from >= to) return { ...state, last: { type: 'kill', backward } };
  const killed = state.text.slice(from, to);
  let kills = [...state.kills];
  if (state.last.type === 'kill' && kills.length > 0) kills[kills.length - 1] = backward ? killed + kills.at(-1)! : kills.at(-1)! + killed;
  else kills.push(killed);
  if (kills.length > KILL_RING_SIZE) kills = kills.slice(-KILL_RING_SIZE);
  return { ...withUndo(state), text: state.text.slice(0, from) + state.text.slice(to), cursor: from, kills, last: { type: 'kill', backward } };
}

export function yank(state: EditorState): EditorState {
  const text = state.kills.at(-1);
  if (text === undefined) return { ...state, last: NONE };
  const start = state.cursor;
  const next = insert({ ...state, last: NONE }, text);
  return { ...next, last: { type: 'yank', start, end: start + text.length, index: state.kills.length - 1 } };
}

/** `M-y` after a yank: the yanked text becomes the kill before it in the ring. */
export function yankPop(state: EditorState): EditorState {
  const last = state.last;
  if (last.type !== 'yank' || state.kills.length < 2) return state;
  const index = (last.index - 1 + state.kills.length) % state.kills.length;
  const text = state.kills[index]!;
  const replaced = state.text.slice(0, last.start) + text + state.text.slice(last.end);
  return { ...state, text: replaced, cursor: last.start + text.length, last: { type: 'yank', start: last.start, end: last.start + text.length, index } };
}

/** `M-.`: the last word of the previous history line; again, of the one before. */
export function yankLastArg(state: EditorState): EditorState {
  const last = state.last;
  const back = last.type === 'last-arg' ? last.back + 1 : 0;
  const base = last.type === 'last-arg' ? { ...state, text: state.text.slice(0, last.start) + state.text.slice(last.end), cursor: last.start } : withUndo(state);
  let index = back;
  let word = '';
  for (; index < state.history.length; index++) {
    word = lastArgument(state.history[index]!);
    if (word !== '') break;
  }
  if (word === '') return last.type === 'last-arg' ? state : { ...state, last: NONE };
  const start = base.cursor;
  return {
    ...base,
    text: base.text.slice(0, start) + word + base.text.slice(start),
    cursor: start + word.length,
    last: { type: 'last-arg', start, end: start + word.length, back: index },
  };
}

export function transpose(state: EditorState): EditorState {
  const { text } = state;
  let at = state.cursor;
  if (text.length < 2 || at === 0) return { ...state, last: NONE };
  // At the end of the line, the two characters before the cursor swap (as in bash).
  if (at >= lineEnd(text, at)) at = prevBoundary(text, at);
  const a = prevBoundary(text, at);
  const b = nextBoundary(text, at);
  if (a === at) return { ...state, last: NONE };
  const swapped = text.slice(0, a) + text.slice(at, b) + text.slice(a, at) + text.slice(b);
  return { ...withUndo(state), text: swapped, cursor: b, last: NONE };
}

export function changeCase(state: EditorState, how: 'u' | 'l' | 'c'): EditorState {
  const { text, cursor } = state;
  const end = wordEnd(text, cursor);
  if (end === cursor) return state;
  const word = text.slice(cursor, end);
  const start = word.search(/[\p{L}\p{N}_]/u);
  const changed =
    how === 'u' ? word.toUpperCase() : how === 'l' ? word.toLowerCase() : word.slice(0, start) + word.charAt(start).toUpperCase() + word.slice(start + 1).toLowerCase();
  return { ...withUndo(state), text: text.slice(0, cursor) + changed + text.slice(end), cursor: end, last: NONE };
}

export function undoOnce(state: EditorState): EditorState {
  const previous = state.undo.at(-1);
  if (!previous) return { ...state, last: NONE };
  return { ...state, text: previous.text, cursor: previous.cursor, undo: state.undo.slice(0, -1), last: NONE };
}

/** Right, `C-f`: a character forward, or at the end of the line the whole suggestion. */
export function forwardChar(state: EditorState): Step {
  const suggestion = suggestionFor(state);
  if (suggestion) return done(insert({ ...state, last: NONE }, suggestion));
  return moved(state, nextBoundary(state.text, state.cursor));
}

/** `M-f`: a word forward, or at the end of the line the suggestion's next word. */
export function forwardWord(state: EditorState): Step {
  const suggestion = suggestionFor(state);
  if (suggestion) {
    const end = wordEnd(suggestion, 0);
    return done(insert({ ...state, last: NONE }, suggestion.slice(0, end || suggestion.length)));
  }
  return moved(state, wordEnd(state.text, state.cursor));
}

export function endOfLine(state: EditorState): Step {
  const suggestion = suggestionFor(state);
  if (suggestion) return done(insert({ ...state, last: NONE }, suggestion));
  return moved(state, lineEnd(state.text, state.cursor));
}

/** Up: a line up in a buffer of several lines, else an older history entry starting as the line did. */
export function upKey(state: EditorState): Step {
  const start = lineStart(state.text, state.cursor);
  if (start > 0) {
    const prevStart = lineStart(state.text, start - 1);
    return moved(state, Math.min(prevStart + (state.cursor - start), start - 1));
  }
  return historyStep(state, 1);
}

export function downKey(state: EditorState): Step {
  const end = lineEnd(state.text, state.cursor);
  if (end < state.text.length) {
    const column = state.cursor - lineStart(state.text, state.cursor);
    const nextStart = end + 1;
    return moved(state, Math.min(nextStart + column, lineEnd(state.text, nextStart)));
  }
  return historyStep(state, -1);
}

/**
 * Moves `delta` entries through the history (1: older), among the entries that start with what
 * was typed before the first Up (prefix search, as fish and zsh's up-line-or-beginning-search).
 */
export function historyStep(state: EditorState, delta: 1 | -1): Step {
  const browsing = state.last.type === 'history' || state.historyIndex !== -1;
  const prefix = browsing ? state.historyPrefix : state.text;
  const draft = state.historyIndex === -1 ? state.text : state.draft;
  let i = state.historyIndex;
  for (;;) {
    i += delta;
    if (i < -1 || i >= state.history.length) return { state: { ...state, last: { type: 'history' } }, effects: [{ type: 'bell' }] };
    if (i === -1) break;
    const entry = state.history[i]!;
    if (entry.startsWith(prefix) && entry !== state.text) break;
  }
  return historyTo({ ...state, historyPrefix: prefix, draft }, i);
}

export function historyTo(state: EditorState, index: number): Step {
  const draft = state.historyIndex === -1 ? state.text : state.draft;
  const text = index === -1 ? draft : state.history[index] ?? state.text;
  return done({ ...state, text, cursor: text.length, historyIndex: index, draft, last: { type: 'history' }, undo: [] });
}

/** A Tab's answer: `replaced` (the end of the text before the cursor) becomes `by`. */
export function insertCompletion(state: EditorState, replaced: string, by: string): EditorState {
  const before = state.text.slice(0, state.cursor);
  if (!before.endsWith(replaced)) return state;
  const from = state.cursor - replaced.length;
  return { ...withUndo(state), text: before.slice(0, from) + by + state.text.slice(state.cursor), cursor: from + by.length, last: NONE };
}

/** Sets the line (a history search's match, the editor's text). */
export function setText(state: EditorState, text: string, cursor = text.length): EditorState {
  return { ...withUndo(state), text, cursor: Math.max(0, Math.min(cursor, text.length)), last: NONE };
}
