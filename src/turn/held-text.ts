// The text of a reply as it streams, passed on only once it is known to be text: the part that is,
// or could still become, a leaked tool call (leaked-calls.ts) is held back, so on a terminal a call
// written as text never flashes on screen. What was passed on is never taken back. This runs for
// every delta: the scan sees only a window from a little before what was shown, so a long reply
// costs its length, not its length squared.

import { HoldScan } from './leaked-calls.js';

/** How much shown text the window keeps in front of the held part (a name run before `[ARGS]`). */
const LOOKBACK = 512;
/** The window is cut back only once it is this long, so cutting stays cheap. */
const WINDOW_MAX = 16_384;

export class HeldText {
  readonly #pieces: string[] = [];
  #joined: string | null = '';
  #length = 0;
  /** The reply from index #base on. */
  #window = '';
  #base = 0;
  #shown = 0;
  readonly #scan: HoldScan;
  readonly #show: (text: string) => void;

  /** `offered`: the tool names of this request (none: nothing is held). `show` gets known text. */
  constructor(offered: ReadonlySet<string>, show: (text: string) => void) {
    this.#scan = new HoldScan(offered);
    this.#show = show;
  }

  /** Everything received so far. */
  get text(): string {
    this.#joined ??= this.#pieces.join('');
    return this.#joined;
  }

  /** Adds a streamed fragment and passes on what is now known to be text. */
  push(fragment: string): void {
    if (fragment === '') return;
    this.#pieces.push(fragment);
    this.#joined = null;
    this.#length += fragment.length;
    this.#window += fragment;
    this.release(this.#scan.end(this.#window, this.#base));
    if (this.#scan.settled && this.#window.length > WINDOW_MAX) {
      // Cut only when it drops much: text held behind a marker stays, and is not copied again and again.
      const keep = Math.max(this.#base, this.#shown - LOOKBACK);
      if (keep - this.#base < WINDOW_MAX / 2) return;
      this.#window = this.#window.slice(keep - this.#base);
      this.#base = keep;
    }
  }

  /** Passes on the text up to `end` (default: all of it), once the reply has been judged. */
  release(end = this.#length): void {
    if (end <= this.#shown) return;
    this.#show(this.#window.slice(this.#shown - this.#base, end - this.#base));
    this.#shown = end;
  }
}
