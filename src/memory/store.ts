// Long-term memory (SPEC §11): `<history.dir>/memory.jsonl`, append-only. Items are
// `{id, ts, kind, content}` lines; `{id, ts, forget: true}` forgets one and `{ts, clear: true}`
// forgets all before it. Every write re-reads the file under the lock, so ids stay unique.

import fs from 'node:fs';
import path from 'node:path';
import { AishError, UsageError, errorMessage, fileWriteProblem } from '../errors.js';
import { appendWhole } from '../history/append-whole.js';
import { CappedWarnings, jsonlLines } from '../history/jsonl.js';
import { withMemoryLock } from './lock.js';
import { isRecord } from '../is-record.js';

export const MEMORY_KINDS = ['fact', 'pref', 'context'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export interface MemoryItem {
  /** Unique for the life of the file: never reused, also after forget or clear. */
  id: number;
  /** ISO time of the write. */
  ts: string;
  kind: MemoryKind;
  /** One line, never empty. */
  content: string;
}

export const MEMORY_FILE = 'memory.jsonl';
export const MEMORY_LOCK = 'memory.lock';
export const BACKGROUND_HEADER = '[background] (memory.jsonl; manage via :memory)';
export const DEFAULT_MAX_INJECT_CHARS = 2000;

export interface MemoryStoreOptions {
  /** Clock for `ts`; tests pass a fixed one. */
  now?: () => Date;
  /** How long a write waits for another aish's lock (ms); see `withMemoryLock`. */
  lockWaitMs?: number;
  /** Applied to new content before it is written (secrets become `[redacted:NAME]`). */
  redact?: (text: string) => string;
}

/** What one read of the file found. */
interface Snapshot {
  live: MemoryItem[];
  maxId: number;
  /** False when the file is non-empty and its last line has no newline (a torn write). */
  endsClean: boolean;
  warnings: string[];
}


export class MemoryStore {
  readonly #dir: string | null;
  readonly #now: () => Date;
  readonly #lockWaitMs: number | undefined;
  readonly #redact: (text: string) => string;
  #warnings: string[] = [];

  private constructor(dir: string | null, options: MemoryStoreOptions) {
    this.#dir = dir;
    this.#now = options.now ?? (() => new Date());
    this.#lockWaitMs = options.lockWaitMs;
    this.#redact = options.redact ?? ((text) => text);
  }

  /**
   * A store over `<historyDir>/memory.jsonl`. Never throws and touches nothing on disk: the dir
   * (0700) and file (0600) are made by the first write. With no history dir the store is off:
   * reads return nothing and writes throw UsageError.
   */
  static open(historyDir: string | undefined, options: MemoryStoreOptions = {}): MemoryStore {
    return new MemoryStore(historyDir ? historyDir : null, options);
  }

  get enabled(): boolean {
    return this.#dir !== null;
  }

  /** The memory file, or null when memory is off. */
  get file(): string | null {
    return this.#dir === null ? null : path.join(this.#dir, MEMORY_FILE);
  }

  /** Problems found by the last read (`line 3: not valid JSON, skipped`); skipped lines cost nothing else. */
  get warnings(): string[] {
    return this.#warnings;
  }

  /** The live items, oldest first. Never throws: an unreadable file reads as empty, with a warning. */
  list(): MemoryItem[] {
    const file = this.file;
    if (file === null) return [];
    try {
      return this.#read(file).live;
    } catch (err) {
      this.#warnings = [errorMessage(err)];
      return [];
    }
  }

  /**
   * Appends a new item and returns it. Newlines in `content` become spaces. Throws UsageError for
   * an unknown kind, empty content or when memory is off; MemoryLockedError when another aish is
   * writing; AishError('memory') when the file cannot be read or written.
   */
  add(kind: string, content: string): MemoryItem {
    const file = this.#fileForWrite();
    const k = checkKind(kind);
    const text = this.#redact(oneLine(content));
    if (text === '') throw new UsageError('memory content is empty');
    return this.#locked(file, (snap) => {
      const item: MemoryItem = { id: snap.maxId + 1, ts: this.#now().toISOString(), kind: k, content: text };
      return { lines: [item], result: item };
    });
  }

  /** Forgets the live item `id` with a tombstone line. False (and nothing written) when there is none. */
  forget(id: number): boolean {
    const file = this.#fileForWrite();
    return this.#locked(file, (snap) => {
      if (!snap.live.some((item) => item.id === id)) return { lines: [], result: false };
      return { lines: [{ id, ts: this.#now().toISOString(), forget: true }], result: true };
    });
  }

  /** Forgets every live item with one `{ts, clear: true}` line; returns how many. Writes nothing when empty. */
  clear(): number {
    const file = this.#fileForWrite();
    return this.#locked(file, (snap) => {
      if (snap.live.length === 0) return { lines: [], result: 0 };
      return { lines: [{ ts: this.#now().toISOString(), clear: true }], result: snap.live.length };
    });
  }

  /** The `[background]` block for the next request ('' when there is nothing); see `formatBackground`. */
  inject(maxChars = DEFAULT_MAX_INJECT_CHARS): string {
    return formatBackground(this.list(), maxChars);
  }

  #fileForWrite(): string {
    const file = this.file;
    if (file === null) throw new UsageError('memory is off: no history directory');
    return file;
  }

  /** Reads the file and appends what `decide` returns, all under the lock, in one write. */
  #locked<T>(file: string, decide: (snap: Snapshot) => { lines: object[]; result: T }): T {
    const dir = path.dirname(file);
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new AishError('memory', `cannot create ${dir}: ${fileWriteProblem(err)}`, { cause: err });
    }
    const lockOptions = this.#lockWaitMs === undefined ? {} : { waitMs: this.#lockWaitMs };
    return withMemoryLock(
      path.join(dir, MEMORY_LOCK),
      () => {
        const snap = this.#read(file);
        const { lines, result } = decide(snap);
        if (lines.length === 0) return result;
        // A torn last line would swallow ours; start on a fresh line.
        const text = (snap.endsClean ? '' : '\n') + lines.map((l) => `${JSON.stringify(l)}\n`).join('');
        appendText(file, text);
        return result;
      },
      lockOptions,
    );
  }

  #read(file: string): Snapshot {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new AishError('memory', `cannot read memory ${file}: ${errorMessage(err)}`, { cause: err });
      }
      text = '';
    }
    const snap = parseMemoryFile(text);
    this.#warnings = snap.warnings;
    return snap;
  }
}

/**
 * The block SPEC §11 injects: the header line, then `- (<kind>) <content>` per item, newest
 * first, stopping before the block (lines joined by '\n') would pass `maxChars`. '' when no item fits.
 */
export function formatBackground(items: readonly MemoryItem[], maxChars = DEFAULT_MAX_INJECT_CHARS): string {
  let block = BACKGROUND_HEADER;
  let count = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    const next = `${block}\n- (${item.kind}) ${item.content}`;
    if (next.length > maxChars) break;
    block = next;
    count++;
  }
  return count === 0 ? '' : block;
}

/** Parses the whole file; bad lines are skipped and named in `warnings`. Pure. */
function parseMemoryFile(text: string): Snapshot {
  const warnings = new CappedWarnings();
  const warn = (message: string) => warnings.add(message);
  const live = new Map<number, MemoryItem>();
  const seen = new Set<number>();
  let maxId = 0;
  for (const entry of jsonlLines(text)) {
    const where = `line ${entry.lineNo}`;
    if (entry.invalid) {
      warn(`${where}: not valid JSON, skipped`);
      continue;
    }
    const { record } = entry;
    if (!isRecord(record)) {
      warn(`${where}: not a memory record, skipped`);
      continue;
    }
    if (record.clear === true) {
      live.clear();
      continue;
    }
    const id = record.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      warn(`${where}: no valid id, skipped`);
      continue;
    }
    maxId = Math.max(maxId, id);
    if (record.forget === true) {
      live.delete(id);
      continue;
    }
    const { ts, kind, content } = record;
    if (typeof ts !== 'string' || !isKind(kind) || typeof content !== 'string' || oneLine(content) === '') {
      warn(`${where}: not a memory item, skipped`);
      continue;
    }
    if (seen.has(id)) {
      warn(`${where}: id ${id} used twice, skipped`);
      continue;
    }
    seen.add(id);
    live.set(id, { id, ts, kind, content: oneLine(content) });
  }
  // Ids only grow, so id order is write order.
  const items = [...live.values()].sort((a, b) => a.id - b.id);
  return { live: items, maxId, endsClean: text === '' || text.endsWith('\n'), warnings: warnings.list };
}

/** Appends whole lines or nothing: a full disk leaves the file as it was. */
function appendText(file: string, text: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, 'a', 0o600);
    appendWhole(fd, text);
  } catch (err) {
    throw new AishError('memory', `cannot write memory ${file}: ${fileWriteProblem(err)}; nothing was changed`, { cause: err });
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

function checkKind(kind: string): MemoryKind {
  const k = kind.trim().toLowerCase();
  if (!isKind(k)) throw new UsageError(`unknown memory kind '${kind}': use fact, pref or context`);
  return k;
}

function isKind(value: unknown): value is MemoryKind {
  return typeof value === 'string' && (MEMORY_KINDS as readonly string[]).includes(value);
}

/** Newlines (and the blanks around them) become one space; ends trimmed. */
export function oneLine(text: string): string {
  return text.replace(/[ \t]*[\r\n]+[ \t]*/g, ' ').trim();
}
