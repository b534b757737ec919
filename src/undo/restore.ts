// Putting files back as a checkpoint had them. `planRestore` (pure) decides per file what an undo
// does: remove what the action created, bring back what it deleted, rewrite what it modified, and
// keep what changed again since (unless forced) or was too large to keep. `applyRestore` does it
// on disk, never through a symlink: a path whose parent is no longer a real directory of the tree
// is kept, so a command that swapped a folder for a link cannot steer an undo outside the tree.

import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, renameSync, rmdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ABSENT, type TreeChange } from './store.js';

/** Why a file is kept: it changed after the action (`:undo --force` puts it back anyway). */
export const CHANGED_SINCE = 'changed since';
/** Why a file is kept: it was never in the checkpoint. */
export const TOO_LARGE = 'larger than undo.max_file_bytes, not in the checkpoint';

export type RestoreStep =
  | { type: 'remove'; path: string }
  | { type: 'write'; path: string; mode: string; sha: string }
  | { type: 'keep'; path: string; why: string };

export interface RestoreReport {
  restored: string[];
  removed: string[];
  kept: { path: string; why: string }[];
}

/** A file as a snapshot holds it. */
export interface FileState {
  mode: string;
  sha: string;
}

/**
 * What undoing an action does. `changes` are its files (before → after); `since` holds the files
 * that differ now from after the action, with their state now (mode ABSENT: gone); `skipped`
 * are files left out of its snapshots for their size. `force` restores what changed since too.
 */
export function planRestore(changes: readonly TreeChange[], since: ReadonlyMap<string, FileState>, skipped: ReadonlySet<string>, force: boolean): RestoreStep[] {
  const steps: RestoreStep[] = [];
  for (const change of changes) {
    const file = change.path;
    // A repository inside the tree (a gitlink) is never kept, nor restored.
    if (change.fromMode === '160000' || change.toMode === '160000') continue;
    if (skipped.has(file)) {
      steps.push({ type: 'keep', path: file, why: TOO_LARGE });
      continue;
    }
    const now = since.get(file);
    if (now) {
      // Already as it was before the action: nothing to do.
      if (now.mode === change.fromMode && (now.mode === ABSENT || now.sha === change.fromSha)) continue;
      if (!force) {
        steps.push({ type: 'keep', path: file, why: CHANGED_SINCE });
        continue;
      }
    }
    steps.push(change.fromMode === ABSENT ? { type: 'remove', path: file } : { type: 'write', path: file, mode: change.fromMode, sha: change.fromSha });
  }
  return steps;
}

/** Carries out `steps` in `tree` with the blobs' contents; a step that cannot be done is kept, with why. */
export function applyRestore(tree: string, steps: readonly RestoreStep[], blobs: ReadonlyMap<string, Buffer>): RestoreReport {
  const report: RestoreReport = { restored: [], removed: [], kept: [] };
  // The action removed the tree itself: it is made again for the files to come back into.
  if (steps.some((s) => s.type === 'write')) mkdirSync(tree, { recursive: true });
  const keep = (file: string, why: string) => report.kept.push({ path: file, why });
  for (const step of steps) if (step.type === 'keep') keep(step.path, step.why);
  // Removals first, deepest first: a folder a file comes back into may have been a file.
  const removals = steps.filter((s) => s.type === 'remove').sort((a, b) => b.path.split('/').length - a.path.split('/').length);
  for (const step of removals) {
    try {
      const abs = inside(tree, step.path, false);
      if (abs === null) continue;
      const st = lstatOrNull(abs);
      if (st === null) continue;
      if (st.isDirectory()) {
        keep(step.path, 'a folder now');
        continue;
      }
      unlinkSync(abs);
      report.removed.push(step.path);
    } catch (err) {
      keep(step.path, reason(err));
    }
  }
  for (const step of steps) {
    if (step.type !== 'write') continue;
    try {
      const content = blobs.get(step.sha);
      if (content === undefined) throw new Error('not in the checkpoint');
      writeFile(inside(tree, step.path, true)!, step.mode, content);
      report.restored.push(step.path);
    } catch (err) {
      keep(step.path, reason(err));
    }
  }
  return report;
}

/**
 * The absolute path of `file` in `tree`, its parents checked to be real directories (made when
 * `create`); null when a parent is missing and nothing is to be made. Throws when a parent is a
 * link or a file.
 */
function inside(tree: string, file: string, create: boolean): string | null {
  const parts = file.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) throw new Error('not a path inside the tree');
  let at = tree;
  for (const part of parts.slice(0, -1)) {
    at = path.join(at, part);
    const st = lstatOrNull(at);
    if (st === null) {
      if (!create) return null;
      mkdirSync(at);
      continue;
    }
    if (!st.isDirectory()) throw new Error(`${path.relative(tree, at)} is ${st.isSymbolicLink() ? 'a link' : 'not a folder'} now`);
  }
  return path.join(tree, file);
}

/** Writes a file (or link) as a snapshot holds it; an existing file keeps its permissions but the executable bit. */
function writeFile(abs: string, mode: string, content: Buffer): void {
  let st = lstatOrNull(abs);
  if (st?.isDirectory()) {
    // A folder the action made where a file was, emptied by the removals: the file comes back.
    try {
      rmdirSync(abs);
    } catch {
      throw new Error('a folder now');
    }
    st = null;
  }
  if (mode === '120000') {
    if (st) unlinkSync(abs);
    symlinkSync(content.toString('utf8'), abs);
    return;
  }
  const executable = mode === '100755';
  if (st && !st.isFile()) {
    unlinkSync(abs);
  } else if (st) {
    const perm = st.mode & 0o7777;
    const kept = executable && (perm & 0o111) === 0 ? perm | ((perm & 0o444) >> 2) : !executable && (perm & 0o111) !== 0 ? perm & ~0o111 : perm;
    // A new file renamed over the old one, never a write into it: the action may have made the
    // path a hard link to a file outside the tree (`ln ~/.bashrc notes`), which must not change.
    const temp = path.join(path.dirname(abs), `.aish-undo-${randomBytes(4).toString('hex')}-${path.basename(abs)}`.slice(0, 255));
    try {
      writeFileSync(temp, content, { mode: 0o600, flag: 'wx' });
      chmodSync(temp, kept);
      renameSync(temp, abs);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    return;
  }
  // As git checks out: 0666 or 0777, less the umask.
  writeFileSync(abs, content, { mode: executable ? 0o777 : 0o666 });
}

function lstatOrNull(p: string) {
  try {
    return lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
}

function reason(err: unknown): string {
  const message = (err as Error).message;
  // `EACCES: permission denied, open '/x'` → `permission denied`.
  return /^[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message;
}
