// Where input lines come from. On a terminal: aish's own line editor (terminal-reader.ts, on
// src/line/). From a pipe or file: the lines in order, no prompt, no echo (node:readline's line
// splitting, its documented API only).

import readline from 'node:readline';
import type { Io } from '../io.js';
import { neutralize } from '../render/sanitize.js';


export interface LineReader {
  /** The next line; null at end of input (Ctrl-D, EOF). `prefill` is put on the line to edit. */
  read(prompt: string, prefill?: string): Promise<string | null>;
  /** Whether the last line `read` gave was entered with Alt-Enter: to go the other way than its route. */
  readonly flipped: boolean;
  /**
   * Asks for a line of free text in the middle of processing a line (an edited command, a form
   * field). The answer is not kept in history. null when there is no one to ask (piped input), on Ctrl-C or at end of input.
   * `complete` answers Tab while it is asked (else Tab completes nothing).
   */
  ask(question: string, prefill?: string, complete?: Completer): Promise<string | null>;
  /**
   * Asks a question answered by one key: resolves the first key of `keys` typed alone (or with
   * Enter), Enter alone is `fallback`; a key that is not an answer (or a paste, or several keys at
   * once) asks again. null when there is no one to ask (piped input), on Ctrl-C, Ctrl-D or at end
   * of input.
   */
  askKey(question: string, keys: string, fallback: string): Promise<string | null>;
  /** Called while a line is processed: keys wait in the terminal and Ctrl-C becomes SIGINT. */
  suspend(): void;
  /**
   * While long work runs (Norris): lines typed meanwhile go to `onLine` and Ctrl-C to the
   * interrupt handler; a question still takes the next line. Returns the function that stops it.
   */
  listen(onLine: (line: string) => void): () => void;
  /** Runs `work` with the terminal given back to it (a command runs), then listens again. */
  hold<T>(work: () => Promise<T>): Promise<T>;
  /**
   * While a line is processed: every key, as the terminal sent it, goes to `onKeys` (a command
   * running in the session's shell), with the terminal in raw mode, until the returned function
   * is called.
   */
  passKeys(onKeys: (data: string) => void): () => void;

  /** Puts a line into the input history as if it had been typed (one line only). */
  remember(line: string): void;
  close(): void;
}


/** How text composed in the editor is shown once it comes back: the prompt, then `... ` lines. */
export function echoComposed(prompt: string, text: string): string {
  return `${prompt}${neutralize(text).split('\n').join('\n... ')}\n`;
}

/**
 * Tab's answer: the candidates, the text they replace, and what the shell says of some of them
 * (fish's descriptions, by candidate: text from outside).
 */
export type Completion = [candidates: string[], replaced: string, descriptions?: Readonly<Record<string, string>>];

/** Tab: its answer for the line; keys typed while it answers wait for it. */
export type Completer = (line: string) => Completion | Promise<Completion>;

/** Lines from a pipe or file, in order. */
export class PipedLineReader implements LineReader {
  readonly #lines: AsyncIterator<string>;
  readonly #rl: readline.Interface;

  constructor(io: Io) {
    this.#rl = readline.createInterface({ input: io.input, terminal: false, crlfDelay: Infinity });
    this.#lines = this.#rl[Symbol.asyncIterator]();
  }

  async read(): Promise<string | null> {
    const next = await this.#lines.next();
    return next.done ? null : next.value;
  }

  async ask(): Promise<string | null> {
    return null;
  }

  async askKey(): Promise<string | null> {
    return null;
  }

  suspend(): void {}

  /** A pipe's lines are the next inputs, in order: nothing is taken from it during long work. */
  listen(): () => void {
    return () => {};
  }

  hold<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  passKeys(): () => void {
    return () => {};
  }

  remember(): void {}

  get flipped(): boolean {
    return false;
  }

  close(): void {
    this.#rl.close();
  }
}
