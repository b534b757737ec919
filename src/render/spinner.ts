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

  start(label: string): void {
    if (!this.io.isTTY) return;
    this.#label = neutralize(label).replace(/\n/g, ' ');
    if (this.#timer) return;
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
