// Draws a model reply as it streams: text with control sequences neutralised, reasoning dim,
// `CMD: ` lines bold cyan. With colour on, the text goes through the append-only markdown renderer
// (markdown.ts). With colour off it is written as it arrives, byte for byte; only the first few
// characters of a line are held back, until it is clear whether the line starts with `CMD: `.

import { CMD_PREFIX } from '../cmd-contract.js';
import { MarkdownRenderer } from './markdown.js';
import type { Renderer } from './renderer.js';
import { neutralize } from './sanitize.js';

type LineKind = 'undecided' | 'cmd' | 'text';

export class ReplyRenderer {
  #kind: LineKind = 'undecided';
  #held = '';
  #inReasoning = false;
  #wroteAnything = false;
  /** Present when colour is on; wraps at the terminal width the reply started with. */
  readonly #markdown: MarkdownRenderer | null;

  constructor(private readonly render: Renderer) {
    this.#markdown = render.colorEnabled ? new MarkdownRenderer({ style: render.style, width: render.io.columns() }) : null;
  }

  /** Whether any reply text or reasoning was written. */
  get wroteAnything(): boolean {
    return this.#wroteAnything;
  }

  reasoning(text: string): void {
    if (text === '') return;
    if (!this.#inReasoning) {
      if (this.#markdown) this.render.stream(this.#markdown.flush());
      this.render.endLine();
      this.#inReasoning = true;
    }
    this.#wroteAnything = true;
    this.render.stream(this.render.style.dim(neutralize(text)));
  }

  text(chunk: string): void {
    if (chunk === '') return;
    if (this.#inReasoning) {
      this.#inReasoning = false;
      this.render.endLine();
      this.render.stream('\n');
    }
    this.#wroteAnything = true;
    if (this.#markdown) {
      this.render.stream(this.#markdown.push(neutralize(chunk)));
      return;
    }
    let rest = neutralize(chunk);
    while (rest !== '') {
      const nl = rest.indexOf('\n');
      const piece = nl === -1 ? rest : rest.slice(0, nl);
      this.#linePiece(piece);
      if (nl === -1) break;
      this.#endOfLine();
      rest = rest.slice(nl + 1);
    }
  }

  /** Flushes anything held back; call at the end of a reply (or when it is interrupted). */
  finish(): void {
    if (this.#markdown) this.render.stream(this.#markdown.flush());
    if (this.#held !== '') this.#emit(this.#held, 'text');
    this.#held = '';
    this.#kind = 'undecided';
    this.#inReasoning = false;
    this.render.endLine();
    this.render.flush();
  }

  #linePiece(piece: string): void {
    if (this.#kind !== 'undecided') {
      this.#emit(piece, this.#kind);
      return;
    }
    this.#held += piece;
    if (this.#held.length >= CMD_PREFIX.length || !CMD_PREFIX.startsWith(this.#held)) {
      this.#kind = this.#held.startsWith(CMD_PREFIX) ? 'cmd' : 'text';
      const held = this.#held;
      this.#held = '';
      this.#emit(held, this.#kind);
    }
  }

  #endOfLine(): void {
    if (this.#held !== '') this.#emit(this.#held, 'text');
    this.#held = '';
    this.#kind = 'undecided';
    this.render.stream('\n');
  }

  #emit(text: string, kind: LineKind): void {
    if (text === '') return;
    this.render.stream(kind === 'cmd' ? this.render.style.bold.cyan(text) : text);
  }
}
