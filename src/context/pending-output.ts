// The pending exec output buffer (SPEC §4): what commands printed since the last user turn, each
// with its command line and exit status, and aish's notes about commands that did not run. It is
// not a turn; the next genuine user turn carries it in front of the typed text, cut to a share of
// the context's budget (`cutPending`) so that command output never evicts the conversation itself.
// It knows which numbered blocks (src/blocks/) it holds, so a block named in the question is not
// sent twice.

/** Builds the content of a user turn from the pending buffer and the typed text. */
export function mergeUserTurn(pending: string, text: string): string {
  return pending === '' ? text : `${pending}\n\n${text}`;
}

/** One thing waiting for the next user turn: a command's run (with its block's number), or a note
 * from aish as is (a buffer put back after a failed request keeps the blocks it held). */
export type PendingEntry =
  | { type: 'run'; command: string; body: string; exitCode: number; block?: number }
  | { type: 'note'; text: string; blocks?: readonly number[] };

/** An older run cut to less than this is named only: a few lines of head and tail tell nothing. */
const MIN_CUT_CHARS = 400;

export class PendingOutput {
  #entries: PendingEntry[] = [];
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
    this.#entries.push({ type: 'run', command, body: body.trim() === '' ? '' : body, exitCode: run.exitCode, ...(run.block !== undefined ? { block: run.block } : {}) });
  }

  /** Whether block `n` is in the buffer: the next question carries it already. */
  holds(n: number): boolean {
    return this.#entries.some((e) => (e.type === 'run' ? e.block === n : (e.blocks ?? []).includes(n)));
  }

  /** Adds a note from aish for the model (a denied command), as is. */
  note(text: string): void {
    this.#entries.push({ type: 'note', text });
  }

  /** The buffer as it would be sent whole. */
  get text(): string {
    return this.#entries.map(entryText).join('\n');
  }

  get isEmpty(): boolean {
    return this.#entries.length === 0;
  }

  /**
   * Returns the buffer and empties it (the user turn now carries it). With `maxChars` the runs are
   * cut to fit it, as `cutPending` says.
   */
  take(maxChars?: number): string {
    const text = maxChars === undefined ? this.text : cutPending(this.#entries, maxChars);
    this.#taken = { text, blocks: this.#entries.flatMap((e) => (e.type === 'run' ? (e.block !== undefined ? [e.block] : []) : [...(e.blocks ?? [])])) };
    this.#entries = [];
    return text;
  }

  /** Puts back a buffer taken for a request that failed, ahead of anything added since. */
  restore(taken: string): void {
    if (taken === '') return;
    const blocks = this.#taken?.text === taken ? this.#taken.blocks : [];
    this.#entries.unshift({ type: 'note', text: taken, ...(blocks.length > 0 ? { blocks } : {}) });
  }

  /** Drops everything added after `text` was the buffer (a run that turns out not to count). */
  rollback(text: string): void {
    if (!this.text.startsWith(text)) return;
    while (this.#entries.length > 0 && this.text.length > text.length) this.#entries.pop();
  }

  clear(): void {
    this.#entries = [];
  }
}

function entryText(entry: PendingEntry): string {
  if (entry.type === 'note') return entry.text;
  return runText(entry, entry.body);
}

function runText(run: { command: string; exitCode: number }, body: string): string {
  return `[exec output]\n$ ${run.command}\n${body === '' ? '' : `${body}\n`}[exit ${run.exitCode}]`;
}

/**
 * The entries as text within `maxChars` (when that can be): notes whole, then the runs from the
 * newest back, each whole while it fits, else its head and tail around a marker, and once too
 * little is left for that, named only (command and exit status): room for the names of the older
 * runs is kept back, so each is at least named. The newest run is cut too when it alone is over. Pure.
 */
export function cutPending(entries: readonly PendingEntry[], maxChars: number): string {
  const whole = entries.map(entryText);
  if (whole.join('\n').length <= maxChars) return whole.join('\n');
  const named = entries.map((e) => (e.type === 'run' ? runText(e, `[output left out: ${lineCount(e.body)} lines, ${e.body.length} chars]`).length + 1 : 0));
  let left = maxChars - entries.reduce((n, e) => n + (e.type === 'note' ? e.text.length + 1 : 0), 0);
  let reserved = named.reduce((a, b) => a + b, 0);
  const shown = whole.slice();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.type === 'note') continue;
    reserved -= named[i]!;
    const room = left - reserved;
    const bodyRoom = room - runText(entry, '').length - 2;
    if (whole[i]!.length + 1 <= room) shown[i] = whole[i]!;
    else if (bodyRoom >= MIN_CUT_CHARS) shown[i] = runText(entry, headAndTail(entry.body, bodyRoom));
    else shown[i] = runText(entry, `[output left out: ${lineCount(entry.body)} lines, ${entry.body.length} chars]`);
    left -= shown[i]!.length + 1;
  }
  return shown.join('\n');
}

/** `text` cut to at most `max` chars: its head and tail, at line boundaries when near, the middle named. */
function headAndTail(text: string, max: number): string {
  const markerChars = `\n[... ${text.length} chars left out ...]\n`.length;
  const half = Math.max(0, Math.floor((max - markerChars) / 2));
  const headEnd = text.lastIndexOf('\n', half);
  const head = text.slice(0, headEnd > half / 2 ? headEnd : half);
  const tailStart = text.indexOf('\n', text.length - half);
  const tail = text.slice(tailStart !== -1 && tailStart < text.length - half / 2 ? tailStart + 1 : text.length - half);
  return `${head}\n[... ${text.length - head.length - tail.length} chars left out ...]\n${tail}`;
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}
