// A typed shell line from start to end (SPEC §4): `cd`, `export` and `unset` change aish's own
// state; anything else runs through the user's shell inside an exec frame, and its captured output
// joins the pending buffer for the next question. Owns the session's cwd, environment and last
// exit status. Approved `CMD:` lines run through here too, exactly as if typed.

import type { Config } from '../config/schema.js';
import type { PendingOutput } from '../context/pending-output.js';
import { matchBuiltin, runBuiltin, type ShellState } from './builtins.js';
import { isInteractiveCommand } from './interactive.js';
import { runShell } from './run-shell.js';

/** How an exec frame ends: the exit code, the signal, or why the command never started. */
export interface ExecEnd {
  exitCode: number;
  signal: NodeJS.Signals | null;
  /** Shown instead of the exit code when the command never started. */
  error?: string;
}

/** Where a shell line is shown: the frame, live output and status lines (the renderer). */
export interface ExecView {
  execBegin(command: string): void;
  execOutput(text: string): void;
  execEnd(end: ExecEnd): void;
  info(text: string): void;
  status(message: string): void;
  error(message: string): void;
}

export interface ShellRunnerParts {
  shell: Config['shell'];
  /** The starting directory and environment; the runner keeps its own copy. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** On a terminal: interactive programs get it, and Ctrl-C reaches children from it. */
  isTTY: boolean;
  view: ExecView;
  /** Captured output goes here for the next user turn. */
  pending: PendingOutput;
  /** Called after a `cd` changed the directory. */
  onCwdChange?: (cwd: string) => void;
}

export class ShellRunner {
  readonly #parts: ShellRunnerParts;
  readonly #state: ShellState;
  #lastStatus = 0;
  /** Aborted once aish is ending: see `terminate`. */
  readonly #ending = new AbortController();

  constructor(parts: ShellRunnerParts) {
    this.#parts = parts;
    this.#state = { cwd: parts.cwd, oldpwd: parts.env.OLDPWD, env: { ...parts.env, PWD: parts.cwd } };
  }

  /** The directory shell lines run in. */
  get cwd(): string {
    return this.#state.cwd;
  }

  /** The environment shell lines run with (changed by `export` and `unset`). */
  get env(): Record<string, string | undefined> {
    return this.#state.env;
  }

  /** The exit status of the last shell line. */
  get lastStatus(): number {
    return this.#lastStatus;
  }

  /** Runs `command` as a typed shell line. Never rejects for the command's own failures. */
  async run(command: string, signal: AbortSignal): Promise<void> {
    const { view, shell, isTTY } = this.#parts;
    const builtin = matchBuiltin(command);
    if (builtin) {
      const before = this.#state.cwd;
      const result = await runBuiltin(builtin.name, builtin.rest, this.#state);
      this.#lastStatus = result.status;
      if (this.#state.cwd !== before) this.#parts.onCwdChange?.(this.#state.cwd);
      if (result.output) view.info(result.output);
      if (result.error) view.error(result.error);
      return;
    }
    const interactive = isTTY && isInteractiveCommand(command, shell.interactive);
    let hidden = false;
    view.execBegin(command);
    const result = await runShell(command, {
      cwd: this.#state.cwd,
      env: this.#state.env,
      program: shell.program ?? this.#state.env.SHELL ?? '/bin/sh',
      interactive,
      stdin: isTTY ? 'inherit' : 'ignore',
      // On a terminal the child shares aish's process group, so Ctrl-C reaches it from the
      // terminal itself; from a pipe aish forwards the interrupt to the child's own group.
      detached: !isTTY,
      captureMaxChars: shell.capture_max_chars,
      onOutput: (text) => {
        if (!hidden && text.includes('\0')) hidden = true;
        if (!hidden) view.execOutput(text);
      },
      signal,
      terminate: this.#ending.signal,
    });
    view.execEnd(result);
    this.#lastStatus = result.exitCode;
    if (hidden) view.status('binary output not shown and not captured');
    else if (result.truncated) view.status(`output capped at ${shell.capture_max_chars} chars for the model (head and tail kept)`);
    this.#parts.pending.append({ command, output: result.output, exitCode: result.exitCode });
  }

  /**
   * aish is ending (its terminal went away, SIGTERM): stops the command running now whatever its
   * process group, where a line's abort would leave it to the terminal, and starts no more.
   */
  terminate(): void {
    this.#ending.abort();
  }
}
