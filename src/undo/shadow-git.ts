// git run on a shadow repository: GIT_DIR is aish's own store, GIT_WORK_TREE the person's tree.
// Nothing of the person's git is read but the tree's files and ignore rules: no system or global
// config (so no fsmonitor, hooks, filters or pagers they name), no environment variable of theirs,
// and the store's own config turns the rest off (store.ts writes it). Never rejects.

import { spawn } from 'node:child_process';

export interface ShadowPlace {
  /** The store's git directory. */
  gitDir: string;
  /** The person's tree. */
  workTree: string;
}

export interface GitResult {
  /** 0 when git succeeded; null when it could not start or was stopped. */
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** Set when git could not be started at all (ENOENT: not installed). */
  spawnError?: NodeJS.ErrnoException;
  /** git ran past its time limit and was killed. */
  timedOut?: boolean;
}

/**
 * How long one git of a snapshot may take. Past it git is killed and the action goes on without a
 * checkpoint: a tree can hold what makes git wait forever (a FIFO named .gitignore, a folder on a
 * hung network mount), and the approved command waits for the snapshot before it.
 */
export const GIT_TIME_LIMIT_MS = 20_000;

export interface GitOptions {
  /** Past it git is killed (default GIT_TIME_LIMIT_MS). */
  timeLimitMs?: number;
  /** Written to git's stdin (then closed). */
  input?: Buffer | string;
  /**
   * Called with each chunk of stdout; returning true stops git at once (the answer is known: a
   * file list already past the limit). The result's code is then null.
   */
  onStdout?: (chunk: Buffer) => boolean;
  /**
   * Run in the tree (commands whose paths are relative to it: ls-files, update-index); the others
   * run in the store, so they work when the action removed the tree.
   */
  inTree?: boolean;
}

/**
 * The environment git runs with: aish's PATH and the shadow places; nothing else of the person's
 * environment, where a GIT_DIR, GIT_INDEX_FILE or GIT_EXTERNAL_DIFF the shell exported would point
 * git elsewhere. HOME is the store itself, so a git too old for GIT_CONFIG_GLOBAL finds no global
 * config either; the person's global ignore file is named in the store's config instead.
 */
export function shadowEnv(place: ShadowPlace, env: Record<string, string | undefined>, home: string): Record<string, string> {
  const out: Record<string, string> = {
    PATH: env.PATH ?? '/usr/bin:/bin',
    LC_ALL: 'C',
    GIT_DIR: place.gitDir,
    GIT_WORK_TREE: place.workTree,
    GIT_INDEX_FILE: `${place.gitDir}/index`,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    // glibc gives back memory after each file's zlib stream: a first snapshot of 5 000 files
    // spends three quarters of its time in brk() without this (bench/undo.ts).
    MALLOC_TOP_PAD_: String(64 * 1024 * 1024),
    HOME: home,
    XDG_CONFIG_HOME: home,
  };
  return out;
}

/** Runs `git <args>` in the tree with the shadow environment. Never rejects. */
export function runGit(place: ShadowPlace, env: Record<string, string>, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd: options.inTree ? place.workTree : place.gitDir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let stopped = false;
    let spawnError: NodeJS.ErrnoException | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return;
      out.push(chunk);
      if (options.onStdout?.(chunk)) {
        stopped = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4096) err += chunk.toString('utf8');
    });
    child.stdin.on('error', () => {});
    child.on('error', (e: NodeJS.ErrnoException) => (spawnError = e));
    let timedOut = false;
    const limit = setTimeout(() => {
      timedOut = true;
      stopped = true;
      child.kill('SIGKILL');
    }, options.timeLimitMs ?? GIT_TIME_LIMIT_MS);
    child.on('close', (code) => {
      clearTimeout(limit);
      const stderr = timedOut ? `git took longer than ${Math.round((options.timeLimitMs ?? GIT_TIME_LIMIT_MS) / 1000)} s` : err.trim();
      resolve({ code: stopped ? null : code, stdout: Buffer.concat(out), stderr, ...(spawnError ? { spawnError } : {}), ...(timedOut ? { timedOut } : {}) });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** git's first line of complaint, for a status line. */
export function gitComplaint(result: GitResult): string {
  if (result.spawnError) return result.spawnError.message;
  const line = result.stderr.split('\n').find((l) => /^(fatal|error): /.test(l)) ?? result.stderr.split('\n')[0] ?? '';
  return line.replace(/^(fatal|error): /, '') || `git exited ${result.code}`;
}

/**
 * The person's global ignore file (`core.excludesFile`, else git's default
 * `$XDG_CONFIG_HOME/git/ignore`), asked of git with their own environment: reading config runs
 * nothing. Null when there is none to honour.
 */
export function personalExcludesFile(env: Record<string, string | undefined>): Promise<string | null> {
  const home = env.HOME;
  const fallback = env.XDG_CONFIG_HOME ? `${env.XDG_CONFIG_HOME}/git/ignore` : home ? `${home}/.config/git/ignore` : null;
  const askEnv: Record<string, string> = { PATH: env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' };
  if (home) askEnv.HOME = home;
  if (env.XDG_CONFIG_HOME) askEnv.XDG_CONFIG_HOME = env.XDG_CONFIG_HOME;
  return new Promise((resolve) => {
    const child = spawn('git', ['config', '--global', '--type=path', '--get', 'core.excludesFile'], { env: askEnv, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', () => resolve(fallback));
    child.on('close', (code) => resolve(code === 0 && out.trim() !== '' ? out.replace(/\n$/, '') : fallback));
  });
}
