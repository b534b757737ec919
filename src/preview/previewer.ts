// Runs a command in a throwaway copy-on-write view and says what it would have done. Linux only:
// `unshare` makes a user and mount namespace with an overlay over the tree and over the home
// folder, bubblewrap runs the command there without network and with a private /tmp
// (preview-argv.ts), and the overlays and that /tmp are read before the namespace ends
// (overlay-changes.ts); the hidden places the command named are found (hidden-reach.ts).
// The real files are never written: the overlays' upper layers live in a scratch folder of aish's
// that is removed afterwards. Whether it works here is found out once, by a preview of a command
// that deletes a file and makes a folder in its place (a whiteout, then an opaque folder).

import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { platform, tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { findOnPath } from '../find-on-path.js';
import { existingPlaces, realOf } from '../norris/box.js';
import { socketsToCover } from '../norris/box-sockets.js';
import { isInside, secretPlaces, withoutAgents, type BoxPath } from '../norris/sandbox.js';
import { OutputCapture, type CapturedOutput } from '../shell/capture.js';
import { hiddenReached, type HiddenReach } from './hidden-reach.js';
import { readCreated, readOverlayChanges, type FileChange } from './overlay-changes.js';
import { LAYER_DIRS, overlaidFolders, overlayDir, overlayLayers, previewArgv, type PreviewPlan } from './preview-argv.js';
import { textDiff, type FileDiff } from './text-diff.js';

/** Whether previews can run here; `why` says why not. */
export type PreviewAvailability = { available: true } | { available: false; why: string };

export interface PreviewerParts {
  /** aish's own environment: PATH (to find unshare, bwrap and mount), HOME and the XDG folders. */
  env: Record<string, string | undefined>;
  /** Where scratch folders are made (aish's state folder); the system's temp folder where it cannot hold an overlay's layers, or when null. */
  scratchDir: string | null;
  /** More places the command cannot read, as `norris.hidden_paths`. */
  hiddenPaths: readonly string[];
  /** Most characters of the command's output kept (`shell.capture_max_chars`). */
  captureMaxChars: number;
}

export interface PreviewRequest {
  command: string;
  /** The session shell's directory and exported environment. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** The git work tree's top, or the directory. */
  tree: string;
  /** The shell the command runs in (`<shell> -c <command>`). */
  shell: string;
  timeoutMs: number;
  signal: AbortSignal;
}

export type PreviewResult =
  | { type: 'unavailable'; why: string }
  | { type: 'failed'; why: string }
  | { type: 'cancelled' }
  | {
      type: 'done';
      /** The folder whose changes are the tree's; the others (the home folder, /tmp) are outside it. */
      tree: string;
      /** The command's exit status; 128+N when a signal ended it. */
      exitCode: number;
      /** Stopped at the time limit (the changes are those made until then). */
      timedOut: boolean;
      output: CapturedOutput;
      changes: FileChange[];
      /** False when there were more changed entries than were read. */
      complete: boolean;
      diffs: FileDiff[];
      /** Hidden places the command named, or its output named as denied: a real run reaches them. */
      hidden: HiddenReach[];
    };

/** How long the one probe may take. */
const PROBE_TIMEOUT_MS = 10_000;
/** After Ctrl-C, how long a box that never reported may keep the script before its group is killed. */
const ABORT_BACKSTOP_MS = 2000;
/** Most changed files given a diff. */
const MAX_DIFFS = 5;
/** The folder in a scratch folder bound on the box's /tmp. */
const TMP_DIR = 'tmp';

export class Previewer {
  readonly #parts: PreviewerParts;
  #availability: Promise<PreviewAvailability> | null = null;
  /** The scratch folder's parent where the probe worked. */
  #root: string | null = null;

  constructor(parts: PreviewerParts) {
    this.#parts = parts;
  }

  /** Whether previews work here, found out once per session by a small preview (the probe). */
  availability(): Promise<PreviewAvailability> {
    this.#availability ??= this.#probe();
    return this.#availability;
  }

  /**
   * Previews `req.command`; `label` turns a changed file's path into what the diff is headed with.
   * Never rejects; nothing it does outside the scratch folder remains.
   */
  async run(req: PreviewRequest, label: (file: string) => string): Promise<PreviewResult> {
    const availability = await this.availability();
    if (!availability.available) return { type: 'unavailable', why: availability.why };
    if (req.signal.aborted) return { type: 'cancelled' };
    const home = this.#parts.env.HOME;
    const overlays = overlaidFolders(realOf(req.tree), home ? realOf(home) : undefined);
    const places = secretPlaces(home || '/', this.#parts.env, this.#parts.hiddenPaths);
    const hidden = existingPlaces(places);
    // The Norris box's sockets: an agent's socket is a credential, wherever the preview can see it.
    const found = await socketsToCover({ home: realOf(home || '/'), env: this.#parts.env, stepEnv: req.env, tree: realOf(req.tree), hidden }, req.signal);
    if (req.signal.aborted) return { type: 'cancelled' };
    if (found.type === 'unfinished') return { type: 'failed', why: found.why };
    const result = await this.#preview(this.#root!, req, overlays, hidden, found.sockets, label);
    if (result.type !== 'done') return result;
    // As configured and as real: the command names them either way (`~/.ssh`, a link's target).
    const named = [...new Set([...hidden.map((p) => p.path), ...places.filter((p) => hidden.some((h) => h.path === realOf(p)))])];
    const reached = hiddenReached({ command: req.command, output: result.output.text, cwd: req.cwd, home: req.env.HOME ?? home, hidden: named });
    return { ...result, hidden: reached };
  }

  async #probe(): Promise<PreviewAvailability> {
    if (platform() !== 'linux') return { available: false, why: `${platform()} has none` };
    const PATH = this.#parts.env.PATH ?? '/usr/bin:/bin';
    if (!findOnPath('unshare', PATH)) return { available: false, why: 'unshare (util-linux) is not installed' };
    if (!findOnPath('bwrap', PATH)) return { available: false, why: 'bubblewrap (bwrap) is not installed' };
    // An overlay's upper layer cannot be on every file system (not on another overlay, as in a
    // container; not on an old tmpfs): the first scratch folder where the probe works is kept.
    let first: string | null = null;
    for (const root of this.#scratchRoots()) {
      const why = await this.#probeIn(root, PATH);
      if (why === null) {
        this.#root = root;
        return { available: true };
      }
      first ??= why;
    }
    return { available: false, why: first ?? 'no scratch folder' };
  }

  /** Previews a command that deletes a file and makes a folder in its place, in `root`; null when it worked, else why not. */
  async #probeIn(root: string, PATH: string): Promise<string | null> {
    let tree: string | null = null;
    try {
      ownPrivateFolder(root);
      sweepStale(root);
      tree = mkdtempSync(path.join(root, 'probe-'));
      writeFileSync(path.join(tree, 'f'), 'x');
      const result = await this.#preview(
        root,
        { command: 'rm f && mkdir f && echo y > f/g', cwd: tree, env: { PATH }, tree, shell: '/bin/sh', timeoutMs: PROBE_TIMEOUT_MS, signal: new AbortController().signal },
        [tree],
        [],
        [],
        (file) => file,
      );
      if (result.type === 'failed' || result.type === 'unavailable') return result.why;
      if (result.type !== 'done' || result.exitCode !== 0) return result.type === 'done' ? result.output.text.split('\n')[0] || `exit ${result.exitCode}` : 'the probe did not finish';
      return null;
    } catch (err) {
      return (err as Error).message;
    } finally {
      if (tree) removeTree(tree);
    }
  }

  /**
   * Where scratch folders may go: aish's state folder, else the system's temp folder, else /dev/shm
   * (their names are known: ownPrivateFolder refuses one another user made first).
   */
  #scratchRoots(): string[] {
    const own = `aish-preview-${userInfo().uid}`;
    return [...new Set([this.#parts.scratchDir, path.join(tmpdir(), own), path.join('/dev/shm', own)].filter((d): d is string => d !== null))];
  }

  async #preview(root: string, req: PreviewRequest, overlays: string[], hidden: BoxPath[], sockets: readonly string[], label: (file: string) => string): Promise<PreviewResult> {
    const PATH = this.#parts.env.PATH ?? '/usr/bin:/bin';
    let scratch: string;
    try {
      ownPrivateFolder(root);
      scratch = mkdtempSync(path.join(root, 'preview-'));
      for (let n = 0; n < overlays.length; n++) for (const d of LAYER_DIRS) mkdirSync(path.join(overlayDir(scratch, n), d), { recursive: true });
      mkdirSync(path.join(scratch, TMP_DIR));
    } catch (err) {
      return { type: 'failed', why: `no scratch folder: ${(err as Error).message}` };
    }
    try {
      const { uid, gid } = userInfo();
      const plan: PreviewPlan = {
        unshare: findOnPath('unshare', PATH) ?? 'unshare',
        mount: findOnPath('mount', PATH) ?? '/bin/mount',
        scratch,
        overlays,
        tmp: path.join(scratch, TMP_DIR),
        box: {
          bwrap: findOnPath('bwrap', PATH) ?? 'bwrap',
          tree: req.tree,
          cwd: req.cwd,
          network: false,
          // The scratch folder is hidden too (it is, inside aish's hidden state folder): the command
          // sees none of the preview's machinery.
          hidden: hidden.some((p) => p.kind === 'dir' && isInside(scratch, p.path)) ? hidden : [...hidden, { path: scratch, kind: 'dir' }],
          readOnly: [],
          sockets,
          ids: { uid, gid },
        },
        shell: req.shell,
        command: req.command,
      };
      return await this.#runPlan(plan, req, label);
    } finally {
      removeTree(scratch);
    }
  }

  /** Runs the plan, reads the overlays while the script waits, then lets it end. */
  async #runPlan(plan: PreviewPlan, req: PreviewRequest, label: (file: string) => string): Promise<PreviewResult> {
    const [file, ...args] = previewArgv(plan);
    // A process group of its own: Ctrl-C on the terminal is aish's to handle (the line's signal).
    const child = spawn(file!, args, { cwd: '/', env: { ...withoutAgents(req.env), PWD: req.cwd } as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true });
    const capture = new OutputCapture(this.#parts.captureMaxChars);
    const decoder = new StringDecoder('utf8');
    let stderr = '';
    let spawnError: string | null = null;
    /** The box's first process: bwrap's `child-pid`, init of the pid namespace the command runs in. */
    let boxPid: number | null = null;
    let stopping = false;
    let timedOut = false;
    let cancelled = false;
    /** The box has ended: its pid is no longer ours to signal. */
    let ended = false;

    child.stdout!.on('data', (b: Buffer) => capture.push(decoder.write(b)));
    child.stderr!.on('data', (b: Buffer) => {
      if (stderr.length < 4096) stderr += b.toString('utf8');
    });
    child.stdin!.on('error', () => {});
    const closed = new Promise<void>((resolve) => {
      child.on('error', (err) => ((spawnError = err.message), resolve()));
      child.on('close', () => resolve());
    });
    const kill = (pid: number | null | undefined) => {
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    // Killing the box's init ends its pid namespace and so every process the command started,
    // whatever session it made; the script lives on, so that what the command did can be read.
    // A box not reported yet is killed as soon as it is.
    const stop = () => {
      stopping = true;
      if (!ended) kill(boxPid);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, req.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      stop();
      // Should the box never report (stuck before it started), the script and bwrap go anyway.
      setTimeout(() => ended || kill(-child.pid!), ABORT_BACKSTOP_MS).unref();
    };
    req.signal.addEventListener('abort', onAbort, { once: true });

    try {
      const status = await new Promise<number | null>((resolve) => {
        let pending = '';
        const control = child.stdio[3] as NodeJS.ReadableStream;
        control.setEncoding('utf8');
        control.on('data', (text: string) => {
          pending += text;
          for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
            const line = pending.slice(0, nl);
            pending = pending.slice(nl + 1);
            const box = /"child-pid":\s*(\d+)/.exec(line);
            if (box) {
              boxPid = Number(box[1]);
              if (stopping) kill(boxPid);
            }
            const end = /^ended (\d+)$/.exec(line);
            if (end) {
              ended = true;
              resolve(Number(end[1]));
            }
          }
        });
        control.on('error', () => resolve(null));
        void closed.then(() => resolve(null));
      });
      clearTimeout(timer);
      let result: PreviewResult;
      if (cancelled) result = { type: 'cancelled' };
      else if (status === null) result = { type: 'failed', why: spawnError ?? firstLine(stderr) ?? `${path.basename(plan.unshare)} ended before the command ran` };
      else {
        const rest = decoder.end();
        if (rest) capture.push(rest);
        const output = capture.finish();
        // bwrap says why it could not build the box, and exits 1, before the command runs.
        const boxFailed = status === 1 && /^bwrap: (.*)/.exec(output.text);
        if (boxFailed) result = { type: 'failed', why: `bwrap: ${boxFailed[1]}` };
        else {
          try {
            result = { type: 'done', tree: req.tree, exitCode: status, timedOut, output, ...(await readChanges(plan, child.pid!, label)), hidden: [] };
          } catch (err) {
            result = { type: 'failed', why: (err as Error).message };
          }
        }
      }
      child.stdin!.end('\n');
      await closed;
      return result;
    } finally {
      clearTimeout(timer);
      req.signal.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) kill(-child.pid!);
    }
  }
}

/** The changes in every overlay and in the private /tmp, and the diffs of the first changed text files. */
async function readChanges(plan: PreviewPlan, pid: number, label: (file: string) => string): Promise<{ changes: FileChange[]; complete: boolean; diffs: FileDiff[] }> {
  const changes: FileChange[] = [];
  let complete = true;
  const mountPoints = [...plan.overlays, ...plan.box.hidden.map((p) => p.path)];
  for (const reading of [...overlayLayers(plan, pid).map((layers) => readOverlayChanges(layers)), readCreated(plan.tmp, '/tmp', mountPoints)]) {
    changes.push(...reading.changes);
    complete &&= reading.complete;
  }
  const diffs: FileDiff[] = [];
  for (const change of changes.filter((c) => c.sources).slice(0, MAX_DIFFS)) {
    diffs.push(await textDiff(change.sources!.before, change.sources!.after, label(change.path)));
  }
  return { changes, complete, diffs };
}

function firstLine(text: string): string | null {
  return text.trim().split('\n')[0]?.replace(/^(bwrap|unshare|mount): /, '$1: ') || null;
}

/** How old a scratch folder must be to count as left behind (by an aish that was killed). */
const STALE_MS = 24 * 3600 * 1000;

/** Removes scratch folders left behind, once per session; a running preview's is far younger. */
function sweepStale(root: string): void {
  for (const name of readdirSync(root)) {
    if (!/^(preview|probe)-/.test(name)) continue;
    const dir = path.join(root, name);
    try {
      if (Date.now() - lstatSync(dir).mtimeMs > STALE_MS) removeTree(dir);
    } catch {
      // Gone meanwhile.
    }
  }
}

/**
 * Removes a scratch folder whole. The kernel leaves the overlay's work folder with mode 000, and
 * a command may have made folders nobody can enter: each folder is made the owner's first. Never
 * crosses into another file system (a mount point left there would not be ours to empty).
 */
export function removeTree(dir: string): void {
  const fix = (p: string, dev: number) => {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return;
    }
    if (!st.isDirectory() || st.dev !== dev) return;
    try {
      chmodSync(p, 0o700);
      for (const name of readdirSync(p)) fix(path.join(p, name), dev);
    } catch {
      // What cannot be fixed, rmSync reports below.
    }
  };
  try {
    fix(dir, lstatSync(dir).dev);
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Left behind: the next run makes a new scratch folder beside it.
  }
}

/**
 * Makes `root` (0700) or checks the one there: a real folder of this user's that no one else may
 * enter. In a shared /tmp another user could have made `aish-preview-<uid>` first, to watch or
 * change what a preview writes.
 */
export function ownPrivateFolder(root: string): void {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const st = lstatSync(root);
  if (!st.isDirectory() || st.uid !== userInfo().uid || (st.mode & 0o077) !== 0) {
    throw new Error(`${root} is not a private folder of this user's (owner ${st.uid}, mode ${(st.mode & 0o777).toString(8)})`);
  }
}
