// The pending exec output buffer (SPEC §4): what commands printed since the last user turn, each
// with its command line and exit status, and aish's notes about commands that did not run. It is
// not a turn; the next genuine user turn carries it in front of the typed text.

/** Builds the content of a user turn from the pending buffer and the typed text. */
export function mergeUserTurn(pending: string, text: string): string {
  return pending === '' ? text : `${pending}\n\n${text}`;
}

export class PendingOutput {
  #text = '';

  /**
   * Adds one run as `[exec output]\n$ <command>\n<output>\n[exit N]`, so the model sees what ran
   * and how it ended. A run with no output that exited 0 tells nothing and is left out.
   */
  append(run: { command: string; output: string; exitCode: number }): void {
    const body = run.output.replace(/\n+$/, '');
    if (body.trim() === '' && run.exitCode === 0) return;
    const command = run.command.replace(/\\\n/g, ' ').replace(/\n/g, '\n  ');
    this.note(`[exec output]\n$ ${command}\n${body.trim() === '' ? '' : `${body}\n`}[exit ${run.exitCode}]`);
  }

  /** Adds a note from aish for the model (a denied command), as is. */
  note(text: string): void {
    this.#text = this.#text === '' ? text : `${this.#text}\n${text}`;
  }

  /** The buffer as it would be sent. */
  get text(): string {
    return this.#text;
  }

  get isEmpty(): boolean {
    return this.#text === '';
  }

  /** Returns the buffer and empties it (the user turn now carries it). */
  take(): string {
    const text = this.#text;
    this.#text = '';
    return text;
  }

  /** Puts back a buffer taken for a request that failed, ahead of anything added since. */
  restore(taken: string): void {
    if (taken === '') return;
    this.#text = this.#text === '' ? taken : `${taken}\n${this.#text}`;
  }

  /** Drops everything added after `text` was the buffer (a run that turns out not to count). */
  rollback(text: string): void {
    if (this.#text.startsWith(text)) this.#text = text;
  }

  clear(): void {
    this.#text = '';
  }
}
