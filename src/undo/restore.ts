// Putting files back as a checkpoint had them. `planRestore` (pure) decides per file what an undo
// does: remove what the action created, bring back what it deleted, rewrite what it modified, and
// keep what changed again since (unless forced), was too large to keep, or was out of a snapshot's
// sight (ignored, or in a repository of its own: issue 32). `applyRestore` does it on disk, never
// through a symlink: a path whose parent is no longer a real directory of the tree is kept, so a
// command that swapped a folder for a link cannot steer an undo outside the tree.

import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, renameSync, rmdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ABSENT, type TreeChange } from './store.js';
import { coverOf, foldersOf, unseenName, type UnseenEntry } from './unseen.js';

/** Why a file is kept: it changed after the action (`:undo --force` puts it back anyway). */
export const CHANGED_SINCE = 'changed since';
/** Why a file is kept: it was never in the checkpoint. */
export const TOO_LARGE = 'larger than undo.max_file_bytes, not in the checkpoint';

export type RestoreStep =
  | { type: 'remove'; path: string }
  /** `perm`: the permission bits to give it; `unless`: kept with this why when something is at the path. */
  | { type: 'write'; path: string; mode: string; sha: string; perm?: number; unless?: string }
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

/** What an undo knows besides the action's changes. */
export interface RestoreContext {
  /** The files that differ now from after the action, with their state now (mode ABSENT: gone). */
  since: ReadonlyMap<string, FileState>;
  /** Files left out of the action's snapshots for their size. */
  skipped: ReadonlySet<string>;
  /** Restore what changed since too. */
  force: boolean;
  /**
   * What the snapshots could not see: before and after the action, now, and what the action made
   * vanish of it. Unknown for a checkpoint taken before issue 32.
   */
  unseen?: { before: readonly UnseenEntry[]; after: readonly UnseenEntry[]; now: readonly UnseenEntry[]; vanished: readonly UnseenEntry[] };
  /** The folders of the snapshot before the action (`a/`): the files kept of a folder the action made are named by it. */
  foldersBefore?: ReadonlySet<string>;
  /** Permission bits (octal) files had before the action where not 644 or 755; unknown for a checkpoint taken before issue 32. */
  perms?: Readonly<Record<string, string>>;
}

/**
 * What undoing an action does with each file it changed (`changes`, before → after). An undo
 * removes only what the action created: a path absent before and present after, both snapshots
 * seeing it. A path hidden on either side is left as it is (or written back when nothing is there
 * now), and when the action made something unseen vanish, the files it created are kept too: they
 * may be all that is left of it (a moved `.git`, a renamed ignored database). Neither is forced.
 */
export function planRestore(changes: readonly TreeChange[], context: RestoreContext): RestoreStep[] {
  const { since, skipped, force, unseen } = context;
  const hidden = {
    before: coverOf(unseen?.before ?? []),
    after: coverOf(unseen?.after ?? []),
    now: coverOf(unseen?.now ?? []),
  };
  const steps: RestoreStep[] = [];
  const kept = new Set<string>();
  const keep = (file: string, why: string) => {
    if (!kept.has(file)) steps.push({ type: 'keep', path: file, why });
    kept.add(file);
  };
  const held: string[] = [];
  for (const change of changes) {
    const file = change.path;
    // A repository inside the tree (a gitlink) is never kept, nor restored.
    if (change.fromMode === '160000' || change.toMode === '160000') continue;
    if (skipped.has(file)) {
      steps.push({ type: 'keep', path: file, why: TOO_LARGE });
      continue;
    }
    // Not in the snapshot before: it was there all along, out of sight, and became visible.
    const before = hidden.before(file);
    if (before) {
      keep(before.path, hiddenWhy(before, 'before the action', 'never in the checkpoint'));
      continue;
    }
    const created = change.fromMode === ABSENT;
    const write = (unless?: string): RestoreStep => {
      const noted = context.perms?.[file];
      const perm = noted ? parseInt(noted, 8) : context.perms && change.fromMode !== '120000' ? (change.fromMode === '100755' ? 0o755 : 0o644) : undefined;
      return { type: 'write', path: file, mode: change.fromMode, sha: change.fromSha, ...(perm !== undefined ? { perm } : {}), ...(unless ? { unless } : {}) };
    };
    // Out of sight after the action, or now: what happened to it is unknown. It comes back only
    // where nothing is in its place; a file the action created is not removed.
    const after = hidden.after(file);
    const now = after ? undefined : hidden.now(file);
    if (after || now) {
      const why = after ? hiddenWhy(after, 'after the action', 'the checkpoint cannot see what it did there') : hiddenWhy(now!, 'now', 'the checkpoint cannot see what changed since');
      if (created) keep(file, why);
      else steps.push(write(why));
      continue;
    }
    const state = since.get(file);
    if (state) {
      // Already as it was before the action: nothing to do.
      if (state.mode === change.fromMode && (state.mode === ABSENT || state.sha === change.fromSha)) continue;
      if (!force) {
        steps.push({ type: 'keep', path: file, why: CHANGED_SINCE });
        continue;
      }
    }
    if (created && (unseen?.vanished.length ?? 0) > 0) held.push(file);
    else steps.push(created ? { type: 'remove', path: file } : write());
  }
  if (held.length > 0) {
    const names = unseen!.vanished.map(unseenName);
    const why = `made by the action, which moved or removed ${names.length > 3 ? `${names.slice(0, 3).join(', ')} and more` : names.join(', ')} that the checkpoint could not see: this may be all that is left of it`;
    for (const name of namedByFolder(held, changes, context.foldersBefore ?? new Set())) keep(name, why);
  }
  return steps;
}

/** Why a path out of a snapshot's sight is left as it is. */
function hiddenWhy(entry: UnseenEntry, when: string, then: string): string {
  return `${entry.kind === 'repo' ? 'in a repository of its own' : 'ignored'} ${when}: ${then}, left as it is`;
}

/**
 * `files` named by the highest folder the action made (absent from `foldersBefore`) whose every
 * change is one of them, so a moved `.git` is one line and not one per object.
 */
function namedByFolder(files: readonly string[], changes: readonly TreeChange[], foldersBefore: ReadonlySet<string>): string[] {
  const mine = new Set(files);
  const others = new Set<string>();
  for (const c of changes) if (!mine.has(c.path)) for (const folder of foldersOf(c.path)) others.add(folder);
  const names = new Set<string>();
  for (const file of files) names.add(foldersOf(file).find((f) => !foldersBefore.has(f) && !others.has(f)) ?? file);
  return [...names];
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
      if (step.unless !== undefined) {
        const abs = inside(tree, step.path, false);
        if (abs !== null && lstatOrNull(abs) !== null) {
          keep(step.path, step.unless);
          continue;
        }
      }
      const content = blobs.get(step.sha);
      if (content === undefined) throw new Error('not in the checkpoint');
      writeFile(inside(tree, step.path, true)!, step.mode, content, step.perm);
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

/**
 * Writes a file (or link) as a snapshot holds it, with `perm` when known; else an existing file
 * keeps its permissions but the executable bit, and a new one gets git's.
 */
function writeFile(abs: string, mode: string, content: Buffer, perm: number | undefined): void {
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
    const now = st.mode & 0o7777;
    const kept = perm ?? (executable && (now & 0o111) === 0 ? now | ((now & 0o444) >> 2) : !executable && (now & 0o111) !== 0 ? now & ~0o111 : now);
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
  // As it was; else as git checks out: 0666 or 0777, less the umask.
  writeFileSync(abs, content, { mode: perm ?? (executable ? 0o777 : 0o666) });
  if (perm !== undefined) chmodSync(abs, perm);
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
