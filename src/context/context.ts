// The context store (SPEC §7): the conversation's turns in order, kept within a turn and token
// budget by evicting the oldest whole exchanges, with an optional rolling summary of what was
// evicted. No I/O but the summarize callback and the onStatus/onSummary callbacks it is given.
//
// Eviction is synchronous: every append leaves the turns within budget (when that is possible
// without touching the current exchange). Summarizing is asynchronous: evicted turns wait in a
// queue until `settle()` (or `enforceBudget()`, which the app awaits before each request) runs
// the summarizer, so the next system message carries the new summary.

import { errorMessage } from '../errors.js';
import { toChatMessages, type ChatMessage } from './messages.js';
import {
  ContextOrderError,
  charsToTokens,
  nextOpenCalls,
  orderProblem,
  parseTurn,
  turnChars,
  withToolName,
  type ToolCall,
  type Turn,
  type UserTurn,
} from './turns.js';

/** Condenses evicted turns into a new summary; `evicted` is empty when asked to shorten `prior`. */
export type Summarizer = (priorSummary: string | null, evicted: readonly Turn[], signal?: AbortSignal) => Promise<string | null>;

export type ContextStatusKind = 'context' | 'status';

export interface ContextOptions {
  /** Most turns kept (default 40). */
  maxTurns?: number;
  /** Most estimated tokens kept, chars / 4 (default 4096; a session's comes from the turn core). */
  tokenBudget?: number;
  /** Where `tokenBudget` came from (default: the config when given, else aish's default). */
  budgetSource?: BudgetSource;
  /** Tool results as `role: "tool"` messages (default true) or as `[tool: <name>]` user text. */
  useToolRole?: boolean;
  /** Turns evicted are summarized through this when given (and summarizing is on). */
  summarize?: Summarizer;
  /** A summary longer than this is summarized again, then cut (default 2000). */
  maxSummaryChars?: number;
  /** `context` lines become `[context] ...`, `status` lines `[aish] ...`; the caller renders them. */
  onStatus?: (kind: ContextStatusKind, message: string) => void;
  /** Called with each new summary, e.g. to log it to the session. */
  onSummary?: (summary: string) => void;
}

const CUT_MARK = '…';

/** Where the token budget came from: the config, what the preset's server said, or the default. */
export type BudgetSource = { type: 'config' } | { type: 'server'; preset: string; contextLength: number } | { type: 'default' };


export class Context {
  readonly maxTurns: number;
  readonly useToolRole: boolean;
  readonly maxSummaryChars: number;
  readonly #summarize: Summarizer | undefined;
  readonly #onStatus: NonNullable<ContextOptions['onStatus']>;
  readonly #onSummary: ContextOptions['onSummary'];

  #tokenBudget: number;
  #budgetSource: BudgetSource;
  #turns: Turn[] = [];
  #chars = 0;
  /** Calls of the last assistant turn still waiting for their tool turn. */
  #open: ToolCall[] = [];
  #summary: string | null = null;
  #summarizing = true;
  /** Evicted turns waiting for the summarizer. */
  #evicted: Turn[] = [];
  /** Serialises summarizer runs; never rejects. */
  #settling: Promise<void> = Promise.resolve();
  /** Bumped by reset() so a summary that was running for the old conversation is dropped. */
  #generation = 0;

  constructor(options: ContextOptions = {}) {
    this.maxTurns = options.maxTurns ?? 40;
    this.#tokenBudget = options.tokenBudget ?? 4096;
    this.#budgetSource = options.budgetSource ?? (options.tokenBudget === undefined ? { type: 'default' } : { type: 'config' });
    this.useToolRole = options.useToolRole ?? true;
    this.maxSummaryChars = options.maxSummaryChars ?? 2000;
    this.#summarize = options.summarize;
    this.#onStatus = options.onStatus ?? (() => {});
    this.#onSummary = options.onSummary;
  }

  /** Most estimated tokens kept (chars / 4). */
  get tokenBudget(): number {
    return this.#tokenBudget;
  }

  get budgetSource(): BudgetSource {
    return this.#budgetSource;
  }

  /**
   * A new token budget (the preset's server said how much it holds): it applies from the next
   * `enforceBudget`, so nothing is evicted between two requests.
   */
  setTokenBudget(tokens: number, source: BudgetSource): void {
    this.#tokenBudget = Math.max(1, Math.floor(tokens));
    this.#budgetSource = source;
  }

  /** The turns, oldest first: a copy of the list; the turns themselves are frozen. */
  get turns(): readonly Turn[] {
    return this.#turns.slice();
  }

  get length(): number {
    return this.#turns.length;
  }

  /** The rolling summary of evicted turns (composed into the system message), or null. */
  get summary(): string | null {
    return this.#summary;
  }

  /** Whether evicted turns are summarized: a summarizer was given and Norris mode has not turned it off. */
  get summarizing(): boolean {
    return this.#summarize !== undefined && this.#summarizing;
  }

  /**
   * Adds a turn after checking its shape and its place (see `orderProblem`), then evicts old
   * exchanges while over budget. Returns the stored turn (a tool turn gains the called tool's
   * `name` when it came without one). Throws ContextOrderError and changes nothing when the turn
   * does not fit.
   */
  append(turn: Turn): Turn {
    const [stored] = this.#accept([turn]);
    this.#evict();
    return stored!;
  }

  /**
   * Adds several turns (a resumed session) as one: all are checked first, nothing is added when
   * one does not fit, and eviction runs once at the end, so it reports one line.
   */
  appendMany(turns: readonly Turn[]): void {
    this.#accept(turns);
    this.#evict();
  }

  /** The calls of the last assistant turn that have no tool turn yet, in order. */
  openToolCalls(): ToolCall[] {
    return this.#open.slice();
  }

  /**
   * Removes the last turn if it is a user turn and returns it, else returns null and changes
   * nothing. For a request that failed before any reply (SPEC §4); exchanges evicted when the turn
   * was added stay evicted.
   */
  popLastUserTurn(): UserTurn | null {
    const last = this.#turns[this.#turns.length - 1];
    if (last?.role !== 'user') return null;
    this.#turns.pop();
    this.#chars -= turnChars(last);
    return last;
  }

  /** Estimated tokens of the turns (chars / 4 over contents and tool calls); the system message is not counted. */
  estimateTokens(): number {
    return charsToTokens(this.#chars);
  }

  /** The request messages with `system` first; see `toChatMessages` for the shape. */
  toMessages(system: string): ChatMessage[] {
    return toChatMessages(system, this.#turns, { useToolRole: this.useToolRole });
  }

  /**
   * Evicts while over budget, then waits for the summarizer to take in what was evicted (see
   * `settle`). Await it before composing a request's system message.
   */
  enforceBudget(signal?: AbortSignal): Promise<void> {
    this.#evict();
    return this.settle(signal);
  }

  /**
   * Runs the summarizer over the turns evicted so far, if any, and resolves when the summary is
   * current. A summarizer failure does not reject: the turns stay evicted without a summary and
   * one `status` line says why. Only a throwing onStatus/onSummary callback rejects (this call).
   * When `signal` aborts (Ctrl-C), the summary in progress is abandoned and its turns wait for the
   * next settle, so nothing is dropped for a cancel.
   */
  settle(signal?: AbortSignal): Promise<void> {
    const run = this.#settling.then(() => this.#drain(signal));
    this.#settling = run.catch(() => {});
    return run;
  }

  /** Turns summarizing on or off (Norris mode turns it off); off drops turns waiting for it. */
  setSummarizing(enabled: boolean): void {
    this.#summarizing = enabled;
    if (!enabled) this.#evicted = [];
  }

  /** Restores a summary, e.g. from a resumed session. */
  setSummary(summary: string | null): void {
    this.#summary = summary === '' ? null : summary;
  }

  /** Empties the conversation: turns, open calls, summary and anything waiting to be summarized. */
  reset(): void {
    this.#turns = [];
    this.#chars = 0;
    this.#open = [];
    this.#summary = null;
    this.#evicted = [];
    this.#generation++;
  }

  #accept(turns: readonly Turn[]): Turn[] {
    let last = this.#turns[this.#turns.length - 1];
    let open = this.#open;
    const accepted: Turn[] = [];
    for (const raw of turns) {
      const turn = withToolName(parseTurn(raw), open);
      const problem = orderProblem(last, open, turn);
      if (problem) throw new ContextOrderError(`cannot append ${turn.role} turn: ${problem}`);
      accepted.push(turn);
      open = nextOpenCalls(open, turn);
      last = turn;
    }
    for (const turn of accepted) {
      this.#turns.push(turn);
      this.#chars += turnChars(turn);
    }
    this.#open = open;
    return accepted;
  }

  #overBudget(): boolean {
    return this.#turns.length > this.maxTurns || this.estimateTokens() > this.#tokenBudget;
  }

  /**
   * Drops the oldest exchange (a user turn and every turn up to the next user turn) while over
   * budget. The last exchange is never touched, so open tool calls are never orphaned; when it
   * alone is over budget, it stays.
   */
  #evict(): void {
    let dropped = 0;
    while (this.#overBudget()) {
      const next = this.#turns.findIndex((t, i) => i > 0 && t.role === 'user');
      if (next === -1) break;
      const evicted = this.#turns.splice(0, next);
      for (const turn of evicted) this.#chars -= turnChars(turn);
      dropped += evicted.length;
      if (this.summarizing) this.#evicted.push(...evicted);
    }
    if (dropped > 0) this.#onStatus('context', `oldest ${dropped} turn${dropped === 1 ? '' : 's'} evicted`);
  }

  async #drain(signal: AbortSignal | undefined): Promise<void> {
    while (this.#evicted.length > 0 && this.summarizing && !signal?.aborted) {
      const evicted = this.#evicted;
      this.#evicted = [];
      const generation = this.#generation;
      const summary = await this.#summarizeTurns(evicted, signal);
      if (generation !== this.#generation) return;
      if (signal?.aborted) {
        // Cancelled, not failed: the turns wait (oldest first) for the next request's summary.
        if (this.summarizing) this.#evicted = [...evicted, ...this.#evicted];
        return;
      }
      if (summary === null) continue;
      this.#summary = summary;
      this.#onSummary?.(summary);
    }
  }

  /** The new summary for `evicted`, shortened to fit, or null after reporting the failure. */
  async #summarizeTurns(evicted: Turn[], signal: AbortSignal | undefined): Promise<string | null> {
    const summarize = this.#summarize!;
    let summary: string | null;
    try {
      summary = await summarize(this.#summary, evicted, signal);
    } catch (err) {
      if (signal?.aborted) return null;
      this.#reportFailure(errorMessage(err), evicted.length);
      return null;
    }
    if (summary === null || summary.trim() === '') {
      this.#reportFailure('the summarizer returned nothing', evicted.length);
      return null;
    }
    summary = summary.trim();
    if (summary.length <= this.maxSummaryChars) return summary;
    try {
      const shorter = await summarize(summary, [], signal);
      if (shorter && shorter.trim() !== '') summary = shorter.trim();
    } catch {
      // The long summary is still good; it is cut below.
    }
    return summary.length <= this.maxSummaryChars ? summary : cutSummary(summary, this.maxSummaryChars);
  }

  #reportFailure(reason: string, turns: number): void {
    this.#onStatus('status', `summary failed (${reason}); ${turns} evicted turns dropped without a summary`);
  }
}

/** Keeps the head of an over-long summary, marking the cut. */
function cutSummary(summary: string, max: number): string {
  return summary.slice(0, Math.max(0, max - CUT_MARK.length)) + CUT_MARK;
}
