// Lines that arrive in the background (server log messages). While aish works they are shown at
// once; while the person is at the prompt or answering a question they are held, so nothing lands
// in the middle of the line being typed, and shown when the line is entered. At most `max` are
// held; past that they are counted and the count is shown instead.

export class BackgroundLines {
  #held: string[] = [];
  #dropped = 0;
  #atPrompt = false;

  constructor(
    private readonly show: (line: string) => void,
    private readonly max = 20,
  ) {}

  push(line: string): void {
    if (!this.#atPrompt) return this.show(line);
    if (this.#held.length < this.max) this.#held.push(line);
    else this.#dropped++;
  }

  /** Around a read of the terminal: `true` holds lines, `false` shows what was held and stops holding. */
  atPrompt(reading: boolean): void {
    this.#atPrompt = reading;
    if (reading) return;
    for (const line of this.#held.splice(0)) this.show(line);
    if (this.#dropped > 0) this.show(`${this.#dropped} more background message${this.#dropped === 1 ? '' : 's'} not shown`);
    this.#dropped = 0;
  }
}
