// The pending exec output buffer (SPEC §4): what commands printed since the last user turn. It is
// not a turn; the next genuine user turn carries it in front of the typed text.

/** Builds the content of a user turn from the pending buffer and the typed text. */
export function mergeUserTurn(pending: string, text: string): string {
  return pending === '' ? text : `${pending}\n\n${text}`;
}

export class PendingOutput {
  #text = '';

  /** Adds one run's captured output as `[exec output]\n<output>`; empty output is ignored. */
  append(output: string): void {
    const body = output.replace(/\n+$/, '');
    if (body.trim() === '') return;
    const entry = `[exec output]\n${body}`;
    this.#text = this.#text === '' ? entry : `${this.#text}\n${entry}`;
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

  clear(): void {
    this.#text = '';
  }
}
