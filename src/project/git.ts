// What git says about the directory aish is in: the work tree's root, the branch, the tracked
// files, and `git diff`. Every call runs git with a time limit and never rejects: outside a work
// tree, or without git, the answer is null.
//
// aish runs these without the person typing them (the [project] block goes with every question),
// in a directory anyone could have made, and a repository's own .git/config can name programs
// git runs while it only reads: `core.fsmonitor` (even for `ls-files`), and for `diff` the clean
// filters of .gitattributes, textconv drivers and an external diff. Each is turned off here
// (docs/security.md "Project trust").

import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';

/** How long one git call may take. */
const GIT_TIMEOUT_MS = 5000;
/** Most bytes read from one git call (a huge diff or file list is cut, not buffered whole). */
const GIT_MAX_BYTES = 32 * 1024 * 1024;

export interface WorkTree {
  root: string;
  /** The branch, or `HEAD` when detached. */
  branch: string;
  /** Modified time of the index: the file list changes only when it does. */
  indexStamp: number;
}

/** Runs git in `cwd` with the fsmonitor hook off; resolves its stdout, or null when it failed. */
export function git(cwd: string, args: string[], env: Record<string, string | undefined>): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'core.fsmonitor=false', ...args], { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BYTES, encoding: 'utf8' }, (err, stdout) => {
      resolve(err ? null : stdout);
    });
  });
}

/** The work tree `cwd` is in, or null outside one. */
export async function workTreeOf(cwd: string, env: Record<string, string | undefined>): Promise<WorkTree | null> {
  const out = await git(cwd, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--abbrev-ref', 'HEAD'], env);
  if (out === null) return null;
  const [root, gitDir, branch] = out.split('\n');
  if (!root || !gitDir) return null;
  let indexStamp = 0;
  try {
    indexStamp = statSync(path.join(gitDir, 'index')).mtimeMs;
  } catch {
    // A repository without an index yet: nothing is tracked.
  }
  return { root, branch: branch || 'HEAD', indexStamp };
}

/** The tracked files of the work tree at `root`, relative to it. */
export async function trackedFiles(root: string, env: Record<string, string | undefined>): Promise<string[]> {
  const out = await git(root, ['ls-files', '-z'], env);
  return out === null ? [] : out.split('\0').filter(Boolean);
}

/**
 * `git diff` in `cwd` with `args` (`--staged`, a ref), without colour or pager, and without running
 * any program the repository's config names (filters, textconv, an external diff); null outside a
 * work tree or when git refuses (an unknown ref).
 */
export async function gitDiff(cwd: string, args: readonly string[], env: Record<string, string | undefined>): Promise<string | null> {
  return git(cwd, [...(await filtersOff(cwd, env)), '--no-pager', 'diff', '--no-color', '--no-ext-diff', '--no-textconv', ...args], env);
}

/**
 * `-c` settings that empty every filter driver configured for `cwd` (reading the config runs
 * nothing): an empty command is no filter, and a required one may then be missing.
 */
async function filtersOff(cwd: string, env: Record<string, string | undefined>): Promise<string[]> {
  const out = (await git(cwd, ['config', '--get-regexp', '^filter\\..*\\.(clean|smudge|process)$'], env)) ?? '';
  const names = new Set(out.split('\n').flatMap((line) => /^filter\.(.+)\.(?:clean|smudge|process)(?: |$)/.exec(line)?.[1] ?? []));
  return [...names].flatMap((name) => ['clean=', 'smudge=', 'process=', 'required=false'].flatMap((setting) => ['-c', `filter.${name}.${setting}`]));
}
