// The session's lifecycle (SPEC §8): the JSONL log is created with the first thing worth keeping,
// records turns, summaries and tool audits, and is listed, named (`:save`) and resumed (`:resume`,
// `--resume`) from here. `:reset` ends the log (the next turn starts a new one), so a saved
// session stays a point to come back to. A resumed conversation is copied into the new log only
// when something new is said. One instance per aish process; off when there is no history dir,
// or in one-shot mode.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Context } from '../context/context.js';
import type { Turn } from '../context/turns.js';
import { UsageError } from '../errors.js';
import { SESSION_EXT, sessionsDir } from './format.js';
import { listSessions, resolveSession, type SessionInfo } from './list.js';
import { loadSession, type SessionToolRule } from './load.js';
import { SessionLog, type ToolAudit } from './session-log.js';

export interface SessionStoreOptions {
  /** Where sessions/ lives; undefined turns the session log off. */
  historyDir: string | undefined;
  /** Whether to keep a log at all (false in one-shot mode). */
  enabled: boolean;
  startedAt: Date;
  /** The preset in use at start (the header's `model`). */
  model: string;
  version: string;
  /** Status lines: why the log is off, or stopped. Said once. */
  onStatus: (message: string) => void;
  /** Applied to every line written (secrets become `[redacted:NAME]`). */
  redact: (line: string) => string;
}

export interface ResumeResult {
  file: string;
  turns: number;
  warnings: string[];
  /** Unanswered tool calls closed as interrupted. */
  repaired: number;
  /** The session's `:tools` switches, null when it had none. */
  toolRules: SessionToolRule[] | null;
  /** Turns made up to close the end of the log (open calls, a last question without reply), in order. */
  closing: Turn[];
}

/** What the turn core records: every completed turn, tool audits, summary changes and resets. */
export interface SessionRecorder {
  turn(turn: Turn): void;
  /**
   * A question whose request failed before anything answered it: it is not part of the
   * conversation (the person asks again), but the log keeps it, with why.
   */
  unanswered(question: string, error: string): void;
  audit(record: ToolAudit): void;
  summary(summary: string): void;
  reset(): void;
}

/** A resumed conversation waiting to be copied into the next log. */
interface PendingCopy {
  from: string;
  summary: string | null;
  toolRules: ResumeResult['toolRules'];
  turns: readonly Turn[];
}

export class SessionStore implements SessionRecorder {
  readonly #opts: SessionStoreOptions;
  #log: SessionLog | null = null;
  #problemShown = false;
  #pendingCopy: PendingCopy | null = null;

  constructor(opts: SessionStoreOptions) {
    this.#opts = opts;
  }

  /** The active session file, if one was written. */
  get file(): string | null {
    return this.#log?.file ?? null;
  }

  turn(turn: Turn): void {
    this.#ensureLog()?.appendTurn(turn);
  }

  unanswered(question: string, error: string): void {
    this.#ensureLog()?.appendUnanswered(question, error);
  }

  audit(record: ToolAudit): void {
    this.#ensureLog()?.appendToolAudit(record);
  }

  summary(summary: string): void {
    this.#ensureLog()?.appendSummary(summary);
  }

  /** `:tools enable|disable`: the switches as they stand, so a resume restores them. */
  toolRules(rules: readonly SessionToolRule[]): void {
    this.#ensureLog()?.appendEvent('tools', { rules });
  }

  /** `:reset`: the log ends here, unchanged; the next turn starts a new one. */
  reset(): void {
    this.#log?.close();
    this.#log = null;
    this.#pendingCopy = null;
  }

  /** Sessions on disk, newest first, with the active one marked. */
  async list(): Promise<SessionInfo[]> {
    return listSessions(this.#requireDir(), this.file);
  }

  /** Session names on disk (for Tab completion), without reading the files. */
  names(): string[] {
    const dir = this.#opts.historyDir;
    if (!dir) return [];
    try {
      return readdirSync(sessionsDir(dir))
        .filter((f) => f.endsWith(SESSION_EXT))
        .map((f) => f.slice(0, -SESSION_EXT.length));
    } catch {
      return [];
    }
  }

  /** `:save <name>`: renames the active log and keeps appending to it. */
  save(name: string): string {
    const log = this.#ensureLog();
    if (!log?.enabled) throw new UsageError('session history is off; nothing to save');
    return log.rename(name);
  }

  /**
   * Loads a session's turns (and summary) into the empty `context` and writes them into the active
   * log, so it is complete on its own. Refuses while the conversation is not empty.
   */
  async resumeInto(context: Context, nameOrLast: string): Promise<ResumeResult> {
    if (context.length > 0) throw new UsageError('the conversation is not empty (:reset first)');
    const dir = this.#requireDir();
    const file = await resolveSession(dir, nameOrLast, this.file);
    const loaded = await loadSession(file, { keepTurns: context.maxTurns * 4 });
    context.appendMany(loaded.turns);
    if (loaded.summary) context.setSummary(loaded.summary);
    // Copied into the log with the first new turn: resuming to look costs no file.
    this.#pendingCopy = { from: path.basename(file), summary: loaded.summary, toolRules: loaded.toolRules, turns: [...context.turns] };
    const made = new Set<Turn>(loaded.repaired);
    let first = loaded.turns.length;
    while (first > 0 && made.has(loaded.turns[first - 1]!)) first--;
    return {
      file,
      turns: context.length,
      warnings: loaded.warnings,
      repaired: loaded.repaired.filter((t) => t.role === 'tool').length,
      toolRules: loaded.toolRules,
      closing: loaded.turns.slice(first),
    };
  }

  /**
   * Loads a session into the empty `context` and keeps writing to that same file (one-shot
   * `-p --resume`: a script continues a conversation in place).
   */
  async continueIn(context: Context, nameOrLast: string): Promise<ResumeResult> {
    const result = await this.resumeInto(context, nameOrLast);
    this.#pendingCopy = null;
    this.#log?.close();
    const { log, problem } = SessionLog.continue(result.file, { onProblem: this.#opts.onStatus, redact: this.#opts.redact });
    this.#log = log;
    if (problem) this.#opts.onStatus(problem);
    // The file goes on as the conversation does: what closed its end is written after it.
    for (const turn of result.closing) log.appendTurn(turn);
    return result;
  }

  close(): void {
    this.#log?.close();
  }

  #requireDir(): string {
    const dir = this.#opts.historyDir;
    if (!dir) throw new UsageError('session history is off (no history directory)');
    return dir;
  }

  #ensureLog(): SessionLog | null {
    if (!this.#opts.enabled) return null;
    if (this.#log) return this.#log;
    const copy = this.#pendingCopy;
    this.#pendingCopy = null;
    const { log, problem } = SessionLog.create({
      dir: this.#opts.historyDir,
      startedAt: this.#opts.startedAt,
      model: this.#opts.model,
      version: this.#opts.version,
      onProblem: this.#opts.onStatus,
      redact: this.#opts.redact,
    });
    this.#log = log;
    if (problem && !this.#problemShown) {
      this.#problemShown = true;
      this.#opts.onStatus(problem);
    }
    if (copy) {
      log.appendEvent('resumed', { from: copy.from });
      if (copy.summary) log.appendSummary(copy.summary);
      if (copy.toolRules) log.appendEvent('tools', { rules: copy.toolRules });
      for (const turn of copy.turns) log.appendTurn(turn);
    }
    return log;
  }
}
