// The pending exec output buffer (SPEC §4): what commands printed since the last user turn, each
// with its command line and exit status, and aish's notes about commands that did not run. It is
// not a turn; the next genuine user turn carries it in front of the typed text. It knows which
// numbered blocks (src/blocks/) it holds, so a block named in the question is not sent twice.

/** Builds the content of a user turn from the pending buffer and the typed text. */
export function mergeUserTurn(pending: string, text: string): string {
  return pending === '' ? text : `${pending}\n\n${text}`;
}

export class PendingOutput {
  #text = '';
  /** The blocks in the buffer: each block's number and the buffer's length once it was added. */
  #blocks: Array<{ n: number; end: number }> = [];
  /** What the last `take` returned, with its blocks, for `restore`. */
  #taken: { text: string; blocks: number[] } | null = null;

  /**
   * Adds one run as `[exec output]\n$ <command>\n<output>\n[exit N]`, so the model sees what ran
   * and how it ended. A run with no output that exited 0 tells nothing and is left out. `block`
   * is the run's number in the session's blocks.
   */
  append(run: { command: string; output: string; exitCode: number; block?: number }): void {
    const body = run.output.replace(/\n+$/, '');
    if (body.trim() === '' && run.exitCode === 0) return;
    const command = run.command.replace(/\\\n/g, ' ').replace(/\n/g, '\n  ');
    this.note(`[exec output]\n$ ${command}\n${body.trim() === '' ? '' : `${body}\n`}[exit ${run.exitCode}]`);
    if (run.block !== undefined) this.#blocks.push({ n: run.block, end: this.#text.length });
  }

  /** Whether block `n` is in the buffer: the next question carries it already. */
  holds(n: number): boolean {
    return this.#blocks.some((b) => b.n === n);
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
    this.#taken = { text, blocks: this.#blocks.map((b) => b.n) };
    this.#text = '';
    this.#blocks = [];
    return text;
  }

  /** Puts back a buffer taken for a request that failed, ahead of anything added since. */
  restore(taken: string): void {
    if (taken === '') return;
    const shift = this.#text === '' ? taken.length : taken.length + 1;
    const back = this.#taken?.text === taken ? this.#taken.blocks.map((n) => ({ n, end: taken.length })) : [];
    this.#blocks = [...back, ...this.#blocks.map((b) => ({ n: b.n, end: b.end + shift }))];
    this.#text = this.#text === '' ? taken : `${taken}\n${this.#text}`;
  }

  /** Drops everything added after `text` was the buffer (a run that turns out not to count). */
  rollback(text: string): void {
    if (!this.#text.startsWith(text)) return;
    this.#text = text;
    this.#blocks = this.#blocks.filter((b) => b.end <= text.length);
  }

  clear(): void {
    this.#text = '';
    this.#blocks = [];
  }
}
