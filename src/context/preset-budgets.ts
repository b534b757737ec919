// What each preset's server said of its context length, asked once per preset in the background
// (a question never waits for it), and the token budget that follows from it. No I/O of its own:
// the question is given.

/** Of a server's context, the part the turns may take: the rest is for the system message, the tools and the reply. */
export function budgetFromContextLength(contextLength: number): number {
  return Math.floor((contextLength * 3) / 4);
}

/** Of the token budget, the part the pending output of commands may take, in chars (4 a token). */
export function pendingShareChars(tokenBudget: number): number {
  return tokenBudget * 2;
}

export class PresetBudgets {
  readonly #ask: (preset: string) => Promise<number | null>;
  readonly #onAnswer: (preset: string, contextLength: number) => void;
  readonly #answers = new Map<string, number | null>();
  readonly #asked = new Set<string>();

  /** `ask` never rejects (null: the server did not say); `onAnswer` hears each length a server said. */
  constructor(ask: (preset: string) => Promise<number | null>, onAnswer: (preset: string, contextLength: number) => void) {
    this.#ask = ask;
    this.#onAnswer = onAnswer;
  }

  /** The context length `preset`'s server said: a number, null (it did not say), undefined (not known yet). */
  answer(preset: string): number | null | undefined {
    return this.#answers.get(preset);
  }

  /** Asks `preset`'s server, the first time only; returns at once. */
  askOnce(preset: string): void {
    if (this.#asked.has(preset)) return;
    this.#asked.add(preset);
    void this.#ask(preset)
      .catch(() => null)
      .then((length) => {
        this.#answers.set(preset, length);
        if (length !== null) this.#onAnswer(preset, length);
      });
  }
}
