// Which tree a checkpoint covers: the top of the git work tree a directory is in, else the
// directory itself; and where its shadow store lives under aish's state dir. Looks for `.git`
// upward itself (a directory, or a file as in a linked work tree or a submodule), so finding the
// tree starts no program and reads nothing of the person's repository.

import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** The real path of the tree a checkpoint taken in `cwd` covers. */
export function treeOf(cwd: string): string {
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    dir = path.resolve(cwd);
  }
  for (let at = dir; ; at = path.dirname(at)) {
    if (exists(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return dir;
  }
}

/**
 * The text of a small regular file of the tree, or null: anything else (a FIFO, a link to
 * /dev/tty, a device) is never read, since the read would wait forever and hold the event loop,
 * nor a file over `maxBytes`. Opened without blocking, then checked on the open file.
 */
export function readSmallFile(file: string, maxBytes = 1024 * 1024): string | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return null;
    return readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The person's `info/exclude` for the tree (ignore rules kept in the repository, not in a
 * `.gitignore`), or null: `.git/info/exclude`, or through a `.git` file's `gitdir:` and its
 * `commondir`.
 */
export function repositoryExcludeFile(tree: string): string | null {
  const folders = gitFoldersOf(tree);
  return folders && path.join(folders.common, 'info', 'exclude');
}

/**
 * The tree's git folders, or null: `.git` itself when it is a folder (its own common folder), or
 * the folder a `.git` file's `gitdir:` names and that folder's `commondir` (a linked work tree's
 * main repository). Paths as named, resolved against the tree; nothing is run.
 */
export function gitFoldersOf(tree: string): { gitDir: string; common: string } | null {
  const dotGit = path.join(tree, '.git');
  try {
    if (lstatSync(dotGit).isDirectory()) return { gitDir: dotGit, common: dotGit };
    const named = /^gitdir: (.+)$/m.exec(readSmallFile(dotGit) ?? '')?.[1]?.trim();
    if (!named) return null;
    const gitDir = path.resolve(tree, named);
    const commondir = readSmallFile(path.join(gitDir, 'commondir'));
    return { gitDir, common: commondir === null ? gitDir : path.resolve(gitDir, commondir.trim()) };
  } catch {
    return null;
  }
}

/**
 * The folder of the tree's store under `root`: its name and a hash of its path, readable in a
 * listing and distinct per tree.
 */
export function storeDirOf(root: string, tree: string): string {
  const name = (path.basename(tree) || 'root').replace(/[^\w.-]/g, '_').slice(0, 40);
  return path.join(root, `${name}-${hash64(tree)}`);
}

/** FNV-1a, twice with different offsets: 16 hex digits (node:crypto costs start-up time). */
function hash64(text: string): string {
  const fnv = (seed: number) => {
    let h = seed >>> 0;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
  };
  return fnv(0x811c9dc5) + fnv(0x01000193 ^ 0x5bd1e995);
}

/** Whether anything is at `p`, a dangling link included; false when it cannot be looked at. */
export function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
