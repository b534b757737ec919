// What a command did inside an overlay: the files it created, changed and deleted, read from the
// overlay's three views of one directory. The upper layer names every path the command touched;
// the lower layer (the real directory, untouched) and the merged view (what the command saw) say
// what each became. A deletion is a lower entry the merged view lacks, which covers the kernel's
// whiteouts and opaque directories (a folder removed and made again) without reading their marks.
// What a command made in the preview's /tmp, which starts empty, is read on its own (readCreated).

import { closeSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';

export type EntryType = 'file' | 'dir' | 'symlink' | 'other';

export interface FileChange {
  kind: 'create' | 'change' | 'delete';
  /** Where it is in the real filesystem. */
  path: string;
  /** What it is: after a creation or change, before a deletion. */
  type: EntryType;
  /** A folder created or deleted whole: how many files it holds (at most the reader's limit). */
  files?: number;
  /** Permission bits before and after, when they changed. */
  mode?: { before: number; after: number };
  /** The content (a file's bytes, a link's target) changed. */
  content?: boolean;
  /** A changed regular file: where its old and new content can be read while the views last. */
  sources?: { before: string; after: string };
}

/** The three views of one overlaid directory. */
export interface OverlayLayers {
  /** The real directory (the overlay's lower layer); paths are reported under it. */
  lower: string;
  /** The overlay's upper layer: every path the command wrote, copied up or deleted. */
  upper: string;
  /** The merged view, as the command saw it. */
  merged: string;
}

export interface OverlayReading {
  changes: FileChange[];
  /** False when the upper layer held more entries than the reader looks at. */
  complete: boolean;
}

/** How many entries of the upper layer are looked at, at most. */
export const DEFAULT_ENTRY_LIMIT = 20_000;

/** Reads what changed; never follows a symlink. Throws if the merged view cannot be read at all. */
export function readOverlayChanges(layers: OverlayLayers, limit = DEFAULT_ENTRY_LIMIT): OverlayReading {
  // Unreadable, every real file would look deleted.
  if (!lstatOrNull(layers.merged)?.isDirectory()) throw new Error(`cannot read the preview's view of ${layers.lower}`);
  const changes: FileChange[] = [];
  let budget = limit;
  const at = (root: string, rel: string) => (rel === '' ? root : path.join(root, rel));

  const walk = (rel: string): void => {
    const lower = lstatOrNull(at(layers.lower, rel));
    const merged = at(layers.merged, rel);
    // Deleted: in the real folder, not in the merged view (a whiteout, or a folder made opaque).
    if (lower?.isDirectory()) {
      for (const name of readdirOrEmpty(at(layers.lower, rel))) {
        if (budget-- <= 0) return;
        if (lstatOrNull(path.join(merged, name))) continue;
        const p = path.join(rel, name);
        const before = lstatOrNull(at(layers.lower, p));
        if (!before) continue;
        changes.push(withCount({ kind: 'delete', path: at(layers.lower, p), type: typeOf(before) }, at(layers.lower, p), before));
      }
    }
    for (const name of readdirOrEmpty(at(layers.upper, rel))) {
      if (budget-- <= 0) return;
      const p = path.join(rel, name);
      const after = lstatOrNull(at(layers.merged, p));
      if (!after) continue; // a whiteout: counted above
      const before = lstatOrNull(at(layers.lower, p));
      const real = at(layers.lower, p);
      if (!before) {
        changes.push(withCount({ kind: 'create', path: real, type: typeOf(after) }, at(layers.merged, p), after));
        continue;
      }
      if (typeOf(before) !== typeOf(after)) {
        changes.push(withCount({ kind: 'delete', path: real, type: typeOf(before) }, real, before));
        changes.push(withCount({ kind: 'create', path: real, type: typeOf(after) }, at(layers.merged, p), after));
        continue;
      }
      const change = compare(real, at(layers.merged, p), before, after);
      if (change) changes.push(change);
      if (after.isDirectory()) walk(p);
    }
  };

  /** A folder created or deleted whole carries its file count. */
  const withCount = (change: FileChange, where: string, st: Stats): FileChange => {
    if (!st.isDirectory()) return change;
    const files = countFiles(where, () => budget-- > 0);
    return { ...change, files };
  };

  walk('');
  return { changes, complete: budget > 0 };
}

/**
 * What a command made in a folder that started empty (the preview's private /tmp, a scratch folder
 * bound there), each path reported under `shownAs`. `mountPoints` (under `shownAs`) are where the
 * box mounted something (the tree, the home folder, a hidden place, when under /tmp): made by the
 * box, not the command, so neither they nor the folders above them count as created.
 */
export function readCreated(dir: string, shownAs: string, mountPoints: readonly string[], limit = DEFAULT_ENTRY_LIMIT): OverlayReading {
  const changes: FileChange[] = [];
  let budget = limit;
  const walk = (rel: string): void => {
    for (const entry of entriesOrEmpty(path.join(dir, rel))) {
      if (budget-- <= 0) return;
      const p = path.join(rel, entry.name);
      const shown = path.join(shownAs, p);
      if (mountPoints.includes(shown)) continue;
      const st = lstatOrNull(path.join(dir, p));
      if (!st) continue;
      if (st.isDirectory() && mountPoints.some((m) => m.startsWith(`${shown}/`))) {
        walk(p);
        continue;
      }
      const files = st.isDirectory() ? { files: countFiles(path.join(dir, p), () => budget-- > 0) } : {};
      changes.push({ kind: 'create', path: shown, type: typeOf(st), ...files });
    }
  };
  walk('');
  return { changes, complete: budget > 0 };
}

/** What changed between two entries of the same type; null when nothing did but their times. */
function compare(before: string, after: string, b: Stats, a: Stats): FileChange | null {
  const modeBefore = b.mode & 0o7777;
  const modeAfter = a.mode & 0o7777;
  const mode = modeBefore !== modeAfter ? { before: modeBefore, after: modeAfter } : undefined;
  let content = false;
  if (b.isFile()) content = b.size !== a.size || !sameBytes(before, after);
  else if (b.isSymbolicLink()) content = readlinkSync(before) !== readlinkSync(after);
  if (!mode && !content) return null;
  return {
    kind: 'change',
    path: before,
    type: typeOf(a),
    ...(mode ? { mode } : {}),
    ...(content ? { content } : {}),
    ...(content && b.isFile() ? { sources: { before, after } } : {}),
  };
}

export function typeOf(st: Stats): EntryType {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return 'dir';
  if (st.isFile()) return 'file';
  return 'other';
}

/** Files (not folders) below `dir`, counted while `more()` allows. */
function countFiles(dir: string, more: () => boolean): number {
  let count = 0;
  for (const entry of entriesOrEmpty(dir)) {
    if (!more()) break;
    if (!entry.isDirectory()) count++;
    else count += countFiles(path.join(dir, entry.name), more);
  }
  return count;
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** The names in `dir`; none when it cannot be read (mode 000 in the lower layer: nothing to report in it). */
function readdirOrEmpty(dir: string): string[] {
  return entriesOrEmpty(dir).map((e) => e.name);
}

function entriesOrEmpty(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

const CHUNK = 1 << 20;

/** Whether two regular files of the same size hold the same bytes (read a chunk at a time). */
function sameBytes(a: string, b: string): boolean {
  let fa: number | undefined;
  let fb: number | undefined;
  try {
    fa = openSync(a, 'r');
    fb = openSync(b, 'r');
    const ba = Buffer.alloc(CHUNK);
    const bb = Buffer.alloc(CHUNK);
    for (;;) {
      const na = readSync(fa, ba, 0, CHUNK, null);
      const nb = readSync(fb, bb, 0, CHUNK, null);
      if (na !== nb || !ba.subarray(0, na).equals(bb.subarray(0, nb))) return false;
      if (na === 0) return true;
    }
  } catch {
    // One side cannot be read: say it changed rather than hide it.
    return false;
  } finally {
    if (fa !== undefined) closeSync(fa);
    if (fb !== undefined) closeSync(fb);
  }
}
