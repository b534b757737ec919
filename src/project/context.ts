// The `[project]` block of the system message (SPEC §5, §11): inside a git work tree, the root's
// name, the branch and the tracked files as a compact tree capped at `context.project.max_chars`;
// outside one, nothing. It follows `cd`: each request asks for the block of the current
// directory, and the file list is read again only when the index changed.

import path from 'node:path';
import { formatTree } from './tree.js';
import { trackedFiles, workTreeOf } from './git.js';

export class ProjectContext {
  #cache: { root: string; branch: string; indexStamp: number; block: string } | null = null;

  constructor(
    private readonly maxChars: number,
    private readonly env: () => Record<string, string | undefined>,
  ) {}

  /** The block for `cwd` (starting `[project]`), or null outside a git work tree. Never rejects. */
  async block(cwd: string): Promise<string | null> {
    const env = this.env();
    const tree = await workTreeOf(cwd, env);
    if (!tree) return null;
    const cached = this.#cache;
    if (cached && cached.root === tree.root && cached.branch === tree.branch && cached.indexStamp === tree.indexStamp) return cached.block;
    const files = await trackedFiles(tree.root, env);
    const header = `[project] ${path.basename(tree.root)} (branch ${tree.branch}, ${files.length} tracked file${files.length === 1 ? '' : 's'})`;
    const block = files.length ? `${header}\n${formatTree(files, Math.max(0, this.maxChars - header.length - 1))}` : header;
    this.#cache = { ...tree, block };
    return block;
  }
}
