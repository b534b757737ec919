// Issue 32: an undo removes only what the action created. A path a snapshot could not see (ignored,
// or in a repository of its own) is not "created" when it becomes visible, and an action that made
// something unseen disappear keeps the files it created, which may be all that is left of it. Each
// row plants a tree, runs an action as an approved command would, undoes it, and reads the disk.

import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIgnored } from '../../src/undo/unseen.js';
import { undoTree, type UndoTree } from '../support/undo-tree.js';

/** Every file under `dir` with its bytes, to show nothing of a repository was lost. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const full = path.join(dir, name);
    if (lstatSync(full).isFile()) out[name] = readFileSync(full).toString('hex');
  }
  return out;
}

/** A repository with a commit at `dir` of the tree, then uncommitted work in it. */
function nestedRepo(t: UndoTree, dir: string): void {
  t.write(`${dir}/lib.c`, 'int lib;\n');
  t.git(t.file(dir), 'init', '-q');
  t.git(t.file(dir), 'add', '.');
  t.git(t.file(dir), 'commit', '-q', '-m', 'lib');
  t.write(`${dir}/lib.c`, 'int lib; /* uncommitted work */\n');
  t.write(`${dir}/new.c`, 'int fresh;\n');
}

/** A repository with a.txt committed, then changed; with `ignored`, an ignored data.db beside it. */
function uncommittedWork(t: UndoTree, ignored: boolean): void {
  t.git(t.tree, 'init', '-q');
  if (ignored) t.write('.gitignore', 'data.db\n');
  t.write('a.txt', 'committed\n');
  t.git(t.tree, 'add', '.');
  t.git(t.tree, 'commit', '-q', '-m', 'a');
  t.write('a.txt', 'uncommitted work\n');
  if (ignored) t.write('data.db', 'the database');
}

/** A repository of the person's with one file in its work tree. */
function repositoryWithNotes(t: UndoTree): void {
  t.git(t.tree, 'init', '-q');
  t.write('notes.txt', 'notes\n');
}

/** A database the tree's .gitignore hides. */
function ignoredDatabase(t: UndoTree): void {
  t.write('.gitignore', 'data.db\n');
  t.write('data.db', 'the database');
}

interface Row {
  name: string;
  plant: (t: UndoTree) => void;
  action: string;
  /** What the person does after the action, before the undo. */
  meanwhile?: (t: UndoTree) => void;
  /** Files (relative to the tree) that must hold this text after the undo. */
  after: Record<string, string>;
  /** Files that must be gone after the undo. */
  gone?: string[];
  /** Kept entries the undo must report: path → a pattern of the why. */
  kept?: Record<string, RegExp>;
  /** A folder whose every file must be the same after the undo as after the action. */
  whole?: string;
  /** Checked after the undo. */
  check?: (t: UndoTree) => void;
}

const rows: Row[] = [
  {
    name: 'the ignore file moved away: the ignored database that becomes visible is not removed',
    plant: (t) => {
      t.git(t.tree, 'init', '-q');
      t.write('.gitignore', 'data.db\n');
      t.write('data.db', 'the database');
    },
    action: 'mv .gitignore old.gitignore',
    after: { 'data.db': 'the database', '.gitignore': 'data.db\n' },
    gone: ['old.gitignore'],
    kept: { 'data.db': /ignored before the action/ },
  },
  {
    name: "a nested repository's .git moved aside: its files, its uncommitted work and every object of the moved .git stay",
    plant: (t) => nestedRepo(t, 'vendor/lib'),
    action: 'mv vendor/lib/.git vendor/lib-git-backup',
    after: { 'vendor/lib/lib.c': 'int lib; /* uncommitted work */\n', 'vendor/lib/new.c': 'int fresh;\n' },
    kept: { 'vendor/lib/': /repository of its own before the action/, 'vendor/lib-git-backup/': /vendor\/lib\/\.git/ },
    whole: 'vendor/lib-git-backup',
  },
  {
    name: 'an ignored file renamed to a name that is not ignored: the new name is kept, it is all there is of it',
    plant: ignoredDatabase,
    action: 'mv data.db data.sqlite',
    after: { 'data.sqlite': 'the database' },
    kept: { 'data.sqlite': /data\.db/ },
  },
  {
    name: 'an ignored file renamed, another put in its place: the new name is kept',
    plant: ignoredDatabase,
    action: 'mv data.db data.sqlite && touch data.db',
    after: { 'data.sqlite': 'the database', 'data.db': '' },
    kept: { 'data.sqlite': /data\.db/ },
  },
  {
    name: 'an ignored folder renamed and made again: the folder it became is kept, named once',
    plant: (t) => {
      t.write('.gitignore', 'build/\n');
      t.write('build/app.o', 'object code');
      t.write('build/cache/x', 'cache');
    },
    action: 'mv build out && mkdir build',
    after: { 'out/app.o': 'object code', 'out/cache/x': 'cache' },
    kept: { 'out/': /build\// },
  },
  {
    name: 'an ignored file rewritten as a compiler does (a new file renamed over it): what the action created is removed',
    plant: (t) => {
      t.write('.gitignore', '*.o\n');
      t.write('main.o', 'old object');
    },
    action: "touch made.txt && printf 'new object' > main.o.tmp && mv main.o.tmp main.o",
    after: { 'main.o': 'new object' },
    gone: ['made.txt'],
  },
  {
    name: 'a rule of .git/info/exclude removed by the action: the file it hid is not removed',
    plant: (t) => {
      t.git(t.tree, 'init', '-q');
      writeFileSync(t.file('.git/info/exclude'), 'data.db\n');
      t.write('data.db', 'the database');
      t.write('notes.txt', 'notes\n');
    },
    action: ": > .git/info/exclude && printf 'more\\n' >> notes.txt",
    after: { 'data.db': 'the database', 'notes.txt': 'notes\n' },
    kept: { 'data.db': /ignored before the action/ },
  },
  {
    // A file a snapshot held stays in sight whatever rule comes later, as a tracked file does in git.
    name: 'a rule added to .git/info/exclude by the action, which rewrites the file it names: the snapshots still see it, and it comes back',
    plant: repositoryWithNotes,
    action: "echo notes.txt >> .git/info/exclude && printf 'by the action\\n' > notes.txt",
    after: { 'notes.txt': 'notes\n' },
  },
  {
    name: 'a rule added to .git/info/exclude and the file it hides removed: the file comes back',
    plant: repositoryWithNotes,
    action: 'echo notes.txt >> .git/info/exclude && rm notes.txt',
    after: { 'notes.txt': 'notes\n' },
  },
  {
    name: 'a file the action removed, made again since under an ignore rule: the new file is left as it is, and named',
    plant: (t) => t.write('notes.txt', 'notes\n'),
    action: 'rm notes.txt',
    meanwhile: (t) => {
      t.write('.gitignore', 'notes.txt\n');
      t.write('notes.txt', 'mine, since\n');
    },
    after: { 'notes.txt': 'mine, since\n' },
    kept: { 'notes.txt': /ignored now/ },
  },
  {
    name: "the global ignore file (core.excludesFile) emptied by the action: the file it hid is not removed",
    plant: (t) => {
      writeFileSync(path.join(t.home, 'global-ignore'), 'data.db\n');
      writeFileSync(path.join(t.home, '.gitconfig'), `[core]\n\texcludesFile = ${path.join(t.home, 'global-ignore')}\n`);
      t.write('data.db', 'the database');
    },
    action: ': > ../home/global-ignore && touch made.txt',
    after: { 'data.db': 'the database' },
    gone: ['made.txt'],
    kept: { 'data.db': /ignored before the action/ },
  },
  {
    name: 'the default global ignore file (~/.config/git/ignore) removed by the action: the file it hid is not removed',
    plant: (t) => {
      mkdirSync(path.join(t.home, '.config', 'git'), { recursive: true });
      writeFileSync(path.join(t.home, '.config', 'git', 'ignore'), 'data.db\n');
      t.write('data.db', 'the database');
    },
    action: 'rm ../home/.config/git/ignore',
    after: { 'data.db': 'the database' },
    kept: { 'data.db': /ignored before the action/ },
  },
  {
    name: "a submodule made a plain folder (its .git file removed): its files and uncommitted work stay, .gitmodules comes back",
    plant: (t) => {
      const upstream = path.join(t.base, 'upstream');
      mkdirSync(upstream);
      writeFileSync(path.join(upstream, 'up.txt'), 'upstream\n');
      t.git(upstream, 'init', '-q');
      t.git(upstream, 'add', '.');
      t.git(upstream, 'commit', '-q', '-m', 'up');
      t.git(t.tree, 'init', '-q');
      t.git(t.tree, 'submodule', 'add', '-q', upstream, 'sub');
      t.git(t.tree, 'commit', '-q', '-m', 'with sub');
      t.write('sub/up.txt', 'upstream, edited\n');
    },
    action: 'rm sub/.git .gitmodules',
    after: { 'sub/up.txt': 'upstream, edited\n' },
    kept: { 'sub/': /repository of its own before the action/ },
    check: (t) => expect(readFileSync(t.file('.gitmodules'), 'utf8')).toContain('[submodule "sub"]'),
  },
  {
    name: 'git stash of uncommitted work: it comes back, and the stash keeps its entry',
    plant: (t) => uncommittedWork(t, false),
    action: 'git stash -q',
    after: { 'a.txt': 'uncommitted work\n' },
    check: (t) => expect(t.git(t.tree, 'stash', 'list')).toMatch(/^stash@\{0\}/),
  },
  {
    name: 'git stash -u of uncommitted and untracked work, with an ignored file: all of it stays',
    plant: (t) => {
      uncommittedWork(t, true);
      t.write('untracked.txt', 'untracked\n');
    },
    action: 'git stash -q -u',
    after: { 'a.txt': 'uncommitted work\n', 'untracked.txt': 'untracked\n', 'data.db': 'the database' },
    check: (t) => expect(t.git(t.tree, 'stash', 'list')).toMatch(/^stash@\{0\}/),
  },
  {
    name: 'git stash --all takes the ignored file into the stash: nothing the action created is removed, and the stash keeps it',
    plant: (t) => uncommittedWork(t, true),
    action: 'git stash -q --all && touch made.txt',
    after: { 'a.txt': 'uncommitted work\n', 'made.txt': '' },
    kept: { 'made.txt': /data\.db/ },
    // The ignored file is in the stash's commit of untracked files.
    check: (t) => expect(t.git(t.tree, 'show', 'stash@{0}^3:data.db')).toBe('the database'),
  },
];

describe('an undo removes only what the action created (issue 32)', () => {
  it.each(rows.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const t = undoTree();
    row.plant(t);
    await t.act(() => t.sh(row.action), row.action);
    row.meanwhile?.(t);
    const whole = row.whole ? filesOf(t.file(row.whole)) : null;
    const result = await t.undo.undo(t.tree, false);
    expect(result).not.toBeNull();
    for (const [name, text] of Object.entries(row.after)) expect(existsSync(t.file(name)) ? readFileSync(t.file(name), 'utf8') : '(missing)', name).toBe(text);
    for (const name of row.gone ?? []) expect(existsSync(t.file(name)), name).toBe(false);
    for (const [name, why] of Object.entries(row.kept ?? {})) {
      const entry = result!.kept.find((k) => k.path === name);
      expect(entry, `kept ${name} in ${JSON.stringify(result!.kept)}`).toBeDefined();
      expect(entry!.why).toMatch(why);
    }
    if (row.whole) expect(filesOf(t.file(row.whole))).toEqual(whole);
    row.check?.(t);
    // Nothing kept is removed by insisting either.
    await t.undo.undo(t.tree, true);
    for (const [name, text] of Object.entries(row.after)) expect(existsSync(t.file(name)) ? readFileSync(t.file(name), 'utf8') : '(missing)', `${name} after --force`).toBe(text);
    if (row.whole) expect(filesOf(t.file(row.whole))).toEqual(whole);
  });
});

describe('an undo puts back the permissions a file had (issue 32)', () => {
  it.each([
    ['a 0600 .env removed comes back 0600', '.env', 0o600, 'rm .env'],
    ['a 0600 .env replaced by a new file comes back 0600', '.env', 0o600, "rm .env && printf 'NEW=1\\n' > .env"],
    ['a 0600 .env rewritten and opened up comes back 0600', '.env', 0o600, "printf 'NEW=1\\n' > .env && chmod 644 .env"],
    ['a 0644 file made 0600 and rewritten comes back 0644', 'notes.txt', 0o644, "chmod 600 notes.txt && printf 'other\\n' > notes.txt"],
    ['a 0700 script removed comes back 0700, not 0755', 'run.sh', 0o700, 'rm run.sh'],
  ])('%s', async (_name, file, perm, action) => {
    const t = undoTree();
    t.write(file, 'before\n');
    chmodSync(t.file(file), perm);
    t.write('other.txt', 'other\n');
    await t.act(() => t.sh(action), action);
    await t.undo.undo(t.tree, false);
    expect(readFileSync(t.file(file), 'utf8')).toBe('before\n');
    expect(lstatSync(t.file(file)).mode & 0o777).toBe(perm);
  });
});

describe('parseIgnored', () => {
  it.each([
    ['a folder ignored by its name stays one entry', 'build/\0data.db\0', ['build/', 'data.db']],
    ['a folder listed with its files (all ignored by a file rule) is not ignored itself', 'logs/\0logs/a.log\0logs/deep/\0logs/deep/x.log\0', ['logs/a.log', 'logs/deep/x.log']],
    ['names with spaces and newlines stay whole', 'a b/\0new\nline.log\0', ['a b/', 'new\nline.log']],
    ['nothing ignored', '', []],
  ])('%s', (_name, listing, expected) => {
    expect(parseIgnored(listing)).toEqual(expected);
  });
});
