// The one sanitizer for text from outside (a model, a tool, a server, a file, an error body):
// control characters become visible text, so nothing it says can move the cursor, clear the
// screen, set the title or the clipboard, hide a command behind overprinting, or reorder what the
// person reads. C0 controls and DEL take caret notation (`^[`, `^H`, `^?`), C1 controls `\x9b`
// notation, bidi controls `\u202e` notation. Newline and tab pass through. aish's own styling is
// added after this, never before.

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Makes every control character visible; keeps `\n` and `\t`. */
export function neutralize(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    if (code === 0x7f) return '^?';
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    if (code <= 0x9f) return `\\x${code.toString(16)}`;
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
