// One-key answers (a question on a terminal, SPEC "questions that say what they ask"): which keys
// of one read answer a question, what it says when they do not, and raw terminal input read as
// such keys where no line editor exists yet (the start-up trust question). Pure.

/** A keypress as node:readline's `emitKeypressEvents` reports it. */
export interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
  sequence?: string;
}

/** One key of a read: its text, its name, and whether it came inside a bracketed paste. */
export interface KeyPress {
  s: string | undefined;
  key: Key | undefined;
  pasted: boolean;
}

/**
 * The answer in the keys of one read, or null when they are not one: a key of `keys` alone or
 * followed by Enter (a person used to lines), or Enter alone for the fallback. Several keys at
 * once (typed ahead, pasted) are not an answer: `yes, and explain` must not say yes.
 */
export function answerOf(burst: readonly KeyPress[], keys: string, fallback: string): string | null {
  if (burst.some((k) => k.pasted)) return null;
  const isEnter = (k: Key | undefined) => k?.name === 'return' || k?.name === 'enter';
  const [first, second] = burst;
  if (!first || burst.length > 2) return null;
  if (isEnter(first.key)) return burst.length === 1 ? fallback : null;
  if (second && !isEnter(second.key)) return null;
  if (first.key?.ctrl || first.key?.meta || first.s === undefined || [...first.s].length !== 1) return null;
  const key = first.s.toLowerCase();
  return keys.includes(key) ? key : null;
}

/**
 * What a question says when the key was not an answer: `(one key: y, n or e; Enter: n)`; a
 * fallback of no key ('', a form field whose question says what Enter does) is `(one key: y or n, or Enter)`.
 */
export function keysHint(keys: string, fallback: string): string {
  const list = [...keys];
  const named = list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list.at(-1)}` : list.join('');
  return fallback === '' ? `(one key: ${named}, or Enter)` : `(one key: ${named}; Enter: ${fallback})`;
}

/**
 * The keys in a chunk of raw terminal input (raw mode, no line editor): Enter as `return`, a
 * control character as a control key (Ctrl-C is `c` with ctrl), an escape sequence as one
 * `escape` key with its bytes, anything else as itself.
 */
export function keysOfChunk(chunk: string): KeyPress[] {
  const keys: KeyPress[] = [];
  for (const m of chunk.matchAll(/\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?|[^]/gu)) {
    const s = m[0];
    let key: Key;
    if (s === '\r' || s === '\n') key = { name: 'return', sequence: s };
    else if (s.startsWith('\x1b')) key = { name: 'escape', sequence: s, meta: s.length > 1 };
    else if (s < ' ' || s === '\x7f') key = { name: s === '\x7f' ? 'backspace' : String.fromCharCode(s.charCodeAt(0) + 96), ctrl: true, sequence: s };
    else key = { name: s.toLowerCase(), sequence: s };
    keys.push({ s, key, pasted: false });
  }
  return keys;
}
