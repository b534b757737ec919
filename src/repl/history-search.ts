// Ctrl-R: reverse incremental search through the input history, as in bash. The line reader feeds
// it keys while a search is on and draws what it says; this unit only decides. Pure.
//
//   Ctrl-R          older match (with an empty query: the query of the last search)
//   Ctrl-S          newer match
//   a character     extends the query; the search goes on from the current match
//   Backspace       shortens the query; the current match stays when it still matches
//   Enter           accepts the match and submits it (bash runs it too)
//   Esc, Ctrl-G,
//   Ctrl-C          cancel: the line comes back as it was before Ctrl-R
//   anything else   accepts the match onto the line and then acts on it (arrows, Home/End,
//                   Ctrl-A/E/K/U, Tab...), so the match can be edited first

/** The part of a node:readline keypress this needs. */
export interface SearchKey {
  name?: string | undefined;
  ctrl?: boolean | undefined;
  meta?: boolean | undefined;
}

/** What the reader does after a key: redraw, leave with the match (and maybe act on the key), or restore. */
export type SearchStep = { type: 'show' } | { type: 'accept'; forward: boolean } | { type: 'cancel' };

export class HistorySearch {
  #query = '';
  /** Index into the history (newest first) of the line shown; -1 before any match. */
  #index = -1;
  /** Where the query starts in the line shown. */
  #at = 0;
  #failed = false;

  /**
   * `history` is newest first (readline's order); `line` and `cursor` are the line being edited
   * when Ctrl-R was pressed; `lastQuery` is the query of the previous search, reused by Ctrl-R
   * on an empty query.
   */
  constructor(
    private readonly history: readonly string[],
    private readonly original: { line: string; cursor: number },
    private readonly lastQuery = '',
  ) {}

  get query(): string {
    return this.#query;
  }

  /** bash's prompt: ``(reverse-i-search)`query': `` or ``(failed reverse-i-search)`query': ``. */
  get prompt(): string {
    return `(${this.#failed ? 'failed ' : ''}reverse-i-search)\`${this.#query}': `;
  }

  /** The line shown after the prompt: the match, or the original line before any match. */
  get line(): string {
    return this.#index === -1 ? this.original.line : this.history[this.#index]!;
  }

  /** The cursor in `line`: at the start of the query in the match. */
  get cursor(): number {
    return this.#index === -1 ? this.original.cursor : this.#at;
  }

  /** One key (`s` is the character typed, if any). */
  key(s: string | undefined, key: SearchKey): SearchStep {
    const name = key.name;
    if (key.ctrl && !key.meta) {
      if (name === 'r') return this.#older();
      if (name === 's') return this.#newer();
      if (name === 'g' || name === 'c') return { type: 'cancel' };
      if (name === 'h') return this.#backspace();
    }
    if (name === 'escape') return { type: 'cancel' };
    if (name === 'backspace') return this.#backspace();
    if (name === 'return') return { type: 'accept', forward: true };
    if (!key.ctrl && !key.meta && s !== undefined && isPrintable(s)) {
      this.#query += s;
      this.#find(Math.max(this.#index, 0), 1);
      return { type: 'show' };
    }
    return { type: 'accept', forward: true };
  }

  #older(): SearchStep {
    if (this.#query === '') {
      if (this.lastQuery === '') return { type: 'show' };
      this.#query = this.lastQuery;
      this.#find(0, 1);
      return { type: 'show' };
    }
    this.#find(this.#index + 1, 1);
    return { type: 'show' };
  }

  #newer(): SearchStep {
    if (this.#query !== '' && this.#index > 0) this.#find(this.#index - 1, -1);
    return { type: 'show' };
  }

  #backspace(): SearchStep {
    if (this.#query === '') return { type: 'show' };
    const chars = [...this.#query];
    chars.pop();
    this.#query = chars.join('');
    if (this.#query === '') {
      this.#failed = false;
      return { type: 'show' };
    }
    this.#find(Math.max(this.#index, 0), 1);
    return { type: 'show' };
  }

  /**
   * The first line from `from` on, in `step` direction (1: older), that holds the query and is
   * not the line shown now (unless it is that very entry). Not found: the match stays, failed.
   */
  #find(from: number, step: 1 | -1): void {
    const shown = this.#index === -1 ? null : this.history[this.#index];
    for (let i = from; i >= 0 && i < this.history.length; i += step) {
      const entry = this.history[i]!;
      if (i !== this.#index && entry === shown) continue;
      const at = entry.indexOf(this.#query);
      if (at === -1) continue;
      this.#index = i;
      this.#at = at;
      this.#failed = false;
      return;
    }
    this.#failed = true;
  }
}

/** A typed character that goes into the query (no control characters). */
function isPrintable(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return s.length > 0 && !/[\x00-\x1f\x7f-\x9f]/.test(s);
}
