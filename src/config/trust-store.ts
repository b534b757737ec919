// The project config files the person trusted (docs/security.md "Project trust"): per absolute
// path, the sha256 of the bytes they trusted and when, in one JSON file (0600, its folder 0700)
// under aish's state dir. A file whose bytes changed since is not trusted any more, as with
// direnv. A store that cannot be read (torn, edited by hand, not JSON) trusts nothing: aish goes
// on and says so once; the next answer `y` writes it afresh.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isRecord } from '../is-record.js';
import { errorMessage, fileWriteProblem } from '../errors.js';
import { writePrivateFile } from '../private-file.js';

/** The store's name under the state dir. */
export const TRUST_FILE = 'trusted-configs.json';

export interface TrustEntry {
  /** The config file, absolute. */
  path: string;
  /** sha256 of its bytes when trusted, hex. */
  sha256: string;
  /** When it was trusted (ISO 8601). */
  trustedAt: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The store file under `stateDir`, or undefined when aish keeps no state (nothing can be trusted). */
export function trustFileOf(stateDir: string | undefined): string | undefined {
  return stateDir ? path.join(stateDir, TRUST_FILE) : undefined;
}

/** aish's XDG state dir as main.ts finds it (xdg-basedir), for the start-up file, which has no xdg-basedir. */
export function stateDirOf(env: Record<string, string | undefined>, home: string): string {
  return path.join(env.XDG_STATE_HOME || path.join(home, '.local', 'state'), 'aish');
}

/** sha256 of `bytes`, hex; WebCrypto, which costs no import (node:crypto costs a start 7 ms). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The trusted files, read from `file` when made; every change is written at once. */
export class TrustStore {
  readonly file: string | undefined;
  #entries: Map<string, TrustEntry>;
  /** Why the file could not be used (it is then treated as empty), once. */
  readonly problem: string | undefined;

  /** Reads `file` (undefined: nothing is kept). Never throws: a bad file is an empty store and a `problem`. */
  constructor(file: string | undefined) {
    this.file = file;
    const read = readStore(file);
    this.#entries = read.entries;
    this.problem = read.problem;
  }

  /** Whether `file` is trusted with exactly these bytes. */
  trusts(file: string, sha256: string): boolean {
    return this.#entries.get(file)?.sha256 === sha256;
  }

  get(file: string): TrustEntry | undefined {
    return this.#entries.get(file);
  }

  /** Every trusted file, by path. */
  list(): TrustEntry[] {
    return [...this.#entries.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Trusts `file` with these bytes. Throws an Error naming the store when it cannot be written. */
  trust(file: string, sha256: string, now: Date): void {
    this.#change((entries) => entries.set(file, { path: file, sha256, trustedAt: now.toISOString() }));
  }

  /** Forgets `file`; false when it was not trusted. Throws as `trust` does. */
  forget(file: string): boolean {
    if (!this.#entries.has(file)) return false;
    this.#change((entries) => entries.delete(file));
    return true;
  }

  /** Applies `edit` to what the file holds now (another aish may have written it), then writes it. */
  #change(edit: (entries: Map<string, TrustEntry>) => unknown): void {
    if (!this.file) throw new Error('aish keeps no state here (no state dir), so trust cannot be kept');
    const entries = readStore(this.file).entries;
    edit(entries);
    const files = Object.fromEntries([...entries.values()].map((e) => [e.path, { sha256: e.sha256, trusted_at: e.trustedAt }]));
    try {
      writePrivateFile(this.file, `${JSON.stringify({ version: 1, files }, null, 2)}\n`);
    } catch (err) {
      throw new Error(`cannot write ${this.file}: ${fileWriteProblem(err)}`);
    }
    this.#entries = entries;
  }
}

function readStore(file: string | undefined): { entries: Map<string, TrustEntry>; problem?: string } {
  const entries = new Map<string, TrustEntry>();
  if (!file) return { entries };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries };
    return { entries, problem: `cannot read ${file} (${errorMessage(err)}); no project config is trusted this time` };
  }
  const bad = { entries, problem: `${file} is not a store of trusted configs aish can read; no project config is trusted this time` };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return bad;
  }
  if (!isRecord(data) || data.version !== 1 || !isRecord(data.files)) return bad;
  for (const [where, entry] of Object.entries(data.files)) {
    if (!path.isAbsolute(where) || !isRecord(entry) || typeof entry.sha256 !== 'string' || !SHA256.test(entry.sha256) || typeof entry.trusted_at !== 'string') {
      return { entries: new Map(), problem: bad.problem };
    }
    entries.set(where, { path: where, sha256: entry.sha256, trustedAt: entry.trusted_at });
  }
  return { entries };
}
