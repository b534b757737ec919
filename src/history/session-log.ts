// The active session's JSONL log (SPEC §8): a header line, then one line per completed turn and
// `{"event": ...}` records. Each line is one synchronous append on an open descriptor, so a crash
// loses at most the line being written, and a write that fails part way (a full disk) is cut
// back, so every line in the file is whole. It writes exactly what it is given and nothing else.

import fs from 'node:fs';
import path from 'node:path';
import { UsageError, errorMessage, fileWriteProblem } from '../errors.js';
import { appendWhole } from './append-whole.js';
import type { Turn } from '../context/turns.js';
import { SESSION_EXT, SESSION_FORMAT, sessionStem, sessionsDir, turnLine, type SessionMeta } from './format.js';

export interface SessionLogOptions {
  /** The history dir (`history.dir`); sessions go to `<dir>/sessions`. Undefined turns logging off. */
  dir: string | undefined;
  startedAt: Date;
  /** The preset in use at start. */
  model: string;
  version: string;
  /** Told once when a later write fails and the log turns itself off. */
  onProblem?: (message: string) => void;
  /** Applied to every line before it is written (secrets become `[redacted:NAME]`). */
  redact?: (line: string) => string;
}

/** One tool call as decided and run, for the audit trail (an `"event":"tool"` record). */
export interface ToolAudit {
  name: string;
  /** The raw arguments text the model sent. */
  arguments: string;
  decision: 'approved' | 'declined' | 'invalid';
  /** Who decided: the auto_approve policy, the person, an earlier "always", nobody (no terminal), or aish (invalid arguments). */
  by: 'policy' | 'user' | 'always' | 'no-terminal' | 'aish';
  duration_ms: number;
  outcome: 'ok' | 'error' | 'denied' | 'needs_approval' | 'cancelled';
}

export interface SessionLogCreated {
  /** Always usable; when logging is off its methods do nothing. */
  log: SessionLog;
  /** Why logging is off (one status line for the app), or null when it is on. */
  problem: string | null;
}

const MAX_NAME_TRIES = 1000;

export class SessionLog {
  #fd: number | null;
  #file: string | null;
  readonly #onProblem: ((message: string) => void) | undefined;
  readonly #redact: (line: string) => string;

  private constructor(fd: number | null, file: string | null, onProblem?: (message: string) => void, redact?: (line: string) => string) {
    this.#fd = fd;
    this.#file = file;
    this.#onProblem = onProblem;
    this.#redact = redact ?? ((line) => line);
  }

  /**
   * Creates `<dir>/sessions/<YYYY-MM-DDTHH-MM-SSZ>.jsonl` (UTC; `-2`, `-3`, ... when taken) with
   * the header line; dirs are created 0700, the file 0600. Never throws: when the dir is unset
   * or cannot be written, the log is off and `problem` says why.
   */
  static create(options: SessionLogOptions): SessionLogCreated {
    if (!options.dir) {
      return { log: new SessionLog(null, null), problem: 'session history off: no history directory' };
    }
    const dir = sessionsDir(options.dir);
    let fd: number | null = null;
    let file = dir;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const stem = sessionStem(options.startedAt);
      for (let n = 1; fd === null; n++) {
        file = path.join(dir, `${n === 1 ? stem : `${stem}-${n}`}${SESSION_EXT}`);
        try {
          fd = fs.openSync(file, 'ax', 0o600);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n >= MAX_NAME_TRIES) throw err;
        }
      }
      const meta: SessionMeta = {
        started: options.startedAt.toISOString(),
        model: options.model,
        aish_version: options.version,
        format: SESSION_FORMAT,
      };
      appendWhole(fd, `${JSON.stringify({ meta })}\n`);
      return { log: new SessionLog(fd, file, options.onProblem, options.redact), problem: null };
    } catch (err) {
      if (fd !== null) {
        fs.closeSync(fd);
        // Ours, made a moment ago, and without its header: a file no listing could read.
        fs.rmSync(file, { force: true });
      }
      return { log: new SessionLog(null, null), problem: `session history off: cannot write ${file}: ${fileWriteProblem(err)}` };
    }
  }

  /**
   * Opens an existing session file to append to it (one-shot `-p --resume`: the conversation
   * goes on in the same file). A torn last line is ended first, so the next line stands alone.
   * Never throws: `problem` says why the log is off.
   */
  static continue(file: string, options: Pick<SessionLogOptions, 'onProblem' | 'redact'>): SessionLogCreated {
    let fd: number | null = null;
    try {
      fd = fs.openSync(file, 'a+', 0o600);
      const size = fs.fstatSync(fd).size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        fs.readSync(fd, last, 0, 1, size - 1);
        if (last[0] !== 0x0a) fs.writeSync(fd, '\n');
      }
      return { log: new SessionLog(fd, file, options.onProblem, options.redact), problem: null };
    } catch (err) {
      if (fd !== null) fs.closeSync(fd);
      return { log: new SessionLog(null, null), problem: `session history off: cannot write ${file}: ${fileWriteProblem(err)}` };
    }
  }

  /** The file being written, or null when logging is off. */
  get file(): string | null {
    return this.#file;
  }

  get enabled(): boolean {
    return this.#fd !== null;
  }

  /** Writes one completed turn as one line (see `turnLine` for the exact keys). */
  appendTurn(turn: Turn): void {
    this.#write(() => turnLine(turn));
  }

  /** Writes `{"event": <event>, ...data}`; loaders skip these records except `summary`. */
  appendEvent(event: string, data: Record<string, unknown> = {}): void {
    const { event: _ignored, ...rest } = data;
    this.#write(() => JSON.stringify({ event, ...rest }));
  }

  /** Records the rolling summary; on load, the last one wins. */
  appendSummary(summary: string | null): void {
    this.appendEvent('summary', { summary });
  }

  /**
   * Records a question whose request failed before any reply (`{"event":"unanswered"}`): kept,
   * but not a turn, so a resumed conversation is the one the person had.
   */
  appendUnanswered(content: string, error: string): void {
    this.appendEvent('unanswered', { role: 'user', content, error });
  }

  /** Records one tool call: what was asked, who allowed it, how long it took and how it ended. */
  appendToolAudit(audit: ToolAudit): void {
    this.appendEvent('tool_audit', { ...audit });
  }

  /**
   * Renames the file to `<dir>/sessions/<name>.jsonl` (`:save <name>`) and keeps appending to it.
   * Returns the new path. Throws UsageError for an empty name, one with a slash, a backslash or a
   * leading dot, an existing target, or when logging is off.
   */
  rename(name: string): string {
    if (this.#file === null) throw new UsageError('session history is off; nothing to save');
    const stem = name.trim().replace(/\.jsonl$/, '');
    if (stem === '' || /[/\\\0]/.test(stem) || stem.startsWith('.')) {
      throw new UsageError(`invalid session name '${name}': use a plain file name`);
    }
    const target = path.join(path.dirname(this.#file), `${stem}${SESSION_EXT}`);
    if (target === this.#file) return target;
    if (fs.existsSync(target)) throw new UsageError(`session '${stem}' already exists`);
    try {
      fs.renameSync(this.#file, target);
    } catch (err) {
      throw new UsageError(`cannot rename session to '${stem}': ${errorMessage(err)}`);
    }
    this.#file = target;
    return target;
  }

  /** Closes the file; later appends do nothing. Safe to call twice. */
  close(): void {
    if (this.#fd === null) return;
    const fd = this.#fd;
    this.#fd = null;
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed or gone; nothing is lost by not closing twice.
    }
  }

  /**
   * Writes one whole line or none (the line is made here, so a record too large to make stops the
   * log with a reason instead of throwing). The first failure ends the log, said once.
   */
  #write(make: () => string): void {
    if (this.#fd === null) return;
    try {
      appendWhole(this.#fd, `${this.#redact(make())}\n`);
    } catch (err) {
      const file = this.#file;
      this.close();
      this.#onProblem?.(`session log stopped: cannot write ${file}: ${fileWriteProblem(err)}; the lines written before are whole, later turns are not saved`);
    }
  }
}
