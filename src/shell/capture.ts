// Keeps what a command printed for the model: CR LF and progress-bar CRs folded, ANSI and other
// control characters removed, capped to head + tail with an elision marker. Appending is
// amortised O(n) however small the chunks, so a command printing megabytes stays cheap.

import stripAnsi from 'strip-ansi';
import { screenText } from './screen-text.js';

export interface CapturedOutput {
  /** Normalised, capped text (no trailing newline). */
  text: string;
  /** True when the middle was elided. */
  truncated: boolean;
  /** True when the output looked binary (a NUL byte); `text` then only says so. */
  binary: boolean;
  /** Characters received before normalising. */
  rawChars: number;
}

// Raw text is kept with slack over the cap, because stripping escapes and CRs shrinks it.
const RAW_SLACK = 2;

export class OutputCapture {
  readonly #max: number;
  #head = '';
  #tail: string[] = [];
  #tailLength = 0;
  #total = 0;
  #binary = false;

  constructor(maxChars: number) {
    this.#max = Math.max(16, maxChars);
  }

  push(chunk: string): void {
    if (chunk.length === 0) return;
    this.#total += chunk.length;
    if (!this.#binary && chunk.includes('\0')) this.#binary = true;
    const headRoom = this.#max * RAW_SLACK - this.#head.length;
    if (headRoom > 0) {
      this.#head += chunk.slice(0, headRoom);
      chunk = chunk.slice(headRoom);
      if (chunk.length === 0) return;
    }
    this.#tail.push(chunk);
    this.#tailLength += chunk.length;
    const keep = this.#max * RAW_SLACK;
    if (this.#tailLength > keep * 2) {
      const joined = this.#tail.join('').slice(-keep);
      this.#tail = [joined];
      this.#tailLength = joined.length;
    }
  }

  /** The capture as plain text, each part normalised by `normalizeOutput`. */
  finish(): CapturedOutput {
    if (this.#binary) return this.#binaryResult();
    return this.#assemble(normalizeOutput(this.#head), this.#tailLength === 0 ? null : normalizeOutput(this.#tail.join('')));
  }

  /**
   * The capture as the text a terminal `cols` wide showed (screen-text.ts): head and tail each
   * through the emulator; `fullScreen` when a program used the alternate screen.
   */
  async finishScreen(cols: number): Promise<CapturedOutput & { fullScreen: boolean }> {
    if (this.#binary) return { ...this.#binaryResult(), fullScreen: false };
    const head = await screenText(this.#head, cols);
    const tail = this.#tailLength === 0 ? null : await screenText(this.#tail.join(''), cols);
    return { ...this.#assemble(head.text, tail?.text ?? null), fullScreen: head.fullScreen || Boolean(tail?.fullScreen) };
  }

  #binaryResult(): CapturedOutput {
    return { text: `[binary output, ${this.#total} chars, not captured]`, truncated: false, binary: true, rawChars: this.#total };
  }

  /** Head (and the tail, when the raw text overflowed the head) made into the capped text. */
  #assemble(head: string, tail: string | null): CapturedOutput {
    if (tail === null && head.length <= this.#max) {
      return { text: head.replace(/\n+$/, ''), truncated: false, binary: false, rawChars: this.#total };
    }
    // Over the cap: half for the head, half for the tail, each cut at a line boundary when one
    // is near, so neither side starts or ends inside a line or an escape sequence.
    const half = Math.floor(this.#max / 2);
    const all = tail === null ? head : null;
    const headPart = cutHead(all ?? head, half);
    const tailPart = cutTail(all ?? tail!, half);
    const kept = headPart.length + tailPart.length;
    const elided = Math.max(0, (all ? all.length : this.#total) - kept);
    const marker = `[... ${elided} chars elided ...]`;
    return {
      text: `${headPart.replace(/\n+$/, '')}\n${marker}\n${tailPart.replace(/\n+$/, '')}`,
      truncated: true,
      binary: false,
      rawChars: this.#total,
    };
  }
}

function cutHead(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  return cut > max / 2 ? text.slice(0, cut) : text.slice(0, max);
}

function cutTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const start = text.length - max;
  const nl = text.indexOf('\n', start);
  return nl !== -1 && nl < start + max / 2 ? text.slice(nl + 1) : text.slice(start);
}

/**
 * Makes terminal output plain text: CR LF → LF, a line redrawn with CR keeps its last state,
 * ANSI sequences and other control characters (but tab and newline) are removed.
 */
export function normalizeOutput(raw: string): string {
  let text = stripAnsi(raw.replace(/\r+\n/g, '\n'));
  if (text.includes('\r')) {
    text = text
      .split('\n')
      .map((line) => {
        const parts = line.split('\r').filter((p) => p.length > 0);
        return parts.length ? parts[parts.length - 1]! : '';
      })
      .join('\n');
  }
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}
