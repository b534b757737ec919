// Where input lines come from. On a terminal: node:readline with editing, history, completion and
// Ctrl-C clearing the line. From a pipe or file: the lines in order, no prompt, no echo.

import readline from 'node:readline';
import type { Io } from '../io.js';

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

export interface LineReader {
  /** The next line; null at end of input (Ctrl-D, EOF). */
  read(prompt: string): Promise<string | null>;
  /**
   * Asks a question in the middle of processing a line (a confirmation). The answer is not kept
   * in history. null when there is no one to ask (piped input), on Ctrl-C or at end of input.
   */
  ask(question: string, prefill?: string): Promise<string | null>;
  /** Called while a line is processed: keys wait in the terminal and Ctrl-C becomes SIGINT. */
  suspend(): void;
  /**
   * While long work runs (Norris): lines typed meanwhile go to `onLine` and Ctrl-C to the
   * interrupt handler; a question still takes the next line. Returns the function that stops it.
   */
  listen(onLine: (line: string) => void): () => void;
  /** Runs `work` with the terminal given back to it (a command runs), then listens again. */
  hold<T>(work: () => Promise<T>): Promise<T>;
  close(): void;
}

export interface TerminalReaderOptions {
  history: string[];
  historySize: number;
  completer: (line: string) => [string[], string];
  onHistory: (newestFirst: string[]) => void;
  /** Ctrl-C pressed while a question was asked. */
  onInterrupt: () => void;
}

/** A line reader on a terminal. */
export class TerminalLineReader implements LineReader {
  readonly #rl: readline.Interface;
  readonly #io: Io;
  #waiting: ((line: string | null) => void) | null = null;
  #closed = false;
  #asking = false;
  /** Lines submitted inside a bracketed paste, waiting for the Enter that ends the input. */
  #pasted: string[] = [];
  #inPaste = false;
  /** Where lines typed during long work go (see `listen`). */
  #listener: ((line: string) => void) | null = null;

  constructor(io: Io, opts: TerminalReaderOptions) {
    this.#io = io;
    this.#rl = readline.createInterface({
      input: io.input,
      output: io.output,
      terminal: true,
      history: opts.history,
      historySize: opts.historySize,
      removeHistoryDuplicates: true,
      completer: opts.completer,
      tabSize: 4,
    });
    // Bracketed paste: newlines inside a paste do not submit; the pasted lines and what follows
    // them up to the next Enter are one input (a pasted traceback is one question).
    io.input.on('keypress', (_s: string, key: { name?: string; ctrl?: boolean } | undefined) => {
      if (key?.name === 'paste-start') this.#inPaste = true;
      else if (key?.name === 'paste-end') this.#inPaste = false;
      // Ctrl-N starts a Norris goal: `:norris ` at the start of an empty line.
      else if (key?.ctrl && key.name === 'n' && !this.#asking && this.#rl.line === '') setImmediate(() => this.#rl.write(':norris '));
    });
    this.#rl.on('line', (line) => {
      if (this.#inPaste) {
        this.#pasted.push(line);
        return;
      }
      const whole = [...this.#pasted, line].join('\n');
      this.#pasted = [];
      this.#deliver(whole);
    });
    this.#rl.on('close', () => {
      this.#closed = true;
      this.#deliver(null);
    });
    // Ctrl-C at an idle prompt clears the line, as in a shell; during a question it cancels.
    this.#rl.on('SIGINT', () => {
      if (this.#asking || this.#listener) {
        io.output.write('^C\n');
        this.#deliver(null);
        opts.onInterrupt();
        return;
      }
      const rl = this.#rl as unknown as { line: string; cursor: number };
      rl.line = '';
      rl.cursor = 0;
      io.output.write('^C\n');
      this.#rl.prompt();
    });
    this.#rl.on('history', (h: string[]) => {
      if (!this.#asking) opts.onHistory(h);
    });
  }

  #deliver(line: string | null): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    if (waiting) waiting(line);
    else if (line !== null) this.#listener?.(line);
  }

  listen(onLine: (line: string) => void): () => void {
    this.#listener = onLine;
    this.#startListening();
    return () => {
      this.#listener = null;
      this.suspend();
    };
  }

  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.suspend();
    try {
      return await work();
    } finally {
      this.#startListening();
    }
  }

  #startListening(): void {
    if (this.#closed || !this.#listener) return;
    this.#io.input.setRawMode?.(true);
    this.#rl.setPrompt('');
    this.#rl.resume();
  }

  read(prompt: string, prefill?: string): Promise<string | null> {
    if (this.#closed) return Promise.resolve(null);
    this.#io.input.setRawMode?.(true);
    this.#io.output.write(BRACKETED_PASTE_ON);
    this.#rl.setPrompt(prompt);
    this.#rl.resume();
    this.#rl.prompt();
    if (prefill) this.#rl.write(prefill);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  async ask(question: string, prefill?: string): Promise<string | null> {
    this.#asking = true;
    try {
      const answer = await this.read(question, prefill);
      // readline keeps every line in history; a "y" is not worth recalling.
      const history = (this.#rl as unknown as { history: string[] }).history;
      if (answer !== null && answer.trim() !== '' && history[0] === answer) history.shift();
      return answer;
    } finally {
      this.#asking = false;
      this.suspend();
      this.#startListening();
    }
  }

  suspend(): void {
    if (this.#closed) return;
    this.#rl.pause();
    this.#io.input.setRawMode?.(false);
    // Programs run next (cat, vim...) must not receive paste markers they did not ask for.
    this.#io.output.write(BRACKETED_PASTE_OFF);
  }

  close(): void {
    if (this.#closed) return;
    this.#io.output.write(BRACKETED_PASTE_OFF);
    this.#rl.close();
  }
}

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

  suspend(): void {}

  /** A pipe's lines are the next inputs, in order: nothing is taken from it during long work. */
  listen(): () => void {
    return () => {};
  }

  hold<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  close(): void {
    this.#rl.close();
  }
}
