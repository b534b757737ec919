// The text of a reply as it streams, passed on only once it is known to be text: the part that is,
// or could still become, a leaked tool call (leaked-calls.ts) is held back, so on a terminal a call
// written as text never flashes on screen. What was passed on is never taken back. This runs for
// every delta: the scan sees only a short window from a little before what was shown (each delta
// makes V8 flatten the window, so its length is paid per delta), and with no tools offered nothing
// is held or scanned at all. The reply's text itself is kept by whoever streams it (the broker's
// TextBuffer): here only its length and the window.

import { HoldScan } from './leaked-calls.js';

/** How much shown text the window keeps in front of the held part (a name run before `[ARGS]`). */
const LOOKBACK = 512;
/** The window is cut back once it is this long and the cut drops at least half of it. */
const WINDOW_MAX = 1024;

export class HeldText {
  /** How much of the reply has arrived. */
  #received = 0;
  /** No tools offered: every fragment is text as it comes. */
  readonly #passThrough: boolean;
  /** The reply from index #base on. */
  #window = '';
  #base = 0;
  #shown = 0;
  readonly #scan: HoldScan;
  readonly #show: (text: string) => void;

  /** `offered`: the tool names of this request (none: nothing is held). `show` gets known text. */
  constructor(offered: ReadonlySet<string>, show: (text: string) => void) {
    this.#passThrough = offered.size === 0;
    this.#scan = new HoldScan(offered);
    this.#show = show;
  }

  /** Adds a streamed fragment and passes on what is now known to be text. */
  push(fragment: string): void {
    if (fragment === '') return;
    this.#received += fragment.length;
    if (this.#passThrough) {
      this.#shown = this.#received;
      this.#show(fragment);
      return;
    }
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
  release(end = this.#received): void {
    if (end <= this.#shown) return;
    this.#show(this.#window.slice(this.#shown - this.#base, end - this.#base));
    this.#shown = end;
  }
}
