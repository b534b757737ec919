// Checkpoints for a session (docs/undo.md): a snapshot of the tree before and after each action
// aish runs on the person's behalf, kept when the action changed a file, and `:undo` to put the
// files back. A checkpoint that cannot be taken never stops the action: it says why, once per
// tree (too many files, the home folder) or once per session (undo off, git missing).

import path from 'node:path';
import type { Config } from '../config/schema.js';
import { UsageError } from '../errors.js';
import { applyRestore, CHANGED_SINCE, planRestore, TOO_LARGE, type FileState, type RestoreReport } from './restore.js';
import { personalExcludesFile } from './shadow-git.js';
import { ABSENT, ShadowStore, type CheckpointRecord, type SnapshotResult, type TreeChange } from './store.js';
import { storeDirOf, treeOf } from './tree.js';
import { coverOf, vanished, type UnseenEntry } from './unseen.js';

/** How many of the unseen things an action made vanish a checkpoint names. */
const VANISHED_KEPT = 20;

/** System folders of everyone's temporary files: never a tree of one's own. */
const SHARED_TEMP = new Set(['/tmp', '/var/tmp', '/dev/shm']);

/** An action about to run: what ran, and for a Norris step its run and number. */
export interface CheckpointAction {
  command: string;
  origin: 'cmd' | 'typed' | 'norris';
  norris?: { run: string; step: number };
}

/** Runs `work` between two snapshots of the tree of `cwd` (the part Norris and the REPL see). */
export type Checkpointer = <T>(action: CheckpointAction, cwd: string, work: () => Promise<T>) => Promise<T>;

export interface CheckpointsParts {
  config: Omit<Config['undo'], 'preview_timeout_ms'>;
  /** aish's XDG state dir; undefined: no checkpoints (said once). */
  stateDir: string | undefined;
  /** aish's environment: PATH to find git, HOME. */
  env: Record<string, string | undefined>;
  status: (message: string) => void;
  /** Applied to the command a checkpoint record names (it is a file: no secret in it). */
  redact?: (text: string) => string;
  now?: () => Date;
}

/** What one `:undo` did. */
export interface UndoResult extends RestoreReport {
  /** The actions undone, newest first. */
  undone: CheckpointRecord[];
  tree: string;
}

export class Checkpoints {
  readonly #parts: CheckpointsParts;
  /** One store per tree, made once (a promise, so two callers at once share it). */
  readonly #stores = new Map<string, Promise<ShadowStore>>();
  /** Trees told they get no checkpoint (too many files, the home folder): none this session. */
  readonly #told = new Set<string>();
  /** Why there are no checkpoints at all this session, once known. */
  #off: string | null = null;
  #excludes: Promise<string | null> | null = null;
  /** The snapshot after the last action and its checkpoint, while they are being taken. */
  #after: Promise<void> = Promise.resolve();
  /** Trees whose first snapshot `prepare` has started. */
  readonly #prepared = new Set<string>();

  constructor(parts: CheckpointsParts) {
    this.#parts = parts;
  }

  get enabled(): boolean {
    return this.#parts.config.enabled;
  }

  /**
   * Runs `work` (the action) with a checkpoint around it: a snapshot of the tree of `cwd` before
   * and after. Kept when the action changed a file. Typed lines only with `undo.typed`.
   */
  readonly around: Checkpointer = async (action, cwd, work) => {
    const { config } = this.#parts;
    if (!config.enabled) return work();
    // The last action's snapshot after comes first: what runs now must not count as its doing.
    await this.#after;
    if (action.origin === 'typed' && !config.typed) return work();
    const tree = treeOf(cwd);
    const started = (this.#parts.now ?? (() => new Date()))();
    const store = await this.#usable(tree);
    const before = store && (await this.#snapshot(store, true));
    try {
      return await work();
    } finally {
      // Taken while the prompt comes back (or the next request goes out), not before it.
      if (store && before) this.#after = this.#record(store, action, started, before);
    }
  };

  /**
   * Makes the tree's first snapshot now, in the background, if it has none yet (once a session
   * per tree): called when the model is asked, so that the checkpoint before a command it proposes
   * only reads what changed since.
   */
  prepare(cwd: string): void {
    const { config, stateDir } = this.#parts;
    if (!config.enabled || this.#off || !stateDir) return;
    const tree = treeOf(cwd);
    if (this.#prepared.has(tree) || this.#refused(tree)) return;
    this.#prepared.add(tree);
    void this.#store(tree).then((store) => {
      if (!store.hasIndex) void store.snapshot({ maxFiles: config.max_files, maxFileBytes: config.max_file_bytes });
    });
  }

  /** Resolves once the last action's checkpoint is kept (before aish exits). */
  settled(): Promise<void> {
    return this.#after;
  }

  /** Undoes the newest action of the tree of `cwd` not undone yet; null when there is none. */
  async undo(cwd: string, force: boolean): Promise<UndoResult | null> {
    const store = await this.#storeFor(cwd);
    // --force also finishes an undo that kept files changed since (the person read why, and insists).
    const target = store
      .records()
      .filter((r) => !r.undone || (force && (r.left?.length ?? 0) > 0))
      .at(-1);
    if (!target) return null;
    return this.#undoAll(store, [target], force);
  }

  /** Undoes every step of the tree's last Norris run not undone yet; null when there is none. */
  async undoNorris(cwd: string, force: boolean): Promise<UndoResult | null> {
    const store = await this.#storeFor(cwd);
    const records = store.records();
    const run = records.filter((r) => r.norris).at(-1)?.norris?.run;
    const steps = records.filter((r) => r.norris?.run === run && !r.undone).reverse();
    if (run === undefined || steps.length === 0) return null;
    return this.#undoAll(store, steps, force);
  }

  /** The tree of `cwd` and its checkpoints, newest first. */
  async list(cwd: string): Promise<{ tree: string; records: CheckpointRecord[] }> {
    const store = await this.#storeFor(cwd);
    return { tree: store.tree, records: store.records().reverse() };
  }

  /** Resolves once every store's background work is done (tests, the bench). */
  async idle(): Promise<void> {
    await this.#after;
    await Promise.all([...this.#stores.values()].map(async (s) => (await s).idle()));
  }

  async #storeFor(cwd: string): Promise<ShadowStore> {
    if (!this.#parts.config.enabled) throw new UsageError('undo is off (undo.enabled: false)');
    if (!this.#parts.stateDir) throw new UsageError('undo is off: aish has no state directory (HOME or XDG_STATE_HOME)');
    await this.#after;
    if (this.#off) throw new UsageError(`undo is off: ${this.#off}`);
    return this.#store(treeOf(cwd));
  }

  #store(tree: string): Promise<ShadowStore> {
    let store = this.#stores.get(tree);
    if (!store) {
      this.#excludes ??= personalExcludesFile(this.#parts.env);
      store = this.#excludes.then((excludes) => new ShadowStore(storeDirOf(path.join(this.#parts.stateDir!, 'undo'), tree), tree, this.#parts.env, excludes));
      this.#stores.set(tree, store);
    }
    return store;
  }

  /**
   * Why `tree` gets no checkpoint whatever its size, or null: the home folder, the root or any
   * folder above the home folder (a walk of the whole disk, across every mount), or a system
   * folder for everyone's temporary files.
   */
  #refused(tree: string): string | null {
    const home = this.#parts.env.HOME ? treeOf(this.#parts.env.HOME) : undefined;
    if (home && tree === home) return 'the home folder';
    if (tree === path.parse(tree).root) return 'the root folder';
    if (SHARED_TEMP.has(tree)) return "everyone's temporary folder";
    if (home && home.startsWith(tree.endsWith(path.sep) ? tree : tree + path.sep)) return 'a folder that holds the home folder';
    return null;
  }

  /** The tree's store, or null (said once) when the tree gets no checkpoint. */
  async #usable(tree: string): Promise<ShadowStore | null> {
    if (this.#off) return null;
    if (!this.#parts.stateDir) {
      this.#turnOff('aish has no state directory (HOME or XDG_STATE_HOME)');
      return null;
    }
    // Too big once this session: not counted again (a walk of max_files files before every command).
    if (this.#told.has(tree)) return null;
    const refused = this.#refused(tree);
    if (refused) {
      this.#tellOnce(tree, `no checkpoint: ${tree} is ${refused}`);
      return null;
    }
    return this.#store(tree);
  }

  /** A snapshot, with what the ignore rules hide when `ignored` (before an action: what was there unseen). */
  async #snapshot(store: ShadowStore, ignored: boolean): Promise<Extract<SnapshotResult, { ok: true }> | null> {
    const { config } = this.#parts;
    const result = await store.snapshot({ maxFiles: config.max_files, maxFileBytes: config.max_file_bytes, ignored });
    if (result.ok) return result;
    if (result.reason === 'no-git') this.#turnOff(`git is not installed or not on PATH (${result.message}); checkpoints are kept with git`);
    else if (result.reason === 'too-many') this.#tellOnce(store.tree, `no checkpoint: ${store.tree} has more than ${config.max_files} files`);
    else this.#parts.status(`no checkpoint of ${store.tree}: ${result.message}`);
    return null;
  }

  /** The snapshot after the action; a checkpoint is kept when the action changed a file. */
  async #record(store: ShadowStore, action: CheckpointAction, started: Date, before: Extract<SnapshotResult, { ok: true }>): Promise<void> {
    // Without the ignored paths: a path the snapshot before held stays in the store's index, and is
    // seen after the action whatever rule hides it then. Nested repositories are listed anyway.
    const after = await this.#snapshot(store, false);
    if (!after || after.tree === before.tree) return;
    const redact = this.#parts.redact ?? ((text: string) => text);
    try {
      const changes = await store.diff(before.tree, after.tree);
      const created = changes.filter((c) => c.fromMode === ABSENT).map((c) => c.path);
      const perms: Record<string, string> = {};
      for (const c of changes) {
        const perm = before.perms.get(c.path);
        if (perm !== undefined) perms[c.path] = perm.toString(8);
      }
      const record: CheckpointRecord = {
        id: `${started.getTime().toString().padStart(14, '0')}-${Math.random().toString(36).slice(2, 10)}`,
        at: started.toISOString(),
        label: redact(action.norris ? `norris step ${action.norris.step}: ${action.command}` : action.command),
        command: redact(action.command),
        ...(action.norris ? { norris: action.norris } : {}),
        before: before.tree,
        after: after.tree,
        changed: changes.length,
        skipped: [...new Set([...before.skipped, ...after.skipped])],
        unseen: { before: hiding(before.unseen, changes), after: hiding(after.unseen, changes), vanished: vanished(store.tree, before.unseen, created).slice(0, VANISHED_KEPT) },
        perms,
      };
      await store.add(record, this.#parts.config.keep);
    } catch (err) {
      this.#parts.status(`no checkpoint of ${store.tree}: ${(err as Error).message}`);
    }
  }

  /** Undoes `targets` (newest first) one after the other, each against the tree as it is then. */
  async #undoAll(store: ShadowStore, targets: readonly CheckpointRecord[], force: boolean): Promise<UndoResult> {
    const result: UndoResult = { undone: [], tree: store.tree, restored: [], removed: [], kept: [] };
    const { config } = this.#parts;
    for (const target of targets) {
      const now = await store.snapshot({ maxFiles: config.max_files, maxFileBytes: config.max_file_bytes, ignored: true });
      if (!now.ok) throw new UsageError(`cannot see what changed in ${store.tree} since: ${now.message}`);
      const changes = await store.diff(target.before, target.after);
      const since = new Map<string, FileState>();
      for (const c of await store.diff(target.after, now.tree)) since.set(c.path, { mode: c.toMode, sha: c.toSha });
      // A file too large to keep now is not in the snapshot: it counts as changed.
      for (const file of now.skipped) since.set(file, { mode: '100644', sha: 'large' });
      const unseen = target.unseen && { ...target.unseen, now: now.unseen };
      // Folders the action made name the files kept of them (only then is the snapshot read).
      const foldersBefore = unseen?.vanished.length ? await store.folders(target.before) : undefined;
      const steps = planRestore(changes, { since, skipped: new Set(target.skipped), force, ...(unseen ? { unseen } : {}), ...(foldersBefore ? { foldersBefore } : {}), ...(target.perms ? { perms: target.perms } : {}) });
      const blobs = await store.blobs(steps.flatMap((s) => (s.type === 'write' ? [s.sha] : [])));
      const report = applyRestore(store.tree, steps, blobs);
      // Files left out for their size: an undo cannot have touched them, and says so.
      for (const file of target.skipped) if (!report.kept.some((k) => k.path === file)) report.kept.push({ path: file, why: TOO_LARGE });
      const left = report.kept.filter((k) => k.why === CHANGED_SINCE).map((k) => k.path);
      store.update({ ...target, undone: new Date().toISOString(), left });
      result.undone.push(target);
      result.restored.push(...report.restored);
      result.removed.push(...report.removed);
      result.kept.push(...report.kept);
    }
    return result;
  }

  #turnOff(why: string): void {
    if (this.#off) return;
    this.#off = why;
    this.#parts.status(`undo is off: ${why}`);
  }

  #tellOnce(tree: string, message: string): void {
    if (this.#told.has(tree)) return;
    this.#told.add(tree);
    this.#parts.status(message);
  }
}

/** The entries of `unseen` that hide a changed path: all an undo needs of them, kept in the record. */
function hiding(unseen: readonly UnseenEntry[], changes: readonly TreeChange[]): UnseenEntry[] {
  const cover = coverOf(unseen);
  return [...new Set(changes.flatMap((c) => cover(c.path) ?? []))];
}
