// Runs the built aish under a pseudo-terminal (node-pty) so tests can type, press keys and read
// the screen the way a person would. `text` is everything printed, with ANSI sequences removed.

import { spawn, type IPty } from '@lydell/node-pty';
import stripAnsi from 'strip-ansi';
import { AISH_BIN } from './aish-env.js';

export const KEY = {
  enter: '\r',
  ctrlC: '\x03',
  ctrlD: '\x04',
  tab: '\t',
  up: '\x1b[A',
  down: '\x1b[B',
} as const;

export class PtySession {
  raw = '';
  readonly #term: IPty;
  readonly #listeners = new Set<() => void>();
  readonly exited: Promise<{ exitCode: number; signal?: number }>;

  private constructor(term: IPty) {
    this.#term = term;
    term.onData((d) => {
      this.raw += d;
      for (const l of this.#listeners) l();
    });
    this.exited = new Promise((resolve) => term.onExit((e) => resolve(e)));
  }

  static start(opts: { args?: string[]; env: Record<string, string>; cwd: string; cols?: number; rows?: number }): PtySession {
    const term = spawn(process.execPath, [AISH_BIN, ...(opts.args ?? [])], {
      name: 'xterm-256color',
      cols: opts.cols ?? 100,
      rows: opts.rows ?? 30,
      cwd: opts.cwd,
      env: opts.env,
    });
    return new PtySession(term);
  }

  get pid(): number {
    return this.#term.pid;
  }

  /** Everything printed so far, without escape sequences and with CR LF as LF. */
  get text(): string {
    return stripAnsi(this.raw).replace(/\r+\n/g, '\n');
  }

  write(data: string): void {
    this.#term.write(data);
  }

  /** Resizes the terminal, as a person dragging the window's corner (the program gets SIGWINCH). */
  resize(cols: number, rows: number): void {
    this.#term.resize(cols, rows);
  }

  /** Types a line and presses Enter. */
  line(text: string): void {
    this.#term.write(`${text}\r`);
  }

  /** Index into `text` to wait for output that comes after now. */
  mark(): number {
    return this.text.length;
  }

  /** Resolves when `text` (from `from` on) matches; rejects with the screen after `timeoutMs`. */
  waitFor(pattern: RegExp | string, opts: { from?: number; timeoutMs?: number } = {}): Promise<string> {
    const from = opts.from ?? 0;
    const match = () => {
      const t = this.text.slice(from);
      return typeof pattern === 'string' ? t.includes(pattern) : pattern.test(t);
    };
    return new Promise((resolve, reject) => {
      if (match()) return resolve(this.text.slice(from));
      const timer = setTimeout(() => {
        this.#listeners.delete(check);
        reject(new Error(`timed out waiting for ${String(pattern)}; screen:\n${this.text.slice(from)}`));
      }, opts.timeoutMs ?? 10000);
      const check = () => {
        if (!match()) return;
        clearTimeout(timer);
        this.#listeners.delete(check);
        resolve(this.text.slice(from));
      };
      this.#listeners.add(check);
    });
  }

  kill(signal = 'SIGKILL'): void {
    try {
      this.#term.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** aish's default prompt at the end of the screen, whatever is typed after it. */
const AISH_PROMPT = /\[aish:fast\]> $/;

/**
 * Types `text` (at a new prompt, unless it is `more` of the line), then Tab once it is echoed
 * (a Tab in the same read as other keys is only a tab), and waits for `shown`.
 */
export async function typeThenTab(t: PtySession, text: string, shown: RegExp | string, more = false): Promise<string> {
  if (!more) await t.waitFor(AISH_PROMPT);
  const mark = t.mark();
  t.write(text);
  await t.waitFor(text, { from: mark });
  t.write(KEY.tab);
  return t.waitFor(shown, { from: mark });
}

/** Presses Enter on the line and waits for its exec frame to close. */
export async function enterThenFrame(t: PtySession): Promise<string> {
  const mark = t.mark();
  t.write(KEY.enter);
  return t.waitFor(/╰─ exit \d+[^\n]*\n/, { from: mark });
}
