// Checkpoints and undo on real trees with real git: what a snapshot holds (bytes as on disk, not
// what .gitattributes would make of them; no ignored or too-large file; nothing of a repository
// inside the tree), what an undo puts back (links, a folder that became a file and back), what it
// refuses (a parent swapped for a link), and pruning to `undo.keep`. No program the person's git
// config names runs.

import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync, chmodSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/undo/checkpoints.js';
import { treeOf } from '../../src/undo/tree.js';
import { gitComplaint, runGit, shadowEnv } from '../../src/undo/shadow-git.js';
import { tempDir } from '../support/temp-dir.js';
import { UNDO_DEFAULTS, undoTree } from '../support/undo-tree.js';

const DEFAULTS = UNDO_DEFAULTS;
const setup = undoTree;

describe('what a snapshot holds', () => {
  it('the bytes on disk: CRLF stays CRLF whatever .gitattributes says, and no filter of the global config runs', async () => {
    const t = setup();
    const ran = path.join(t.base, 'filter-ran');
    writeFileSync(path.join(t.home, '.gitconfig'), `[filter "evil"]\n\tclean = touch ${ran}; cat\n\tsmudge = touch ${ran}; cat\n`);
    t.write('.gitattributes', '* text eol=lf filter=evil\n');
    t.write('dos.txt', 'one\r\ntwo\r\n');
    await t.act(() => t.write('dos.txt', 'changed\n'));
    const result = await t.undo.undo(t.tree, false);
    expect(result?.restored).toEqual(['dos.txt']);
    expect(readFileSync(t.file('dos.txt'), 'latin1')).toBe('one\r\ntwo\r\n');
    expect(existsSync(ran)).toBe(false);
  });

  it('ignored files (.gitignore, the global ignore file, .git/info/exclude) are left out and left alone', async () => {
    const t = setup();
    execFileSync('git', ['init', '-q', t.tree]);
    writeFileSync(path.join(t.home, 'global-ignore'), 'by-global.log\n');
    writeFileSync(path.join(t.home, '.gitconfig'), `[core]\n\texcludesFile = ${path.join(t.home, 'global-ignore')}\n`);
    writeFileSync(path.join(t.tree, '.git', 'info', 'exclude'), 'by-exclude.log\n');
    t.write('.gitignore', 'by-gitignore.log\n');
    await t.act(() => {
      for (const name of ['by-global.log', 'by-exclude.log', 'by-gitignore.log', 'kept.txt']) t.write(name, 'x');
    });
    const result = await t.undo.undo(t.tree, false);
    expect(result?.removed).toEqual(['kept.txt']);
    for (const name of ['by-global.log', 'by-exclude.log', 'by-gitignore.log']) expect(existsSync(t.file(name)), name).toBe(true);
  });

  it('a repository inside the tree, even one without a commit, is neither kept nor touched', async () => {
    const t = setup();
    execFileSync('git', ['init', '-q', t.file('inner')]);
    t.write('inner/file.txt', 'inner\n');
    t.write('outer.txt', 'outer\n');
    await t.act(() => {
      t.write('inner/file.txt', 'inner changed\n');
      rmSync(t.file('outer.txt'));
    });
    expect(t.statuses).toEqual([]);
    const result = await t.undo.undo(t.tree, false);
    expect(result?.restored).toEqual(['outer.txt']);
    expect(readFileSync(t.file('inner/file.txt'), 'utf8')).toBe('inner changed\n');
  });

  it('a file grown past undo.max_file_bytes is left out, and an undo neither removes nor rewrites it', async () => {
    const t = setup({ max_file_bytes: 1000 });
    t.write('grows.bin', 'small');
    await t.act(() => {
      t.write('grows.bin', Buffer.alloc(5000, 1));
      t.write('new.txt', 'new');
    });
    const result = await t.undo.undo(t.tree, false);
    expect(result?.removed).toEqual(['new.txt']);
    expect(result?.kept).toEqual([{ path: 'grows.bin', why: 'larger than undo.max_file_bytes, not in the checkpoint' }]);
    expect(lstatSync(t.file('grows.bin')).size).toBe(5000);
  });

  it('an unchanged tree is snapshotted again without storing anything: no checkpoint, no new pack', async () => {
    const t = setup();
    for (let i = 0; i < 50; i++) t.write(`d${i % 5}/f${i}.txt`, `${i}\n`);
    await t.act(() => t.write('first.txt', '1'));
    const packs = () => readdirSync(path.join(t.state, 'undo'), { recursive: true }).filter((f) => String(f).endsWith('.pack')).length;
    const before = packs();
    await t.act(() => {});
    await t.act(() => {});
    expect(packs()).toBe(before);
    expect((await t.undo.list(t.tree)).records).toHaveLength(1);
  });
});

describe('what an undo puts back', () => {
  it('links: a file replaced by a link comes back, a new link goes, a deleted link returns with its target', async () => {
    const t = setup();
    t.write('plain.txt', 'plain\n');
    symlinkSync('plain.txt', t.file('old-link'));
    await t.act(() => {
      rmSync(t.file('plain.txt'));
      symlinkSync('/etc/hostname', t.file('plain.txt'));
      symlinkSync('plain.txt', t.file('new-link'));
      rmSync(t.file('old-link'));
    });
    await t.undo.undo(t.tree, false);
    expect(lstatSync(t.file('plain.txt')).isFile()).toBe(true);
    expect(readFileSync(t.file('plain.txt'), 'utf8')).toBe('plain\n');
    expect(existsSync(t.file('new-link'))).toBe(false);
    expect(readlinkSync(t.file('old-link'))).toBe('plain.txt');
  });

  it('a file that became a folder, and a folder that became a file, come back', async () => {
    const t = setup();
    t.write('was-file', 'file\n');
    t.write('was-dir/a.txt', 'a\n');
    t.write('was-dir/b.txt', 'b\n');
    await t.act(() => {
      rmSync(t.file('was-file'));
      t.write('was-file/inside.txt', 'inside\n');
      rmSync(t.file('was-dir'), { recursive: true });
      t.write('was-dir', 'now a file\n');
    });
    const result = await t.undo.undo(t.tree, false);
    expect(t.statuses).toEqual([]);
    expect(result?.kept).toEqual([]);
    expect(readFileSync(t.file('was-file'), 'utf8')).toBe('file\n');
    expect(readFileSync(t.file('was-dir/a.txt'), 'utf8')).toBe('a\n');
    expect(readFileSync(t.file('was-dir/b.txt'), 'utf8')).toBe('b\n');
  });

  it('keeps the permissions of a file it rewrites, but for the executable bit', async () => {
    const t = setup();
    t.write('secret.txt', 'secret\n');
    chmodSync(t.file('secret.txt'), 0o600);
    await t.act(() => {
      appendFileSync(t.file('secret.txt'), 'more\n');
      chmodSync(t.file('secret.txt'), 0o700);
    });
    await t.undo.undo(t.tree, false);
    expect(lstatSync(t.file('secret.txt')).mode & 0o777).toBe(0o600);
    expect(readFileSync(t.file('secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('never writes into a hard link the action made to a file outside the tree', async () => {
    const t = setup();
    const outside = path.join(t.base, 'outside.txt');
    writeFileSync(outside, 'OUTSIDE\n');
    t.write('notes.txt', 'project\n');
    await t.act(() => {
      rmSync(t.file('notes.txt'));
      linkSync(outside, t.file('notes.txt'));
    });
    await t.undo.undo(t.tree, false);
    expect(readFileSync(t.file('notes.txt'), 'utf8')).toBe('project\n');
    expect(readFileSync(outside, 'utf8')).toBe('OUTSIDE\n');
    expect(readdirSync(t.tree).filter((f) => f.startsWith('.aish-undo-'))).toEqual([]);
  });

  it('never writes through a folder swapped for a link since, even with --force', async () => {
    const t = setup();
    const outside = path.join(t.base, 'outside');
    mkdirSync(outside);
    t.write('dir/f.txt', 'f\n');
    await t.act(() => rmSync(t.file('dir/f.txt')));
    rmSync(t.file('dir'), { recursive: true });
    symlinkSync(outside, t.file('dir'));
    const result = await t.undo.undo(t.tree, true);
    expect(result?.kept).toEqual([{ path: 'dir/f.txt', why: 'dir is a link now' }]);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('what a hostile tree cannot do to a snapshot', () => {
  it('a FIFO as .git/info/exclude or in the tree is never read: the snapshot ends and the checkpoint is kept', async () => {
    const t = setup();
    mkdirSync(t.file('.git/info'), { recursive: true });
    execFileSync('mkfifo', [t.file('.git/info/exclude')]);
    execFileSync('mkfifo', [t.file('pipe')]);
    t.write('a.txt', 'a\n');
    await t.act(() => rmSync(t.file('a.txt')));
    const result = await t.undo.undo(t.tree, false);
    expect(result?.restored).toContain('a.txt');
    expect(readFileSync(t.file('a.txt'), 'utf8')).toBe('a\n');
  });

  it('a git that waits forever (a FIFO named .gitignore) is killed at its time limit', async () => {
    const t = setup();
    mkdirSync(t.file('sub'));
    execFileSync('mkfifo', [t.file('sub/.gitignore')]);
    const gitDir = path.join(t.base, 'g');
    execFileSync('git', ['init', '-q', '--bare', gitDir]);
    const place = { gitDir, workTree: t.tree };
    const result = await runGit(place, shadowEnv(place, { PATH: process.env.PATH }, t.home), ['ls-files', '--others', '--exclude-standard'], { inTree: true, timeLimitMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(gitComplaint(result)).toBe('git took longer than 1 s');
  });

  it('the root, a folder above the home folder and /tmp get no checkpoint, said once', async () => {
    const t = setup();
    const statuses: string[] = [];
    const undo = new Checkpoints({ config: DEFAULTS, stateDir: path.join(t.base, 'state2'), env: { PATH: process.env.PATH, HOME: t.home }, status: (m) => statuses.push(m) });
    for (const tree of ['/', t.base, '/tmp', t.base]) await undo.around({ command: 'true', origin: 'cmd' }, tree, async () => {});
    expect(statuses).toEqual([
      'no checkpoint: / is the root folder',
      `no checkpoint: ${t.base} is a folder that holds the home folder`,
      "no checkpoint: /tmp is everyone's temporary folder",
    ]);
  });
});

describe('the record of a checkpoint', () => {
  it('names the command redacted: it is a file', async () => {
    const base = tempDir('aish-undo-');
    const tree = path.join(base, 'tree');
    mkdirSync(tree);
    const undo = new Checkpoints({ config: DEFAULTS, stateDir: path.join(base, 'state'), env: { PATH: process.env.PATH, HOME: path.join(base, 'home') }, status: () => {}, redact: (t) => t.replace(/hunter2/g, '[redacted:password]') });
    await undo.around({ command: 'mysql -phunter2 -e x > out.txt', origin: 'cmd' }, tree, async () => writeFileSync(path.join(tree, 'out.txt'), 'x'));
    await undo.settled();
    const records = execFileSync('grep', ['-r', '-l', 'mysql', path.join(base, 'state')], { encoding: 'utf8' }).trim().split('\n');
    expect(records.length).toBeGreaterThan(0);
    for (const file of records) {
      expect(readFileSync(file, 'utf8')).not.toContain('hunter2');
      expect(readFileSync(file, 'utf8')).toContain('[redacted:password]');
    }
  });
});

describe('the store', () => {
  it('keeps the newest undo.keep checkpoints of a tree', async () => {
    const t = setup({ keep: 3 });
    for (let i = 1; i <= 5; i++) await t.act(() => t.write(`f${i}.txt`, `${i}`), `step ${i}`);
    await t.undo.idle();
    const { records } = await t.undo.list(t.tree);
    expect(records.map((r) => r.label)).toEqual(['step 5', 'step 4', 'step 3']);
    const store = readdirSync(path.join(t.state, 'undo'))[0]!;
    const refs = execFileSync('git', ['for-each-ref', '--format=%(refname)'], { env: { PATH: process.env.PATH, GIT_DIR: path.join(t.state, 'undo', store, 'git') }, encoding: 'utf8' });
    expect(refs.trim().split('\n')).toHaveLength(6);
  });

  it('two sessions on one tree each keep their checkpoints (git\'s index lock is waited for)', async () => {
    const t = setup();
    for (let i = 0; i < 300; i++) t.write(`d${i % 10}/f${i}.txt`, `${i}\n`);
    const other = new Checkpoints({ config: DEFAULTS, stateDir: t.state, env: { PATH: process.env.PATH, HOME: t.home }, status: (m) => t.statuses.push(m) });
    const step = (undo: Checkpoints, name: string) => undo.around({ command: name, origin: 'cmd' }, t.tree, async () => t.write(`${name}.txt`, name));
    for (let round = 0; round < 3; round++) {
      await Promise.all([step(t.undo, `a${round}`), step(other, `b${round}`)]);
      await Promise.all([t.undo.settled(), other.settled()]);
    }
    expect(t.statuses).toEqual([]);
    expect((await t.undo.list(t.tree)).records).toHaveLength(6);
  });

  it('is private to its owner (0700), one per tree, under the state dir', async () => {
    const t = setup();
    await t.act(() => t.write('x.txt', 'x'));
    const root = path.join(t.state, 'undo');
    const [store] = readdirSync(root);
    expect(lstatSync(root).mode & 0o777).toBe(0o700);
    expect(lstatSync(path.join(root, store!)).mode & 0o777).toBe(0o700);
    expect(readFileSync(path.join(root, store!, 'tree'), 'utf8')).toBe(`${treeOf(t.tree)}\n`);
  });

  it('the tree is the git work tree top from a folder inside it, else the folder itself', () => {
    const t = setup();
    mkdirSync(t.file('a/b'), { recursive: true });
    expect(treeOf(t.file('a/b'))).toBe(t.file('a/b'));
    execFileSync('git', ['init', '-q', t.tree]);
    expect(treeOf(t.file('a/b'))).toBe(t.tree);
  });
});
