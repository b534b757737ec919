// Norris steps in the sandbox: finds bubblewrap and tries a trivial boxed `true` once per session
// (the answer says why there is no box, if there is none), then runs each step as a fresh
// `<shell> -c` behind the box's argv (sandbox.ts), from the session shell's directory and exported
// environment without its secrets and agent variables, writing only in the run's tree
// (box-tree.ts), with the unix sockets of HOME covered (box-sockets.ts), and tells the model when
// the box stopped a step.

import { spawn } from 'node:child_process';
import { realpathSync, rmdirSync, statSync } from 'node:fs';
import { platform } from 'node:os';
import path from 'node:path';
import { CONFIG_SEARCH_PLACES } from '../config/load.js';
import { findOnPath } from '../find-on-path.js';
import type { Config } from '../config/schema.js';
import { withoutSecrets } from '../safety/redact.js';
import { exists, gitFoldersOf } from '../undo/tree.js';
import { socketsToCover } from './box-sockets.js';
import { bwrapArgv, blockedNote, isInside, laterRunPlaces, secretPlaces, withoutAgents, type BoxPath, type BoxSettings } from './sandbox.js';

/** Whether steps can be boxed here; `why` says why not. */
export type BoxAvailability = { available: true } | { available: false; why: string };

/** The part of the session's shell the box runs steps through (ShellRunner). */
export interface IsolatedShell {
  readonly cwd: string;
  readonly env: Record<string, string | undefined>;
  syncEnv(): Promise<void>;
  runIsolated(command: string, signal: AbortSignal, how: { wrap: readonly string[]; env: Record<string, string> }): Promise<{ exitCode: number; output: string }>;
}

export interface NorrisBoxParts {
  config: Pick<Config, 'norris' | 'models' | 'mcp'>;
  /** aish's own environment: HOME, the XDG folders, PATH to find bwrap. */
  env: Record<string, string | undefined>;
  shell: IsolatedShell;
  /** Adds a note for the model to the pending output. */
  note: (text: string) => void;
  /** Tells the person (a step the box would not run). */
  status: (message: string) => void;
}

/** How long the probe may take before the box counts as unavailable. */
const PROBE_TIMEOUT_MS = 5000;

export class NorrisBox {
  readonly #parts: NorrisBoxParts;
  #availability: Promise<BoxAvailability> | null = null;

  constructor(parts: NorrisBoxParts) {
    this.#parts = parts;
  }

  /** Whether a box can be built, found out once per session by building one around `true`. */
  availability(): Promise<BoxAvailability> {
    this.#availability ??= this.#probe();
    return this.#availability;
  }

  async #probe(): Promise<BoxAvailability> {
    if (this.#parts.config.norris.sandbox === 'off') return { available: false, why: 'norris.sandbox is off' };
    if (platform() !== 'linux') return { available: false, why: `no sandbox on ${platform()} (Linux only)` };
    const bwrap = findOnPath('bwrap', this.#parts.env.PATH ?? '/usr/bin:/bin');
    if (!bwrap) return { available: false, why: 'bubblewrap (bwrap) is not installed' };
    const dir = this.#parts.env.HOME || '/';
    const argv = bwrapArgv({ bwrap, tree: dir, cwd: dir, network: this.#parts.config.norris.network, hidden: [], readOnly: [] });
    const failure = await tryRun([...argv, 'true'], { PATH: this.#parts.env.PATH ?? '/usr/bin:/bin' });
    return failure === null ? { available: true } : { available: false, why: `bwrap cannot build a sandbox here (${failure})` };
  }

  /**
   * Runs one step in the box, from the session shell's directory, writing only in `tree`: the
   * run's tree (boxTreeOf, decided when the run started), wherever the step starts. Never rejects.
   */
  async run(command: string, tree: string, signal: AbortSignal): Promise<void> {
    const { shell, config } = this.#parts;
    await shell.syncEnv();
    const base = this.settings(shell.cwd, tree);
    const { env } = this.#parts;
    const found = await socketsToCover({ home: realOf(env.HOME || '/'), env, stepEnv: shell.env, tree, hidden: base.hidden }, signal);
    if (signal.aborted) return;
    if (found.type === 'unfinished') {
      // Sockets the search did not reach could be an agent's: the step does not run unboxed from them.
      this.#parts.status(`[Norris] '${command}' not run: ${found.why} (a big folder without sockets can go in norris.hidden_paths, which hides it from steps too)`);
      this.#parts.note(`[aish] the Norris sandbox could not start: ${found.why}; the step did not run (a big folder without sockets can be listed in norris.hidden_paths, which hides it too)`);
      return;
    }
    const settings: BoxSettings = { ...base, sockets: found.sockets };
    // bwrap makes the blocked places' mount points (and missing folders above them) in the tree.
    const made = (settings.blocked ?? []).flatMap(missingFoldersOf);
    try {
      const result = await shell.runIsolated(command, signal, { wrap: bwrapArgv(settings), env: withoutAgents(withoutSecrets(shell.env, config)) });
      if (signal.aborted) return;
      const note = blockedNote(result, settings);
      if (note) this.#parts.note(note);
    } finally {
      removeEmptyFolders(made);
    }
  }

  /**
   * The box for a step in `cwd` writing in `tree`: the places that run later read-only where they
   * exist, and kept from being made where they do not.
   */
  settings(cwd: string, tree: string): BoxSettings {
    const { config, env } = this.#parts;
    const home = env.HOME || '/';
    const ownConfigs = CONFIG_SEARCH_PLACES.filter((name) => name.startsWith('.'));
    // The git folders a `.git` file names count with it (a project unpacked with its `gitdir:`
    // inside). Only real paths inside the tree: the rest is read-only already, and binding a
    // link's target (`.git -> /run/docker.sock`) would show it under the private /tmp and /run.
    const folders = gitFoldersOf(tree);
    const later = [...laterRunPlaces(tree, home, ownConfigs), ...(folders ? [folders.gitDir, folders.common] : [])];
    return {
      bwrap: findOnPath('bwrap', env.PATH ?? '/usr/bin:/bin') ?? 'bwrap',
      tree,
      cwd,
      network: config.norris.network,
      hidden: existingPlaces(secretPlaces(home, env, config.norris.hidden_paths)),
      readOnly: existingPlaces(later).filter((p) => isInside(p.path, tree)),
      blocked: later.filter((p) => canBlock(p, tree)),
    };
  }
}

/**
 * Whether `p` is missing (not even a dangling link: bwrap cannot mount on one) and its nearest
 * existing folder is really in the tree. Under a link out of the tree it is read-only already,
 * and bwrap could not make its mount point there.
 */
function canBlock(p: string, tree: string): boolean {
  if (exists(p)) return false;
  let at = path.dirname(p);
  while (!exists(at)) at = path.dirname(at);
  try {
    const real = realpathSync(at);
    return isInside(real, tree) && statSync(real).isDirectory();
  } catch {
    return false;
  }
}

/** `p` and the folders above it that are missing now, deepest first: what bwrap makes to mount on `p`. */
function missingFoldersOf(p: string): string[] {
  const missing: string[] = [];
  for (let at = p; !exists(at); at = path.dirname(at)) missing.push(at);
  return missing;
}

/**
 * Removes each of `paths` that is an empty folder, in order: the mount points bwrap left in the
 * tree for the blocked places, and the folders it made for them. Nothing could be written in a
 * mount point during the step; a folder the step filled stays.
 */
function removeEmptyFolders(paths: readonly string[]): void {
  for (const p of paths) {
    try {
      rmdirSync(p);
    } catch {
      // Not there, not a folder, or not empty: not the box's.
    }
  }
}

/** The paths that exist, resolved (a symlinked ~/.ssh hides its target), each once, with their kind. */
export function existingPlaces(paths: readonly string[]): BoxPath[] {
  const found = new Map<string, BoxPath>();
  for (const p of paths) {
    try {
      const real = realpathSync(p);
      found.set(real, { path: real, kind: statSync(real).isDirectory() ? 'dir' : 'file' });
    } catch {
      // Not there: nothing to hide.
    }
  }
  return [...found.values()];
}

/** `p` with its symlinks resolved; as given (made absolute) when it does not exist. */
export function realOf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Runs argv; null when it exited 0, else what went wrong (its first line of stderr). */
function tryRun(argv: readonly string[], env: Record<string, string>): Promise<string | null> {
  return new Promise((resolve) => {
    const [file, ...args] = argv as [string, ...string[]];
    let stderr = '';
    const child = spawn(file, args, { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS });
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.on('error', (err) => resolve(err.message));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(null);
      else resolve(stderr.trim().split('\n')[0]?.replace(/^bwrap: /, '') || (signal ? `killed by ${signal}` : `exit ${code}`));
    });
  });
}
