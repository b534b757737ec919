// The unix sockets a box must cover (issue 32), found before each step: `find -type s` over the
// places socketSearch names (HOME, the run's tree, the runtime folder), passing over the hidden
// folders, plus the sockets the agent variables name. find runs as a child process: faster than a
// walk in Node (50 ms for 100,000 files against 250 ms), and it does not hold aish's event loop.
// A search that does not end in time is not guessed at: the step does not run.

import { spawn } from 'node:child_process';
import { realpathSync, statSync, type Stats } from 'node:fs';
import { findOnPath } from '../find-on-path.js';
import { agentSocketPaths, socketSearch, type BoxPath, type SocketSearch } from './sandbox.js';

/** The sockets found, or why the search could not be finished (the box cannot vouch for them). */
export type FoundSockets = { type: 'found'; sockets: string[] } | { type: 'unfinished'; why: string };

/** How long the search may take: a HOME of a million files takes 0.5 s here, 2.2 s from a cold cache. */
export const SOCKET_SEARCH_MS = 10_000;

/** What socketsToCover looks at: real paths of HOME and the tree. */
export interface BoxOfSteps {
  home: string;
  /** aish's own environment: XDG_RUNTIME_DIR, PATH (to find find), the agent variables. */
  env: Record<string, string | undefined>;
  /** The step's environment, whose agent variables count too. */
  stepEnv: Record<string, string | undefined>;
  tree: string;
  hidden: readonly BoxPath[];
}

/**
 * The sockets a box for a step writing in `tree` must cover: those in HOME and aish's runtime
 * folder, and those the agent variables of aish and of the step's environment name. Shared by
 * the Norris box and the preview. Never rejects.
 */
export function socketsToCover(box: BoxOfSteps, signal: AbortSignal): Promise<FoundSockets> {
  const { home, env, stepEnv, tree, hidden } = box;
  // Its real path: find does not follow a link it is given, and /run may be reached by one (/var/run).
  const runtime = env.XDG_RUNTIME_DIR ? realOrNone(env.XDG_RUNTIME_DIR)[0] : undefined;
  const search = socketSearch(home, { ...env, XDG_RUNTIME_DIR: runtime }, tree, hidden);
  const named = [...new Set([...search.named, ...agentSocketPaths(stepEnv)])];
  return findSockets({ ...search, named }, findOnPath('find', env.PATH ?? '/usr/bin:/bin') ?? 'find', signal);
}

/**
 * The sockets under `search.roots` (not under `search.skip`) and those `search.named`, real paths.
 * Never rejects; the signal stops the search ("unfinished"). A folder that cannot be listed is
 * passed over (find says so and goes on): its sockets could only be reached by a name known already.
 */
export function findSockets(search: SocketSearch, find: string, signal: AbortSignal, timeoutMs = SOCKET_SEARCH_MS): Promise<FoundSockets> {
  const named = search.named.filter((p) => statOf(p)?.isSocket()).flatMap(realOrNone);
  const roots = search.roots.filter((r) => statOf(r)?.isDirectory());
  if (roots.length === 0) return Promise.resolve({ type: 'found', sockets: named });
  const prune = search.skip.flatMap((p, i) => [...(i > 0 ? ['-o'] : []), '-path', globEscape(p)]);
  // -P: links are not followed (a link's target outside HOME is not HOME's to search).
  const args = ['-P', ...roots, ...(prune.length > 0 ? ['(', ...prune, ')', '-prune', '-o'] : []), '-type', 's', '-print0'];
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let stderr = '';
    const child = spawn(find, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
    child.stdout.on('data', (b: Buffer) => chunks.push(b));
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 4096) stderr += b.toString('utf8');
    });
    child.on('error', (err) => resolve(unfinished(err.name === 'AbortError' ? (signal.aborted ? 'cancelled' : `it took longer than ${timeoutMs / 1000} s`) : err.message, roots)));
    child.on('close', (code) => {
      // 1: some folder could not be listed (or vanished meanwhile); the rest was searched.
      if (code !== 0 && code !== 1) return resolve(unfinished(stderr.trim().split('\n')[0] || `find exited ${code}`, roots));
      const found = Buffer.concat(chunks).toString('utf8').split('\0').filter(Boolean);
      resolve({ type: 'found', sockets: [...new Set([...found, ...named])] });
    });
  });
}

function unfinished(why: string, roots: readonly string[]): FoundSockets {
  return { type: 'unfinished', why: `the search for unix sockets in ${roots.join(' and ')} did not finish (${why})` };
}

function realOrNone(p: string): string[] {
  try {
    return [realpathSync(p)];
  } catch {
    return [];
  }
}

function statOf(p: string): Stats | undefined {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

/** `p` as a find -path pattern that matches only itself. */
export function globEscape(p: string): string {
  return p.replace(/[\\*?[\]]/g, '\\$&');
}
