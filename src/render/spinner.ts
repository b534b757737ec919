// A one-line spinner on the error stream while waiting (for the first token, a tool, a server).
// Only on a terminal; it erases itself completely when stopped.

import type { Io } from '../io.js';
import { neutralize } from './sanitize.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export class Spinner {
  #timer: NodeJS.Timeout | null = null;
  #frame = 0;
  #label = '';

  constructor(
    private readonly io: Io,
    private readonly paint: (s: string) => string,
  ) {}

  get active(): boolean {
    return this.#timer !== null;
  }

  /** What the spinner says (as last started). */
  get label(): string {
    return this.#label;
  }

  start(label: string): void {
    if (!this.io.isTTY) return;
    // One line only: a label that wrapped could not be erased by `\r` (the frame and a space take 2).
    const room = Math.max(10, this.io.columns() - 3);
    const flat = neutralize(label).replace(/\n/g, ' ');
    const next = flat.length > room ? `${flat.slice(0, room - 1)}…` : flat;
    const changed = next !== this.#label;
    this.#label = next;
    if (this.#timer) {
      // A new label (a progress report) shows at once, in place.
      if (changed) this.#draw();
      return;
    }
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), 80);
    this.#timer.unref();
  }

  stop(): void {
    if (!this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = null;
    this.io.errors.write('\r\x1b[2K');
  }

  #draw(): void {
    const frame = FRAMES[this.#frame++ % FRAMES.length]!;
    this.io.errors.write(`\r\x1b[2K${this.paint(`${frame} ${this.#label}`)}`);
  }
}
