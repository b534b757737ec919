// The one sanitizer for text from outside (a model, a tool, a server, a file, an error body):
// control characters become visible text, so nothing it says can move the cursor, clear the
// screen, set the title or the clipboard, hide a command behind overprinting, or reorder what the
// person reads. C0 controls and DEL take caret notation (`^[`, `^H`, `^?`), C1 controls `\x9b`
// notation, bidi controls `\u202e` notation, invisible format characters (zero-width space, word
// joiner, soft hyphen, BOM, tag characters) `<U+200B>` tokens. Newline and tab pass through.
// aish's own styling is added after this, never before.

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\u00ad\u180e\u200b\u2060-\u2064\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/gu;

/**
 * Characters that take no room on the screen but change what text means: a zero-width space
 * inside a word, a word joiner, a soft hyphen, a BOM, the interlinear annotation marks and the
 * tag characters (U+E0000–E007F, which can spell out hidden ASCII). Zero-width joiner and
 * non-joiner (U+200C, U+200D) are not among them: emoji and some scripts need them in prose;
 * a question's command shows them too (render/question.ts).
 */
export function isInvisible(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return code === 0xad || code === 0x180e || code === 0x200b || (code >= 0x2060 && code <= 0x2064) || code === 0xfeff || (code >= 0xfff9 && code <= 0xfffb) || (code >= 0xe0000 && code <= 0xe007f);
}

/** `<U+200B>`: how an invisible character is shown. */
export function codePointToken(ch: string): string {
  return `<U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Whether `text` has nothing `neutralize` would change but newlines and tabs (safe to type back as it is). */
export function isClean(text: string): boolean {
  return text.search(UNSAFE) === -1;
}

/** Makes every control and invisible format character visible; keeps `\n` and `\t`. */
export function neutralize(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    const code = ch.codePointAt(0)!;
    if (code === 0x7f) return '^?';
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    if (code <= 0x9f) return `\\x${code.toString(16)}`;
    if (isInvisible(ch)) return codePointToken(ch);
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

// What JSON.stringify leaves raw that a terminal acts on or a line reader splits at: DEL, C1, the
// bidi controls, the invisible format characters, and the line and paragraph separators.
const UNSAFE_IN_JSON = new RegExp(`${UNSAFE.source}|[\\u2028\\u2029]`, 'gu');

/**
 * `value` as one line of JSON that is safe on a terminal: JSON.stringify escapes C0 controls and
 * newlines; every other character `neutralize` would make visible is escaped as `\uXXXX` too, so
 * a parser gets the text back exactly and a terminal that shows the line acts on nothing in it.
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_JSON, (ch) => {
    let out = '';
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
