// aish's line editor, as a pure state machine: `editKey(state, input)` applies one key (as Node's
// keypress decoding names it) and returns the next state and what the reader must do (submit the
// line, complete, open the editor...). Every key, paste and burst goes through here in order, so
// the line on the screen is always the line that runs. The keys are bash readline's and zsh's
// emacs map (emacs.ts; docs/usage.md lists them), or vi's insert and command modes (vi.ts).

import { emacsKey } from './emacs.js';
import { done, insertPasted, undoOnce } from './ops.js';
import { NONE, type EditorState, type KeyInput, type Step } from './state.js';
import { viKey } from './vi.js';

export * from './state.js';
export { insertCompletion, setText, suggestionFor } from './ops.js';

/** Applies one key. */
export function editKey(state: EditorState, input: KeyInput): Step {
  const { key } = input;
  if (key.name === 'paste-start') return done({ ...state, pasting: true });
  if (key.name === 'paste-end') return done({ ...state, pasting: false });
  if (state.pasting) return done(insertPasted(state, input));
  if (state.pending === 'ctrl-x') {
    const next = { ...state, pending: null };
    if (key.ctrl && key.name === 'e') return { state: { ...next, last: NONE }, effects: [{ type: 'edit' }] };
    if (key.ctrl && key.name === 'u') return done(undoOnce(next));
    // Ctrl-X then anything else: that key acts alone.
    return editKey(next, input);
  }
  if (state.mode !== 'emacs') return viKey(state, input);
  return emacsKey(state, input);
}

