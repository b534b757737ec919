// Finds session files for `:sessions` and `:resume <name|last>` (SPEC §8). Reading is streamed
// and tolerant: a file without a readable header still lists, dated by its modification time.

import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { errorMessage } from '../errors.js';
import { SESSION_EXT, sessionsDir } from './format.js';
import { SessionError } from './session-error.js';

export interface SessionInfo {
  /** The file name without `.jsonl`, as `:resume` takes it. */
  name: string;
  file: string;
  started: Date;
  /** Turn lines in the file (events and the header not counted). */
  turns: number;
  /** The first user turn's typed text: first line, at most about 60 characters. */
  firstPrompt: string;
  /** True for the log this aish process is writing. */
  active: boolean;
}

const PROMPT_CHARS = 60;

/** The sessions under `<historyDir>/sessions`, newest first; none when the dir does not exist. */
export async function listSessions(historyDir: string, activeFile?: string | null): Promise<SessionInfo[]> {
  const files = sessionFiles(historyDir);
  const active = activeFile ? path.resolve(activeFile) : null;
  const infos = await Promise.all(files.map((file) => scanSession(file, file === active)));
  return infos.sort(newestFirst);
}

/**
 * The file of a session by name (with or without `.jsonl`), by path (a name with a slash), or
 * `last`: the newest session that is not `activeFile`. Throws SessionError when there is none.
 */
export async function resolveSession(historyDir: string, nameOrLast: string, activeFile?: string | null): Promise<string> {
  const name = nameOrLast.trim();
  if (name === 'last') {
    const active = activeFile ? path.resolve(activeFile) : null;
    const dated = await Promise.all(
      sessionFiles(historyDir)
        .filter((file) => file !== active)
        .map(async (file) => ({ file, name: path.basename(file, SESSION_EXT), started: await headerDate(file) })),
    );
    const newest = dated.sort(newestFirst)[0];
    if (!newest) throw new SessionError('no earlier session to resume');
    return newest.file;
  }
  if (name === '') throw new SessionError('which session? give a name or `last`');
  const file = name.includes('/') ? path.resolve(name) : path.join(sessionsDir(historyDir), name.endsWith(SESSION_EXT) ? name : `${name}${SESSION_EXT}`);
  if (!fs.existsSync(file)) throw new SessionError(`no session named '${name}'`);
  return file;
}

function sessionFiles(historyDir: string): string[] {
  const dir = path.resolve(sessionsDir(historyDir));
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SessionError(`cannot list sessions in ${dir}: ${errorMessage(err)}`, { cause: err });
  }
  return names.filter((n) => n.endsWith(SESSION_EXT)).map((n) => path.join(dir, n));
}

async function scanSession(file: string, active: boolean): Promise<SessionInfo> {
  let started: Date | null = null;
  let turns = 0;
  let firstPrompt: string | null = null;
  let first = true;
  const input = fs.createReadStream(file, { encoding: 'utf8' });
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (first) {
        first = false;
        started = dateOfHeader(line);
        if (started) continue;
      }
      // Lines this aish writes start with their key; others (older writers) are parsed.
      if (line.startsWith('{"event"') || line.trim() === '') continue;
      const isTurn = line.startsWith('{"role":') || roleOf(line) !== null;
      if (!isTurn) continue;
      turns++;
      if (firstPrompt === null && (line.startsWith('{"role":"user"') || roleOf(line) === 'user')) {
        firstPrompt = promptPreview(line);
      }
    }
  } catch {
    // An unreadable file still lists; what was read counts.
  } finally {
    lines.close();
    input.destroy();
  }
  return {
    name: path.basename(file, SESSION_EXT),
    file,
    started: started ?? mtime(file),
    turns,
    firstPrompt: firstPrompt ?? '',
    active,
  };
}

/** The typed part of a user turn: exec output merged in front (SPEC §4) is left out. */
function promptPreview(line: string): string {
  let content: string;
  try {
    content = String((JSON.parse(line) as { content?: unknown }).content ?? '');
  } catch {
    return '';
  }
  if (content.startsWith('[exec output]\n')) {
    const cut = content.lastIndexOf('\n\n');
    if (cut !== -1) content = content.slice(cut + 2);
  }
  const firstLine = content.trim().split('\n')[0]!.trim();
  return firstLine.length > PROMPT_CHARS ? `${firstLine.slice(0, PROMPT_CHARS - 1)}…` : firstLine;
}

function roleOf(line: string): string | null {
  try {
    const value: unknown = JSON.parse(line);
    const role = (value as { role?: unknown } | null)?.role;
    return typeof role === 'string' ? role : null;
  } catch {
    return null;
  }
}

async function headerDate(file: string): Promise<Date> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r');
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    return dateOfHeader(text.split('\n')[0]!) ?? mtime(file);
  } catch {
    return mtime(file);
  } finally {
    await handle?.close();
  }
}

function dateOfHeader(line: string): Date | null {
  try {
    const meta = (JSON.parse(line) as { meta?: { started?: unknown } } | null)?.meta;
    if (typeof meta?.started !== 'string') return null;
    const date = new Date(meta.started);
    return Number.isNaN(date.getTime()) ? null : date;
  } catch {
    return null;
  }
}

function mtime(file: string): Date {
  try {
    return fs.statSync(file).mtime;
  } catch {
    return new Date(0);
  }
}

function newestFirst(a: { started: Date; name: string }, b: { started: Date; name: string }): number {
  return b.started.getTime() - a.started.getTime() || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0);
}
