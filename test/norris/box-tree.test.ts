// Which tree a Norris run may write (issue 32), on real folders: the nearest folder holding a real
// `.git` directory, from the start folder upward, else the start folder; never where a `.git`
// file, a `.git` link or the repository's config points.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boxTreeOf } from '../../src/norris/box-tree.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'aish-box-tree-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Makes `p` under the root: a folder when it ends in `/`, `a -> b` a link, `f: text` a file. */
function make(p: string): void {
  const link = / -> /.exec(p);
  if (link) {
    const [from, to] = p.split(' -> ') as [string, string];
    mkdirSync(path.dirname(path.join(root, from)), { recursive: true });
    symlinkSync(to.startsWith('/') ? path.join(root, to) : to, path.join(root, from));
  } else if (p.endsWith('/')) mkdirSync(path.join(root, p), { recursive: true });
  else {
    const [file, text = ''] = p.split(': ') as [string, string?];
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

describe('boxTreeOf', () => {
  it.each([
    ['a .git directory in the start folder', ['proj/.git/', 'proj/src/'], 'proj', 'proj'],
    ['a .git directory above the start folder', ['proj/.git/', 'proj/src/lib/'], 'proj/src/lib', 'proj'],
    ['no .git anywhere: the start folder', ['proj/src/'], 'proj/src', 'proj/src'],
    ['a .git file (gitdir: elsewhere) is not a tree top', ['home/.cache-gitdir/', 'home/proj/.git: gitdir: ../.cache-gitdir\n', 'home/proj/src/'], 'home/proj/src', 'home/proj/src'],
    ['a .git link to a directory is not a tree top', ['home/.real-git/', 'home/proj/.git -> /home/.real-git', 'home/proj/src/'], 'home/proj/src', 'home/proj/src'],
    ['a .git file under a real .git directory: the directory above', ['proj/.git/', 'proj/sub/.git: gitdir: ../.git/modules/sub\n'], 'proj/sub', 'proj'],
    ['nested repositories: the nearest', ['proj/.git/', 'proj/vendor/lib/.git/', 'proj/vendor/lib/src/'], 'proj/vendor/lib/src', 'proj/vendor/lib'],
    ['a start folder reached through a link: its real path', ['proj/.git/', 'proj/src/', 'link -> /proj/src'], 'link', 'proj'],
  ])('%s', (_, layout, start, tree) => {
    for (const p of layout) make(p);
    expect(boxTreeOf(path.join(root, start))).toBe(path.join(root, tree));
  });

  it("ignores core.worktree: a repository made to name another folder its work tree keeps the tree where its .git is", () => {
    make('home/proj/');
    const proj = path.join(root, 'home', 'proj');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: proj, env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'x');
    git('config', 'core.worktree', path.join(root, 'home'));
    expect(git('rev-parse', '--show-toplevel').trim()).toBe(path.join(root, 'home'));
    expect(boxTreeOf(proj)).toBe(proj);
  });
});
