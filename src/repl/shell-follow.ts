// What the line editor follows of the session's shell on a terminal: its editing mode (`set -o
// vi`, `bindkey -v`: the line takes it as soon as the shell says) and its history (Up and Ctrl-R
// reach the shell's own history file once the shell has said where it is). Neither starts the
// shell: it starts behind the prompt (repl.ts), and these follow once it does.

import type { ShellRunner } from '../shell/shell-runner.js';
import type { ReplInput } from './input.js';

/**
 * How long a prompt waits for the shell's answers: its history the first time (it is read once),
 * its editing mode after a command that may have changed it (`set -o vi`), so the line is in that
 * mode from its first key. Both are cached otherwise, and cost nothing.
 */
const WAIT_MS = 500;

export class ShellFollow {
  #mode: 'vi' | 'emacs' | undefined;
  #history: Promise<void> | null = null;

  constructor(
    private readonly shell: Pick<ShellRunner, 'editingMode' | 'shellHistory' | 'sessionStarted'>,
    private readonly input: Pick<ReplInput, 'modeChanged' | 'addShellHistory'>,
    private readonly historySize: number,
  ) {}

  /** The editing mode the shell said, for the next line (undefined: not said yet). */
  get mode(): 'vi' | 'emacs' | undefined {
    return this.#mode;
  }

  /** The shell was started: its mode and history are asked for. */
  started(): void {
    void this.#askMode();
    void this.#loadHistory();
  }

  /** Before a prompt: the shell's mode and history, waited for a moment (see WAIT_MS). */
  async beforePrompt(): Promise<void> {
    if (!this.shell.sessionStarted) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, WAIT_MS)));
    await Promise.race([Promise.all([this.#askMode(), this.#loadHistory()]), late]);
    clearTimeout(timer);
  }

  async #askMode(): Promise<void> {
    const mode = await this.shell.editingMode();
    if (!mode || mode === this.#mode) return;
    this.#mode = mode;
    this.input.modeChanged();
  }

  #loadHistory(): Promise<void> {
    this.#history ??= this.shell.shellHistory(this.historySize).then(
      (entries) => this.input.addShellHistory(entries),
      () => {},
    );
    return this.#history;
  }
}
