// How aish ends, from the first moment after argv is read (entry.ts) to the end of the program
// (main.ts): SIGHUP, SIGTERM, a standard stream that fails, and the exit itself, which must let go
// of a terminal that has hung up. Touches `process`, as only entry.ts and main.ts otherwise do.

import { closeSync } from 'node:fs';
import os from 'node:os';
import { lostStreamCode } from './errors.js';
import { isTerminal } from './is-terminal.js';

/**
 * How aish ends early: SIGHUP or SIGTERM, or its terminal or the reader of its output gone. The
 * first cause sets the exit code; from then on aish writes nothing, ends the work in progress and
 * exits, a second later at the latest. Every exit goes through `exit`.
 */
export class Shutdown {
  #code: number | undefined;
  #stopWork: ((code: number) => void) | undefined;
  #atExit: Array<() => void> = [];
  /** The standard streams that were a terminal at start. */
  readonly #terminals = [0, 1, 2].filter((fd) => isTerminal(fd));

  get started(): boolean {
    return this.#code !== undefined;
  }

  /** How to end the work in progress (the REPL, the one-shot question); until then, exit at once. */
  stopWith(stop: (code: number) => void): void {
    this.#stopWork = stop;
  }

  /**
   * What must happen right before the process exits, however it exits (the backstop included):
   * synchronous, as `process.exit` does not wait. A hook that throws does not stop the exit.
   */
  atExit(hook: () => void): void {
    this.#atExit.push(hook);
  }

  begin(code: number): void {
    if (this.#code !== undefined) return;
    this.#code = code;
    if (!this.#stopWork) this.exit(code);
    // The backstop: a child deaf to every signal or a close that hangs does not keep aish alive.
    setTimeout(() => this.exit(code), 1000);
    try {
      this.#stopWork(code);
    } catch {
      // The backstop ends aish all the same.
    }
  }

  /** Exits with the shutdown's code if there is one, else with `code`. */
  exit(code: number): never {
    for (const hook of this.#atExit.splice(0)) {
      try {
        hook();
      } catch {
        // The exit goes on.
      }
    }
    // At exit Node restores the mode of each terminal it started with and, before Node 24, aborts
    // when that fails (nodejs/node#51519), as it does on a terminal that has hung up (isatty is
    // then false): let go of such a terminal first, and Node skips it.
    for (const fd of this.#terminals) {
      if (isTerminal(fd)) continue;
      try {
        closeSync(fd);
      } catch {
        // Already closed.
      }
    }
    process.exit(this.#code ?? code);
  }
}

/** SIGHUP and SIGTERM end aish and what it runs. */
export function watchSignals(shutdown: Shutdown): void {
  for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
    process.on(signal, () => shutdown.begin(128 + os.constants.signals[signal]));
  }
}

/**
 * Any error of a standard stream ends aish. Called once the front is done (start.ts): the front
 * writes to the descriptors directly and handles its own failures, so Node's streams are not set
 * up before the first prompt.
 */
export function watchStreams(shutdown: Shutdown): void {
  // Never a write here: telling about a failed write fails again (and used to loop).
  for (const stream of [process.stdin, process.stdout, process.stderr]) {
    stream.on('error', (err) => shutdown.begin(lostStreamCode(err) ?? 1));
  }
}
