// Persistent input history in `<state dir>/input_history`: one entry per line, oldest first, file
// 0600 and dir 0700. Entries are appended as they are typed, so several aish sessions at once all
// keep theirs; loading de-duplicates (newest wins) and caps, and the file is rewritten compactly
// when it has grown past twice the cap. A write that fails (a full disk) leaves the file as it
// was, never half a line. Failures are reported once by the caller.

import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileWriteProblem } from '../errors.js';
import { appendWhole } from '../history/append-whole.js';

/** Entries newest-first (readline's order), de-duplicated and capped. A missing file is empty. */
export async function loadInputHistory(file: string, max: number): Promise<string[]> {
  return newestFirst(await readLines(file), max);
}

/**
 * Appends one entry; rewrites the file compactly when it holds more than twice `max` lines.
 * Rejects with an Error naming the file and why (`the disk is full (ENOSPC)`); the file is then
 * as it was.
 */
export async function appendInputHistory(file: string, entry: string, max: number): Promise<void> {
  if (entry.trim() === '' || entry.includes('\n')) return;
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    appendLine(file, entry);
    const lines = await readLines(file);
    if (lines.length <= max * 2) return;
    const kept = newestFirst(lines, max).reverse();
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      await writeFile(tmp, `${kept.join('\n')}\n`, { mode: 0o600 });
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  } catch (err) {
    throw new Error(`cannot write ${file}: ${fileWriteProblem(err)}`, { cause: err });
  }
}

/**
 * One history for Up and Ctrl-R: aish's own entries (newest first) before the shell's (its
 * `$HISTFILE`, newest first), which are older than anything typed in aish; each line once, where it
 * comes first; at most `max`. Pure. aish's own come first whole, so an index into them stays valid.
 */
export function mergeHistories(aishNewestFirst: readonly string[], shellNewestFirst: readonly string[], max: number): string[] {
  return newestFirst([...aishNewestFirst, ...shellNewestFirst].reverse(), max);
}

/** One whole line, or nothing. */
function appendLine(file: string, entry: string): void {
  const fd = openSync(file, 'a', 0o600);
  try {
    appendWhole(fd, `${entry}\n`);
  } finally {
    closeSync(fd);
  }
}

async function readLines(file: string): Promise<string[]> {
  try {
    return (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

function newestFirst(lines: readonly string[], max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < max; i--) {
    const line = lines[i]!;
    if (seen.has(line)) continue;
    seen.add(line);
    out.push(line);
  }
  return out;
}
