// Draws a model reply as it streams: text with control sequences neutralised, reasoning dim,
// `CMD: ` lines bold cyan. Only the first few characters of a line are held back, until it is
// clear whether the line starts with `CMD: `; everything else is written as it arrives.

import { CMD_PREFIX } from '../tools/cmd-lines.js';
import type { Renderer } from './renderer.js';
import { neutralize } from './sanitize.js';

type LineKind = 'undecided' | 'cmd' | 'text';

export class ReplyRenderer {
  #kind: LineKind = 'undecided';
  #held = '';
  #inReasoning = false;
  #wroteAnything = false;

  constructor(private readonly render: Renderer) {}

  /** Whether any reply text or reasoning was written. */
  get wroteAnything(): boolean {
    return this.#wroteAnything;
  }

  reasoning(text: string): void {
    if (text === '') return;
    if (!this.#inReasoning) {
      this.render.endLine();
      this.#inReasoning = true;
    }
    this.#wroteAnything = true;
    this.render.write(this.render.style.dim(neutralize(text)));
  }

  text(chunk: string): void {
    if (chunk === '') return;
    if (this.#inReasoning) {
      this.#inReasoning = false;
      this.render.endLine();
      this.render.write('\n');
    }
    this.#wroteAnything = true;
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
    if (this.#held !== '') this.#emit(this.#held, 'text');
    this.#held = '';
    this.#kind = 'undecided';
    this.#inReasoning = false;
    this.render.endLine();
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
    this.render.write('\n');
  }

  #emit(text: string, kind: LineKind): void {
    if (text === '') return;
    this.render.write(kind === 'cmd' ? this.render.style.bold.cyan(text) : text);
  }
}
