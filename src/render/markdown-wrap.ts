// Greedy word wrap for the markdown renderer, and the terminal width of text. A word is placed only
// when it is complete, so the wrapped output is the same however the input was chunked; nothing
// already written is ever moved.

import type { Sink } from './markdown-inline.js';
import type { Paint } from './markdown-style.js';

/** The renderer's output buffer, shared with the wrapper; the renderer empties it after each push. */
export interface Out {
  s: string;
}

/**
 * Greedy word wrap for one block line: a word is placed when it is complete, on this visual line
 * if it fits, else after a newline and the hanging indent. Words wider than the line overflow.
 */
export class Wrapper implements Sink {
  #word = '';
  #frag = '';
  #fragMask = 0;
  #wordWidth = 0;
  #col = 0;
  #lineHasWord = false;
  #hang = '';
  #hangWidth = 0;
  #sep = ' ';

  constructor(
    private readonly out: Out,
    private readonly paint: Paint,
    private readonly width: number,
  ) {}

  begin(prefix: string, prefixWidth: number, hang: string, hangWidth: number, sep: string): void {
    this.out.s += prefix;
    this.#col = prefixWidth;
    this.#hang = hang;
    this.#hangWidth = hangWidth;
    this.#sep = sep;
    this.#lineHasWord = false;
  }

  text(s: string, mask: number): void {
    if (s === '') return;
    if (mask !== this.#fragMask && this.#frag !== '') {
      this.#word += this.paint(this.#fragMask, this.#frag);
      this.#frag = '';
    }
    this.#fragMask = mask;
    this.#frag += s;
    this.#wordWidth += textWidth(s);
  }

  space(): void {
    if (this.#frag === '' && this.#word === '') return;
    const word = this.#fragMask === 0 ? this.#word + this.#frag : this.#word + this.paint(this.#fragMask, this.#frag);
    const width = this.#wordWidth;
    this.#word = '';
    this.#frag = '';
    this.#wordWidth = 0;
    if (this.#lineHasWord) {
      if (this.#col + 1 + width > this.width) {
        this.out.s += `\n${this.#hang}`;
        this.#col = this.#hangWidth;
      } else {
        this.out.s += this.#sep;
        this.#col += 1;
      }
    }
    this.out.s += word;
    this.#col += width;
    this.#lineHasWord = true;
  }

  endLine(): void {
    this.space();
    this.out.s += '\n';
    this.#lineHasWord = false;
  }
}

/** Terminal columns taken by `s`: East Asian wide characters count 2, combining marks 0. */
export function textWidth(s: string): number {
  let width = s.length;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0x300) continue;
    if (code >= 0xd800 && code <= 0xdbff) {
      const cp = s.codePointAt(i)!;
      i++;
      width--; // two code units, one character
      if ((cp >= 0x1f300 && cp <= 0x1f64f) || (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd)) width++;
      else if (cp >= 0xe0100 && cp <= 0xe01ef) width--;
      continue;
    }
    if (
      (code >= 0x300 && code <= 0x36f) ||
      (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x20d0 && code <= 0x20ff) ||
      (code >= 0xfe00 && code <= 0xfe0f)
    ) {
      width--;
    } else if (
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6)
    ) {
      width++;
    }
  }
  return width;
}
