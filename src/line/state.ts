// The line editor's state: everything the keys act on (the buffer and the cursor, the mode, the
// kill ring, the undo list, the history and where in it the line is, and what the last key did:
// kills in a row join, `M-y` follows `C-y`, `M-.` repeated goes further back), and what the reader
// does after a key. Pure data; editor.ts applies keys to it.

/** A key as node:readline's `emitKeypressEvents` reports it. */
export interface KeyName {
  name?: string | undefined;
  ctrl?: boolean | undefined;
  meta?: boolean | undefined;
  shift?: boolean | undefined;
  sequence?: string | undefined;
}

/** One key: its text (undefined for a meta or special key) and its name. */
export interface KeyInput {
  s: string | undefined;
  key: KeyName;
}

export type EditMode = 'emacs' | 'vi-insert' | 'vi-command';

/** What the reader does after a key. */
export type Effect =
  /** Enter: the line as it stands; `flipped` for Alt-Enter (send it the other way). */
  | { type: 'submit'; text: string; flipped: boolean }
  /** Ctrl-D on an empty line. */
  | { type: 'eof' }
  /** Ctrl-C. */
  | { type: 'interrupt' }
  | { type: 'clear-screen' }
  /** Tab: the reader asks the completer, then calls `insertCompletion`. */
  | { type: 'complete' }
  /** Ctrl-X Ctrl-E (vi: `v`): the line in $VISUAL/$EDITOR. */
  | { type: 'edit' }
  /** Ctrl-R / Ctrl-S: an incremental history search (the reader runs it). */
  | { type: 'search'; forward: boolean }
  | { type: 'bell' };

export interface EditorState {
  readonly text: string;
  /** An index into `text`, always on a grapheme boundary. */
  readonly cursor: number;
  readonly mode: EditMode;
  /** Killed text, newest last; `C-y` yanks `kills[yankIndex]`. */
  readonly kills: readonly string[];
  /** Earlier states of the line, newest last (`C-_`, vi `u`). */
  readonly undo: readonly { text: string; cursor: number }[];
  /** The history, newest first, and the entry shown (-1: the line being typed, kept in `draft`). */
  readonly history: readonly string[];
  readonly historyIndex: number;
  readonly draft: string;
  /** What Up searched for: the line as typed when Up was first pressed. */
  readonly historyPrefix: string;
  /** What the previous key did, for the keys that continue it. */
  readonly last: LastAction;
  /** Inside a bracketed paste: every character is text. */
  readonly pasting: boolean;
  /** A prefix key waiting for the next key (Ctrl-X). */
  readonly pending: 'ctrl-x' | null;
  /** vi command mode's half-typed command (an operator, a count). */
  readonly vi: ViState;
}

export interface ViState {
  /** Digits typed before a command. */
  readonly count: string;
  /** An operator waiting for its motion. */
  readonly operator: 'd' | 'c' | 'y' | null;
  /** The last f/F/t/T (for `;` and `,`), or the one (or r) whose character is still to come. */
  readonly find: { kind: 'f' | 'F' | 't' | 'T' | 'r'; char: string | null } | null;
}


/** What the previous key did. */
export type LastAction =
  | { type: 'none' }
  | { type: 'insert' }
  | { type: 'kill'; backward: boolean }
  | { type: 'yank'; start: number; end: number; index: number }
  | { type: 'last-arg'; start: number; end: number; back: number }
  | { type: 'history' };

export const NONE: LastAction = { type: 'none' };

export interface Step {
  state: EditorState;
  effects: Effect[];
}

export function initialState(opts: { history?: readonly string[]; mode?: 'emacs' | 'vi'; text?: string } = {}): EditorState {
  const text = opts.text ?? '';
  return {
    text,
    cursor: text.length,
    mode: opts.mode === 'vi' ? 'vi-insert' : 'emacs',
    kills: [],
    undo: [],
    history: opts.history ?? [],
    historyIndex: -1,
    draft: '',
    historyPrefix: '',
    last: NONE,
    pasting: false,
    pending: null,
    vi: { count: '', operator: null, find: null },
  };
}

/** A fresh line in the same session: the kill ring, the mode and the history stay. */
export function newLine(state: EditorState, opts: { history?: readonly string[]; text?: string; mode?: 'emacs' | 'vi' } = {}): EditorState {
  const text = opts.text ?? '';
  const mode = opts.mode ? (opts.mode === 'vi' ? 'vi-insert' : 'emacs') : state.mode === 'emacs' ? 'emacs' : 'vi-insert';
  return { ...initialState({ history: opts.history ?? state.history, text }), kills: state.kills, mode };
}

