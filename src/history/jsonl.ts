// The one way aish reads its JSONL files (session logs, memory): each non-blank line parsed on its
// own, a line that is not JSON reported rather than fatal, and the problems kept as a capped list of
// one-line warnings, so a file of a million broken lines costs twenty lines of output.

/** A non-blank line of the file: its record, or `invalid` when it is not JSON. */
export type JsonlLine = { lineNo: number; record: unknown; invalid?: undefined } | { lineNo: number; invalid: true };

/** The lines of `text`, numbered from 1, blank ones left out. */
export function* jsonlLines(text: string): Generator<JsonlLine> {
  let lineNo = 0;
  for (const line of text.split('\n')) yield* parsed(line, ++lineNo);
}

/** The same for lines read one by one (a file streamed through readline). */
export async function* jsonlStream(lines: AsyncIterable<string>): AsyncGenerator<JsonlLine> {
  let lineNo = 0;
  for await (const line of lines) yield* parsed(line, ++lineNo);
}

function* parsed(line: string, lineNo: number): Generator<JsonlLine> {
  if (line.trim() === '') return;
  try {
    yield { lineNo, record: JSON.parse(line) as unknown };
  } catch {
    yield { lineNo, invalid: true };
  }
}

/** How many problem lines a reader names; the rest are counted in one more line. */
export const MAX_WARNINGS = 20;

/** Problems found in a file, one line each, at most `max` of them named. */
export class CappedWarnings {
  readonly #lines: string[] = [];
  #more = 0;

  constructor(private readonly max = MAX_WARNINGS) {}

  add(message: string): void {
    if (this.#lines.length < this.max) this.#lines.push(message);
    else this.#more++;
  }

  /** The warnings, with `N more problem lines skipped` when some were not named. */
  get list(): string[] {
    return this.#more > 0 ? [...this.#lines, `${this.#more} more problem lines skipped`] : [...this.#lines];
  }
}
