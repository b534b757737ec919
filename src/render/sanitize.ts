// Neutralises terminal control sequences in text that came from a model, a tool or a file, so it
// cannot move the cursor, change the title or the colours: ESC and other C0/C1 controls become
// visible `^[`-style text. Newline and tab pass through.

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g;

/** Makes control characters visible (`\x1b` → `^[`, `\x9b` → `<9b>`); keeps `\n` and `\t`. */
export function neutralize(text: string): string {
  return text.replace(CONTROL, (ch) => {
    const code = ch.charCodeAt(0);
    if (code === 0x7f) return '^?';
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    return `<${code.toString(16)}>`;
  });
}
