// Positions in the line being edited: graphemes (a cursor never splits an emoji or a letter and its
// accent), words as bash's readline sees them (letters and digits; `C-w` uses blanks instead) and
// the logical lines of a buffer that holds several (a here-document, a `for` loop). Pure.

/**
 * Made when first needed, not when the module loads: the first Intl.Segmenter loads ICU's break
 * data, 15–40 ms that a piped run (which edits no line) or plain ASCII never needs
 * (docs/performance.md).
 */
let grapheme: Intl.Segmenter | undefined;
const segmenter = (): Intl.Segmenter => (grapheme ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));

/** Whether `text` is plain ASCII, whose graphemes are its characters (the common case, and fast). */
const ASCII = /^[\x00-\x7f]*$/;

/** The index of the grapheme boundary before `at` (0 at the start). */
export function prevBoundary(text: string, at: number): number {
  if (at <= 0) return 0;
  if (ASCII.test(text)) return at - 1;
  let last = 0;
  for (const { index } of segmenter().segment(text)) {
    if (index >= at) break;
    last = index;
  }
  return last;
}

/** The index of the grapheme boundary after `at` (the length at the end). */
export function nextBoundary(text: string, at: number): number {
  if (at >= text.length) return text.length;
  if (ASCII.test(text)) return at + 1;
  for (const { index, segment } of segmenter().segment(text)) {
    if (index + segment.length > at) return index + segment.length;
  }
  return text.length;
}

/** The graphemes of `text`, in order. */
export function graphemes(text: string): string[] {
  if (ASCII.test(text)) return [...text];
  return [...segmenter().segment(text)].map((s) => s.segment);
}

/** A letter or digit: what readline's word motions stop at. */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** `M-f`: the end of the next word after `at`. */
export function wordEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && !WORD_CHAR.test(text[i]!)) i++;
  while (i < text.length && WORD_CHAR.test(text[i]!)) i++;
  return i;
}

/** `M-b`: the start of the word before `at`. */
export function wordStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && !WORD_CHAR.test(text[i - 1]!)) i--;
  while (i > 0 && WORD_CHAR.test(text[i - 1]!)) i--;
  return i;
}

/** `C-w`: the start of the blank-delimited word before `at` (unix-word-rubout). */
export function bigWordStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(text[i - 1]!)) i--;
  return i;
}

/** The start of the logical line `at` is on (after the newline before it). */
export function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

/** The end of the logical line `at` is on (before its newline). */
export function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl === -1 ? text.length : nl;
}

/**
 * The last word of a shell line, as `M-.` inserts it: the last blank-separated word, quotes kept
 * together (`git commit -m "fix it"` gives `"fix it"`). Empty when the line has none.
 */
export function lastArgument(line: string): string {
  const words = shellWords(line);
  return words.at(-1) ?? '';
}

/** Blank-separated words, a quoted part staying inside its word. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      word += c;
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      continue;
    }
    if (/\s/.test(c)) {
      if (word) words.push(word);
      word = '';
      continue;
    }
    if (c === '\\' && i + 1 < line.length) {
      word += c + line[++i];
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    word += c;
  }
  if (word) words.push(word);
  return words;
}
