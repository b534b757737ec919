// Where a Norris run may write (issue 32): the nearest folder, from where the run started upward,
// that holds a real `.git` directory (not a link), else the start folder itself. Decided once per
// run, from the folders alone: git's own answer (`git rev-parse --show-toplevel`) follows the
// repository's config (`core.worktree`, a `.git` file's `gitdir:`), which a step or a downloaded
// project controls and can point at the home folder.

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { realOf } from './box.js';

/** The real path of the tree a Norris run started in `start` may write; reads no file, runs nothing. */
export function boxTreeOf(start: string): string {
  const dir = realOf(start);
  for (let at = dir; ; at = path.dirname(at)) {
    if (isRealDirectory(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return dir;
  }
}

/** Whether `p` is a directory itself, not a link to one. */
function isRealDirectory(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}
