// The shadow store of one tree: a git repository of aish's own (made 0700 under the state dir)
// whose work tree is the person's tree and whose index is its own, so git's stat cache makes a
// snapshot of an unchanged tree one directory walk. Snapshots are git trees; each checkpoint is a
// small JSON file naming the trees before and after its action, kept reachable by refs of the
// store. The person's `.git` is never written: not its index, refs, stash, config or hooks.
// Work on one store is done one piece at a time (a queue), and several aish sessions may share a
// store: git's own index lock guards the index, and each checkpoint is a file of its own.

import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { platform } from 'node:os';
import path from 'node:path';
import { writePrivateFile } from '../private-file.js';
import { gitComplaint, runGit, shadowEnv, type GitResult, type ShadowPlace } from './shadow-git.js';
import { readSmallFile, repositoryExcludeFile } from './tree.js';
import { identify, parseIgnored, type UnseenEntry } from './unseen.js';

/** A checkpoint: the trees around one action, and what ran. */
export interface CheckpointRecord {
  id: string;
  /** When the action started (ISO). */
  at: string;
  /** What ran, as `:undo list` shows it: the command, or `norris step 3: <command>`. */
  label: string;
  /** The command alone. */
  command: string;
  norris?: { run: string; step: number };
  /** Tree ids of the snapshots before and after the action. */
  before: string;
  after: string;
  /** How many files the action changed. */
  changed: number;
  /** Files left out of a snapshot (over the size limit): an undo never touches them. */
  skipped: string[];
  /**
   * What the snapshots could not see where the action changed something: the entries that hid a
   * changed path before the action and after it, and those the action made vanish (at most
   * VANISHED_KEPT of them). Absent in checkpoints taken before issue 32.
   */
  unseen?: { before: UnseenEntry[]; after: UnseenEntry[]; vanished: UnseenEntry[] };
  /**
   * The permission bits (octal) the files the action changed had before it, where not 644 or 755
   * (then the executable bit tells). Absent in checkpoints taken before issue 32.
   */
  perms?: Record<string, string>;
  /** Set once undone (ISO). */
  undone?: string;
  /** Files that undo kept because they changed since: `:undo --force` still puts them back. */
  left?: string[];
}

export interface SnapshotOptions {
  maxFiles: number;
  maxFileBytes: number;
  /**
   * Also list what the ignore rules hide (a second walk, beside the first): for the snapshot
   * before an action and the one an undo compares with. Nested repositories are listed always.
   */
  ignored?: boolean;
}

export type SnapshotResult =
  | {
      ok: true;
      tree: string;
      skipped: string[];
      /** What git could not see: nested repositories, and the ignored paths when asked for. */
      unseen: UnseenEntry[];
      /** Permission bits of the snapshot's files where not 644 or 755 (git keeps only the executable bit). */
      perms: ReadonlyMap<string, number>;
    }
  | { ok: false; reason: 'too-many' | 'no-git' | 'failed'; message: string };

/** One file's difference between two snapshots; a missing side has mode '000000'. */
export interface TreeChange {
  path: string;
  fromMode: string;
  fromSha: string;
  toMode: string;
  toSha: string;
}

export const ABSENT = '000000';

/** Permission bits not kept in perms.json: the ones a file gets back by default (git's, under the usual umask). */
const COMMON_PERMS = new Set([0o644, 0o755]);

/** How many packs a store gathers before they are packed into one (each snapshot with changes adds one). */
const MAX_PACKS = 16;
/** How long a snapshot waits for another's index lock: 200 × 25 ms. */
const LOCK_RETRIES = 200;
const LOCK_RETRY_MS = 25;
/** An index lock this old was left by a git that did not finish. */
const STALE_LOCK_MS = 60_000;

export class ShadowStore {
  readonly tree: string;
  readonly dir: string;
  readonly #place: ShadowPlace;
  readonly #env: Record<string, string>;
  readonly #excludesFile: string | null;
  /** The store's work, one piece at a time. */
  #queue: Promise<unknown> = Promise.resolve();
  #made = false;
  #exclude: string | null = null;

  /** A store for `tree` in `dir` (made on first use); `excludesFile` is the person's global ignore file. */
  constructor(dir: string, tree: string, env: Record<string, string | undefined>, excludesFile: string | null) {
    this.dir = dir;
    this.tree = tree;
    this.#place = { gitDir: path.join(dir, 'git'), workTree: tree };
    this.#env = shadowEnv(this.#place, env, dir);
    this.#excludesFile = excludesFile;
  }

  /** Whether the store has a snapshot to start from (else the next one reads every file). */
  get hasIndex(): boolean {
    return existsSync(path.join(this.#place.gitDir, 'index'));
  }

  /** Runs `work` after the store's earlier work. */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => {});
    return next;
  }

  #git(args: readonly string[], options?: Parameters<typeof runGit>[3]): Promise<GitResult> {
    return runGit(this.#place, this.#env, args, options);
  }

  /** git that writes the index: another aish snapshotting the same tree holds its lock a moment. */
  async #gitWritingIndex(args: readonly string[], options: Parameters<typeof runGit>[3]): Promise<GitResult> {
    const lock = path.join(this.#place.gitDir, 'index.lock');
    for (let attempt = 0; ; attempt++) {
      const result = await this.#git(args, options);
      if (result.code === 0 || !result.stderr.includes('index.lock') || attempt >= LOCK_RETRIES) return result;
      // Left by a git that was killed: only aish's own git writes this index, never for long.
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock);
      } catch {
        // Released meanwhile.
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }

  /** Makes the store's folders and its git repository by hand (no `git init`: a process saved). */
  #make(): void {
    const git = this.#place.gitDir;
    if (!this.#made) {
      for (const sub of [path.join(git, 'objects', 'pack'), path.join(git, 'refs', 'heads'), path.join(git, 'info'), path.join(this.dir, 'checkpoints')]) {
        mkdirSync(sub, { recursive: true, mode: 0o700 });
      }
      writeIfChanged(path.join(this.dir, 'tree'), `${this.tree}\n`);
      writeIfChanged(path.join(git, 'HEAD'), 'ref: refs/heads/main\n');
      writeIfChanged(path.join(git, 'config'), storeConfig(this.#excludesFile));
      // Attributes of the tree's .gitattributes would convert line ends or run filters on add:
      // these win over them, so a snapshot holds the bytes on disk.
      writeIfChanged(path.join(git, 'info', 'attributes'), '* -text -crlf -filter -ident !eol !working-tree-encoding\n');
      this.#made = true;
    }
    // The repository's own ignore rules outside .gitignore files (`.git/info/exclude`).
    const file = repositoryExcludeFile(this.tree);
    const exclude = (file ? readSmallFile(file) : null) ?? '';
    if (exclude !== this.#exclude) {
      writeIfChanged(path.join(git, 'info', 'exclude'), exclude);
      this.#exclude = exclude;
    }
  }

  /**
   * A snapshot of the tree as it is now: the files git would see (ignored ones left out), without
   * those over `maxFileBytes`. Files unchanged since the last snapshot are not read again. A tree
   * of more than `maxFiles` files is refused before anything is stored.
   */
  snapshot(options: SnapshotOptions): Promise<SnapshotResult> {
    return this.#serial(() => this.#snapshot(options));
  }

  async #snapshot(options: SnapshotOptions): Promise<SnapshotResult> {
    try {
      this.#make();
    } catch (err) {
      return { ok: false, reason: 'failed', message: `cannot make ${this.dir}: ${(err as Error).message}` };
    }
    // The action removed the whole tree: the snapshot is an empty tree, and an undo makes it again.
    if (!existsSync(this.tree)) {
      const empty = await this.#git(['mktree']);
      if (empty.code !== 0) return { ok: false, reason: empty.spawnError ? 'no-git' : 'failed', message: gitComplaint(empty) };
      return { ok: true, tree: empty.stdout.toString('utf8').trim(), skipped: [], unseen: [], perms: new Map() };
    }
    const index = path.join(this.#place.gitDir, 'index');
    const known = indexEntries(index);
    // New and changed files, by the index's stat cache; the walk stops once the tree is too big.
    let untracked = 0;
    let atStart = true;
    const tooMany = () => known + untracked > options.maxFiles;
    // The ignored paths, walked at the same time: what this snapshot cannot see (issue 32).
    const [listed, ignored] = await Promise.all([
      this.#git(['ls-files', '-z', '-t', '--others', '--modified', '--exclude-standard'], {
        inTree: true,
        onStdout: (chunk) => {
          for (const byte of chunk) {
            if (atStart && byte === 0x3f /* ? */) untracked++;
            atStart = byte === 0;
          }
          return tooMany();
        },
      }),
      options.ignored ? this.#git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { inTree: true }) : null,
    ]);
    if (listed.spawnError) return { ok: false, reason: 'no-git', message: gitComplaint(listed) };
    if (listed.timedOut) return { ok: false, reason: 'failed', message: gitComplaint(listed) };
    if (tooMany()) return { ok: false, reason: 'too-many', message: `more than ${options.maxFiles} files` };
    if (listed.code !== 0) return { ok: false, reason: 'failed', message: gitComplaint(listed) };
    // Without the ignored paths an undo could take a file made visible for one the action created.
    if (ignored && ignored.code !== 0) return { ok: false, reason: 'failed', message: gitComplaint(ignored) };
    const unseen: UnseenEntry[] = parseIgnored(ignored?.stdout.toString('utf8') ?? '').map((p) => ({ path: p, kind: 'ignored', id: identify(this.tree, { path: p, kind: 'ignored' }) }));

    // A first snapshot lists every file; after it, perms.json follows the index. A store made
    // before permissions were noted has them read once, from the files its index holds.
    const noted = this.#readPerms() ?? (known > 0 ? await this.#permsOfIndex() : null);
    const perms = new Map(noted ?? []);
    let permsChanged = noted === null;
    const setPerm = (file: string, perm: number | undefined) => {
      if (perms.get(file) === perm) return;
      permsChanged = true;
      if (perm === undefined) perms.delete(file);
      else perms.set(file, perm);
    };
    const add: string[] = [];
    const drop: string[] = [];
    const skipped: string[] = [];
    for (const entry of listed.stdout.toString('utf8').split('\0')) {
      if (entry.length < 3) continue;
      const tracked = entry[0] !== '?';
      const file = entry.slice(2);
      // A directory with a repository of its own inside the tree: not ours to keep, and not seen.
      if (file.endsWith('/')) {
        unseen.push({ path: file, kind: 'repo', id: identify(this.tree, { path: file, kind: 'repo' }) });
        continue;
      }
      let size = 0;
      let regular = false;
      let folder = false;
      let special = false;
      let perm: number | undefined;
      try {
        const st = lstatSync(path.join(this.tree, file));
        size = st.size;
        regular = st.isFile();
        folder = st.isDirectory();
        // A FIFO, socket or device: git would wait on it or refuse it; it is not a file to keep.
        special = !regular && !folder && !st.isSymbolicLink();
        // git keeps the executable bit alone: a 0600 .env would come back 0644.
        if (regular && !COMMON_PERMS.has(st.mode & 0o7777)) perm = st.mode & 0o7777;
      } catch {
        // Gone: update-index --remove takes it out.
      }
      setPerm(file, perm);
      // A file that became a folder: the entry goes, the files inside are listed on their own.
      if (folder || special) drop.push(file);
      else if (regular && size > options.maxFileBytes) {
        skipped.push(file);
        if (tracked) drop.push(file);
      } else add.push(file);
    }
    if (drop.length > 0) {
      const r = await this.#gitWritingIndex(['update-index', '--force-remove', '-z', '--stdin'], { input: nulList(drop), inTree: true });
      if (r.code !== 0) return { ok: false, reason: 'failed', message: gitComplaint(r) };
    }
    if (add.length > 0) {
      const r = await this.#gitWritingIndex(['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], { input: nulList(add), inTree: true });
      if (r.code !== 0) return { ok: false, reason: 'failed', message: gitComplaint(r) };
    }
    if (permsChanged) this.#savePerms(perms);
    const last = this.#lastTree(index);
    if (last && add.length === 0 && drop.length === 0) return { ok: true, tree: last, skipped, unseen, perms };
    const written = await this.#gitWritingIndex(['write-tree'], {});
    if (written.code !== 0) return { ok: false, reason: 'failed', message: gitComplaint(written) };
    const tree = written.stdout.toString('utf8').trim();
    this.#saveLastTree(index, tree);
    return { ok: true, tree, skipped, unseen, perms };
  }

  /**
   * The permission bits of the index's files where not 644 or 755, as the snapshots that listed
   * them found them (a file is listed again when it changes, a chmod included); null when none
   * were noted (a new store, or one made before they were). Read each time: another aish may
   * share the store.
   */
  #readPerms(): [string, number][] | null {
    try {
      return Object.entries(JSON.parse(readFileSync(path.join(this.dir, 'perms.json'), 'utf8')) as Record<string, number>);
    } catch {
      return null;
    }
  }

  /** The uncommon permission bits of the files in the index, as they are now. */
  async #permsOfIndex(): Promise<[string, number][]> {
    const r = await this.#git(['ls-files', '-z'], { inTree: true });
    const out: [string, number][] = [];
    for (const file of r.code === 0 ? r.stdout.toString('utf8').split('\0') : []) {
      try {
        const st = lstatSync(path.join(this.tree, file));
        if (file !== '' && st.isFile() && !COMMON_PERMS.has(st.mode & 0o7777)) out.push([file, st.mode & 0o7777]);
      } catch {
        // Gone: the listing drops it.
      }
    }
    return out;
  }

  #savePerms(perms: ReadonlyMap<string, number>): void {
    try {
      writePrivateFile(path.join(this.dir, 'perms.json'), JSON.stringify(Object.fromEntries(perms)));
    } catch {
      // A file that comes back then gets git's permissions.
    }
  }

  /** The tree the index was last written as, if the index has not changed since. */
  #lastTree(index: string): string | null {
    try {
      const saved = JSON.parse(readFileSync(path.join(this.dir, 'last-tree.json'), 'utf8')) as { tree: string; stamp: string };
      return saved.stamp === indexStamp(index) ? saved.tree : null;
    } catch {
      return null;
    }
  }

  #saveLastTree(index: string, tree: string): void {
    try {
      writePrivateFile(path.join(this.dir, 'last-tree.json'), JSON.stringify({ tree, stamp: indexStamp(index) }));
    } catch {
      // The next snapshot writes the tree again.
    }
  }

  /** The files that differ between two snapshots. */
  diff(from: string, to: string): Promise<TreeChange[]> {
    return this.#serial(async () => {
      if (from === to) return [];
      const r = await this.#git(['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to]);
      if (r.code !== 0) throw new Error(`cannot compare snapshots: ${gitComplaint(r)}`);
      return parseRawDiff(r.stdout.toString('utf8'));
    });
  }

  /** The folders of a snapshot (`a/`, `a/b/`), to tell which ones an action made. */
  folders(tree: string): Promise<Set<string>> {
    return this.#serial(async () => {
      const r = await this.#git(['ls-tree', '-r', '-d', '-z', '--name-only', tree]);
      if (r.code !== 0) throw new Error(`cannot read the checkpoint: ${gitComplaint(r)}`);
      return new Set(r.stdout.toString('utf8').split('\0').filter((p) => p !== '').map((p) => `${p}/`));
    });
  }

  /** The contents of blobs, by id. */
  blobs(ids: readonly string[]): Promise<Map<string, Buffer>> {
    return this.#serial(async () => {
      const wanted = [...new Set(ids)];
      if (wanted.length === 0) return new Map();
      const r = await this.#git(['cat-file', '--batch'], { input: wanted.map((id) => `${id}\n`).join('') });
      if (r.code !== 0) throw new Error(`cannot read the checkpoint: ${gitComplaint(r)}`);
      return parseBatch(r.stdout);
    });
  }

  /** The checkpoints of this tree, oldest first. */
  records(): CheckpointRecord[] {
    const dir = path.join(this.dir, 'checkpoints');
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const out: CheckpointRecord[] = [];
    for (const name of names.sort()) {
      try {
        out.push(JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as CheckpointRecord);
      } catch {
        // A torn or foreign file: not a checkpoint.
      }
    }
    return out;
  }

  /**
   * Keeps a checkpoint: its file, and refs that keep its snapshots from being pruned. Then only
   * the newest `keep` remain; their packs are gathered now and then, after the caller goes on.
   */
  add(record: CheckpointRecord, keep: number): Promise<void> {
    return this.#serial(async () => {
      writePrivateFile(this.#recordFile(record.id), `${JSON.stringify(record)}\n`);
      const all = this.records();
      const old = all.slice(0, Math.max(0, all.length - keep));
      const lines = [`update refs/aish/${record.id}/before ${record.before}`, `update refs/aish/${record.id}/after ${record.after}`];
      for (const r of old) lines.push(`delete refs/aish/${r.id}/before`, `delete refs/aish/${r.id}/after`);
      await this.#git(['update-ref', '--stdin'], { input: `${lines.join('\n')}\n` });
      for (const r of old) removeFile(this.#recordFile(r.id));
      // Objects of pruned checkpoints go with the next packing.
      if (packCount(this.#place.gitDir) > MAX_PACKS) void this.#serial(() => this.#gather());
    });
  }

  /** Writes a checkpoint again (marked undone). */
  update(record: CheckpointRecord): void {
    writePrivateFile(this.#recordFile(record.id), `${JSON.stringify(record)}\n`);
  }

  /** Packs the store into one pack and drops what no checkpoint and no index entry needs. */
  async #gather(): Promise<void> {
    await this.#git(['repack', '-a', '-d', '-q']);
    await this.#git(['prune', '--expire=now']);
  }

  /** Resolves once the store's queued work (packing included) is done. */
  idle(): Promise<void> {
    return this.#serial(async () => {});
  }

  #recordFile(id: string): string {
    return path.join(this.dir, 'checkpoints', `${id}.json`);
  }
}

/** The store's git config: nothing in it runs a program, and snapshots are packed, not loose. */
function storeConfig(excludesFile: string | null): string {
  const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const ignoreCase = platform() === 'darwin' || platform() === 'win32';
  return [
    '[core]',
    '\trepositoryformatversion = 0',
    '\tbare = false',
    '\tfilemode = true',
    '\tsymlinks = true',
    `\tignorecase = ${ignoreCase}`,
    '\tautocrlf = false',
    '\tsafecrlf = false',
    '\thooksPath = /dev/null',
    '\tfsmonitor = false',
    '\tuntrackedCache = false',
    '\tattributesFile = /dev/null',
    // Every file is "big": it goes straight into one pack per snapshot instead of a loose object
    // file each (ten times faster for a first snapshot of thousands of small files).
    '\tbigFileThreshold = 1',
    '\tfsync = none',
    ...(excludesFile && !/[\n\r]/.test(excludesFile) ? [`\texcludesFile = ${quote(excludesFile)}`] : []),
    '[gc]',
    '\tauto = 0',
    '[maintenance]',
    '\tauto = false',
    '[pack]',
    '\tcompression = 1',
    '',
  ].join('\n');
}

/** The number of entries in a git index (its header), 0 when there is none yet. */
function indexEntries(index: string): number {
  let fd: number;
  try {
    fd = openSync(index, 'r');
  } catch {
    return 0;
  }
  try {
    const header = Buffer.alloc(12);
    return readSync(fd, header, 0, 12, 0) === 12 && header.toString('latin1', 0, 4) === 'DIRC' ? header.readUInt32BE(8) : 0;
  } finally {
    closeSync(fd);
  }
}

/** What identifies one written version of the index (git replaces it by a rename). */
function indexStamp(index: string): string {
  try {
    const st = statSync(index, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return '';
  }
}

function packCount(gitDir: string): number {
  try {
    return readdirSync(path.join(gitDir, 'objects', 'pack')).filter((n) => n.endsWith('.pack')).length;
  } catch {
    return 0;
  }
}

function nulList(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join('');
}

/** `git diff-tree -r -z --raw` output: `:<mode> <mode> <sha> <sha> <status>\0<path>\0` per file. */
export function parseRawDiff(text: string): TreeChange[] {
  const parts = text.split('\0');
  const out: TreeChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) [A-Z]/.exec(parts[i]!);
    if (!m) continue;
    out.push({ path: parts[i + 1]!, fromMode: m[1]!, toMode: m[2]!, fromSha: m[3]!, toSha: m[4]! });
  }
  return out;
}

/** `git cat-file --batch` output: `<sha> <type> <size>\n<content>\n` per object. */
function parseBatch(out: Buffer): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(0x0a, at);
    if (nl === -1) break;
    const header = out.toString('utf8', at, nl).split(' ');
    at = nl + 1;
    if (header[1] === 'missing' || header.length < 3) continue;
    const size = Number(header[2]);
    blobs.set(header[0]!, out.subarray(at, at + size));
    at += size + 1;
  }
  return blobs;
}

function writeIfChanged(file: string, text: string): void {
  try {
    if (readFileSync(file, 'utf8') === text) return;
  } catch {
    // Not there yet.
  }
  writeFileSync(file, text, { mode: 0o600 });
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
