// The text of a reply as it streams, passed on only once it is known to be text: the part that is,
// or could still become, a leaked tool call (leaked-calls.ts) is held back, so on a terminal a call
// written as text never flashes on screen. What was passed on is never taken back.

import { heldFrom } from './leaked-calls.js';

export class HeldText {
  #text = '';
  #shown = 0;
  readonly #offered: ReadonlySet<string>;
  readonly #show: (text: string) => void;

  /** `offered`: the tool names of this request (none: nothing is held). `show` gets known text. */
  constructor(offered: ReadonlySet<string>, show: (text: string) => void) {
    this.#offered = offered;
    this.#show = show;
  }

  /** Everything received so far. */
  get text(): string {
    return this.#text;
  }

  /** Adds a streamed fragment and passes on what is now known to be text. */
  push(fragment: string): void {
    this.#text += fragment;
    this.release(heldFrom(this.#text, this.#offered));
  }

  /** Passes on the text up to `end` (default: all of it), once the reply has been judged. */
  release(end = this.#text.length): void {
    if (end <= this.#shown) return;
    this.#show(this.#text.slice(this.#shown, end));
    this.#shown = end;
  }
}
