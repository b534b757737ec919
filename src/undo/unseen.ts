// What a snapshot could not see: the paths the person's ignore rules hide, and the repositories
// nested in the tree (issue 32). An undo compares two snapshots only where both could see: a path
// hidden on either side is not created, deleted or changed by the action as far as the checkpoint
// knows, and it is left as it is. Each entry carries the identity (inode) it had, so that what
// became of it can be told after the action: still there, gone, or moved to a path it created.

import { lstatSync } from 'node:fs';
import path from 'node:path';

/** One thing a snapshot could not see: an ignored file or folder (`build/`), or a nested repository (`vendor/lib/`). */
export interface UnseenEntry {
  /** Relative to the tree; a folder ends with `/`. */
  path: string;
  kind: 'ignored' | 'repo';
  /** The inode of the path (of its `.git` for a repository) at the snapshot; null when there was none. */
  id: string | null;
}

/**
 * The paths of `git ls-files -z --others --ignored --exclude-standard --directory`. git lists a
 * folder whose files are all ignored one by one (`logs/`, `logs/a.log`) as well as by its name:
 * such a folder is not ignored itself (a new file in it is seen), so only its files are kept.
 */
export function parseIgnored(listing: string): string[] {
  const paths = listing.split('\0').filter((p) => p !== '');
  return paths.filter((p, i) => !(p.endsWith('/') && paths[i + 1]?.startsWith(p)));
}

/** What identifies the thing an entry names on disk now: its inode, that of its `.git` for a repository. */
export function identify(tree: string, entry: Pick<UnseenEntry, 'path' | 'kind'>): string | null {
  // Without a trailing slash: lstat of `link/` would follow a link.
  const at = path.join(tree, entry.kind === 'repo' ? `${entry.path}.git` : entry.path.replace(/\/$/, ''));
  try {
    return String(lstatSync(at).ino);
  } catch {
    return null;
  }
}

/**
 * The entries the action made vanish: gone, or moved to a path it created (their inode is now that
 * of a created file or of a folder above one) with something else put in their place. Their
 * content may now be in files the action created (`mv vendor/lib/.git elsewhere`,
 * `mv data.db data.sqlite`), which then are all that is left of it. An ignored file rewritten in
 * place by a new file (a compiler's output, a `.pyc`) has not vanished.
 */
export function vanished(tree: string, entries: readonly UnseenEntry[], created: readonly string[]): UnseenEntry[] {
  const changed = entries.filter((e) => e.id !== null && identify(tree, e) !== e.id);
  if (changed.length === 0) return [];
  const createdIds = new Set<string>();
  const folders = new Set(created.flatMap((file) => foldersOf(file).map((f) => f.slice(0, -1))));
  for (const p of [...created, ...folders]) {
    const id = identify(tree, { path: p, kind: 'ignored' });
    if (id !== null) createdIds.add(id);
  }
  return changed.filter((e) => identify(tree, e) === null || createdIds.has(e.id!));
}

/** The folders above a path, outermost first: `a/b/c` → `a/`, `a/b/`. */
export function foldersOf(file: string): string[] {
  const out: string[] = [];
  for (let end = file.indexOf('/'); end !== -1; end = file.indexOf('/', end + 1)) out.push(file.slice(0, end + 1));
  return out;
}

/** Finds the entry that hides a file: the file itself, or a folder above it. */
export function coverOf(entries: readonly UnseenEntry[]): (file: string) => UnseenEntry | undefined {
  const byPath = new Map(entries.map((e) => [e.path, e]));
  return (file) => {
    return byPath.get(file) ?? foldersOf(file).map((f) => byPath.get(f)).find((e) => e !== undefined);
  };
}

/** How an entry is named to the person: `vendor/lib/.git` for a repository's git, else its path. */
export function unseenName(entry: UnseenEntry): string {
  return entry.kind === 'repo' ? `${entry.path}.git` : entry.path;
}
