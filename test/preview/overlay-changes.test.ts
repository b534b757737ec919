// The overlay reader on views made by hand: a lower (real) folder, an upper layer and the merged
// view the command saw. Whiteouts (a character device 0/0 where mknod is allowed), an opaque
// folder (removed and made again: the merged view lacks the old entries), modes, a copy-up that
// changed nothing, a file turned into a folder, a symlink's target, new folders with file counts.

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCreated, readOverlayChanges, type OverlayLayers } from '../../src/preview/overlay-changes.js';
import { previewReason } from '../../src/norris/run.js';
import { changeLines, hiddenLine, shownPath, stepPreview } from '../../src/preview/report.js';
import { tempDir } from '../support/temp-dir.js';

/** Writes `files` (path → content; a trailing `/` makes a folder, `@target` a symlink) under `root`. */
function lay(root: string, files: Record<string, string>): void {
  mkdirSync(root, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    if (rel.endsWith('/')) mkdirSync(p, { recursive: true });
    else if (content.startsWith('@')) symlinkSync(content.slice(1), p);
    else writeFileSync(p, content);
  }
}

/** A whiteout as the kernel makes it, or a plain file standing in where mknod is not allowed. */
function whiteout(p: string): void {
  try {
    execFileSync('mknod', [p, 'c', '0', '0'], { stdio: 'ignore' });
  } catch {
    writeFileSync(p, '');
  }
}

function views(lower: Record<string, string>, upper: Record<string, string>, merged: Record<string, string>): OverlayLayers {
  const root = tempDir('aish-layers-');
  const layers = { lower: path.join(root, 'lower'), upper: path.join(root, 'upper'), merged: path.join(root, 'merged') };
  lay(layers.lower, lower);
  lay(layers.upper, upper);
  lay(layers.merged, merged);
  return layers;
}

const rel = (layers: OverlayLayers) => (file: string) => path.relative(layers.lower, file);

describe('readOverlayChanges', () => {
  it('a whiteout is a deletion; a folder deleted whole counts its files', () => {
    const layers = views({ 'a.txt': 'a', 'b.txt': 'b', 'dir/x': '1', 'dir/sub/y': '2' }, {}, { 'b.txt': 'b' });
    whiteout(path.join(layers.upper, 'a.txt'));
    whiteout(path.join(layers.upper, 'dir'));
    const { changes, complete } = readOverlayChanges(layers);
    expect(complete).toBe(true);
    expect(changes.map((c) => [c.kind, rel(layers)(c.path), c.type, c.files])).toEqual([
      ['delete', 'a.txt', 'file', undefined],
      ['delete', 'dir', 'dir', 2],
    ]);
  });

  it('an opaque folder (removed and made again): the old entries it no longer shows are deleted, a name made again is a change', () => {
    const layers = views({ 'd/old': 'old', 'd/kept': 'v1', 'd/gone/deep': 'x' }, { 'd/kept': 'v2', 'd/fresh': 'new' }, { 'd/kept': 'v2', 'd/fresh': 'new' });
    const found = readOverlayChanges(layers).changes.map((c) => `${c.kind} ${rel(layers)(c.path)}${c.files !== undefined ? ` (${c.files})` : ''}${c.content ? ' content' : ''}`);
    expect(found.sort()).toEqual(['change d/kept content', 'create d/fresh', 'delete d/gone (1)', 'delete d/old'].sort());
  });

  it('modes: a chmod alone is a change of mode; a copy-up that changed nothing is no change', () => {
    const layers = views({ 'run.sh': 'echo', 'same.txt': 'same', 'dir/': '' }, { 'run.sh': 'echo', 'same.txt': 'same', 'dir/': '' }, { 'run.sh': 'echo', 'same.txt': 'same', 'dir/': '' });
    chmodSync(path.join(layers.lower, 'run.sh'), 0o644);
    chmodSync(path.join(layers.merged, 'run.sh'), 0o755);
    chmodSync(path.join(layers.lower, 'dir'), 0o755);
    chmodSync(path.join(layers.merged, 'dir'), 0o700);
    const changes = readOverlayChanges(layers).changes;
    expect(changes.map((c) => [rel(layers)(c.path), c.mode, c.content ?? false])).toEqual([
      ['dir', { before: 0o755, after: 0o700 }, false],
      ['run.sh', { before: 0o644, after: 0o755 }, false],
    ]);
  });

  it('a file turned into a folder is a deletion and a creation; a link given another target is a change; a new folder counts its files', () => {
    const layers = views(
      { thing: 'file', link: '@a' },
      { 'thing/inner': 'x', link: '@b', 'out/': '', 'out/one': '1', 'out/deep/two': '2' },
      { 'thing/inner': 'x', link: '@b', 'out/one': '1', 'out/deep/two': '2' },
    );
    const found = readOverlayChanges(layers).changes.map((c) => `${c.kind} ${rel(layers)(c.path)} ${c.type}${c.files !== undefined ? ` (${c.files})` : ''}`);
    expect(found.sort()).toEqual(['change link symlink', 'create out dir (2)', 'create thing dir (1)', 'delete thing file'].sort());
  });

  it('a merged view it cannot read is an error, not every file deleted', () => {
    const layers = views({ 'a.txt': 'a' }, {}, {});
    expect(() => readOverlayChanges({ ...layers, merged: path.join(layers.merged, 'missing') })).toThrow(/cannot read the preview's view/);
  });

  it('stops at its limit and says the reading is incomplete', () => {
    const upper: Record<string, string> = {};
    for (let i = 0; i < 50; i++) upper[`f${i}`] = String(i);
    const layers = views({}, upper, upper);
    const reading = readOverlayChanges(layers, 10);
    expect(reading.complete).toBe(false);
    expect(reading.changes.length).toBeLessThanOrEqual(10);
  });
});

describe('what a command made in the private /tmp', () => {
  it('lists it under /tmp, a new folder with its file count, and not the places the box mounted on', () => {
    const dir = tempDir('aish-tmp-view-');
    // The box made aish-test-1/home and the folders above it to bind the home folder there.
    lay(dir, { 'copied_key.txt': 'k', 'cache/a': '1', 'cache/b': '2', 'aish-test-1/home/': '', 'aish-test-1/stray.txt': 's' });
    const reading = readCreated(dir, '/tmp', ['/tmp/aish-test-1/home', '/home/me']);
    expect(reading.complete).toBe(true);
    expect(reading.changes.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { kind: 'create', path: '/tmp/aish-test-1/stray.txt', type: 'file' },
      { kind: 'create', path: '/tmp/cache', type: 'dir', files: 2 },
      { kind: 'create', path: '/tmp/copied_key.txt', type: 'file' },
    ]);
  });
});

describe('the report', () => {
  it('shows paths relative to the directory, else under ~, else whole', () => {
    expect(shownPath('/w/p/src/a.ts', '/w/p', '/home/me')).toBe('src/a.ts');
    expect(shownPath('/home/me/.cache/x', '/w/p', '/home/me')).toBe('~/.cache/x');
    expect(shownPath('/etc/hosts', '/w/p', '/home/me')).toBe('/etc/hosts');
  });

  it('lists deletions, creations, then changes; folds a .git folder into one line; caps the list', () => {
    const { lines, more } = changeLines(
      [
        { kind: 'change', path: '/t/notes.txt', type: 'file', content: true },
        { kind: 'create', path: '/t/.git/objects/ab/cd', type: 'file' },
        { kind: 'change', path: '/t/.git/index', type: 'file', content: true },
        { kind: 'create', path: '/t/build', type: 'dir', files: 3 },
        { kind: 'delete', path: '/t/old.txt', type: 'file' },
        { kind: 'change', path: '/t/run.sh', type: 'file', mode: { before: 0o644, after: 0o755 } },
      ],
      (f) => path.relative('/t', f),
    );
    expect(more).toBe(0);
    expect(lines).toEqual([
      { kind: 'delete', text: 'old.txt' },
      { kind: 'create', text: 'build/ (3 files)' },
      { kind: 'change', text: 'notes.txt' },
      { kind: 'change', text: 'run.sh (mode 644 → 755)' },
      { kind: 'change', text: ".git/ (2 entries: git's own files)" },
    ]);
    const many = Array.from({ length: 40 }, (_, i) => ({ kind: 'create' as const, path: `/t/f${i}`, type: 'file' as const }));
    expect(changeLines(many, (f) => f, 30).more).toBe(10);
  });

  it('given the tree, lists what is outside it (the home folder, /tmp) after what is inside, marked', () => {
    const { lines } = changeLines(
      [
        { kind: 'create', path: '/tmp/copied.txt', type: 'file' },
        { kind: 'change', path: '/home/me/.bashrc', type: 'file', content: true },
        { kind: 'create', path: '/t/new.txt', type: 'file' },
        { kind: 'delete', path: '/t/old.txt', type: 'file' },
      ],
      (f) => shownPath(f, '/t', '/home/me'),
      30,
      '/t',
    );
    expect(lines).toEqual([
      { kind: 'delete', text: 'old.txt' },
      { kind: 'create', text: 'new.txt' },
      { kind: 'create', text: '/tmp/copied.txt', outside: true },
      { kind: 'change', text: '~/.bashrc', outside: true },
    ]);
  });

  it('a hidden place the command reached is named with what a real run does there', () => {
    const show = (f: string) => shownPath(f, '/t', '/home/me');
    expect(hiddenLine({ path: '/home/me/.ssh/id_rsa', write: false }, show)).toBe('hidden in the preview: ~/.ssh/id_rsa — a real run can read it');
    expect(hiddenLine({ path: '/home/me/.ssh/authorized_keys', write: true }, show)).toBe('hidden in the preview: ~/.ssh/authorized_keys — a real run can write it');
  });

  it('a Norris step HALTs on what existed and would be deleted or changed, not on what the run made itself, and without a preview', () => {
    const changes = [
      { kind: 'delete' as const, path: '/t/old.txt', type: 'file' as const },
      { kind: 'change' as const, path: '/t/made/by-run.txt', type: 'file' as const, content: true },
      { kind: 'change' as const, path: '/t/notes.txt', type: 'file' as const, content: true },
      { kind: 'create' as const, path: '/t/new.txt', type: 'file' as const },
    ];
    const done = { type: 'done' as const, tree: '/t', hidden: [], exitCode: 0, timedOut: false, output: { text: '', truncated: false, binary: false, rawChars: 0 }, changes, complete: true, diffs: [] };
    const step = stepPreview(done, (f) => path.relative('/t', f), 10_000);
    expect(step).toMatchObject({ type: 'done', touched: ['/t/old.txt', '/t/made/by-run.txt', '/t/notes.txt'], created: ['/t/new.txt'] });
    expect(previewReason(step, new Set(['/t/made']))).toBe('the preview would delete or change what existed before the run (old.txt, notes.txt)');
    expect(previewReason(step, new Set(['/t']))).toBeNull();
    expect(previewReason(stepPreview({ ...done, timedOut: true }, (f) => f, 10_000), new Set())).toBe('no preview (it did not finish within 10000 ms)');
    expect(previewReason(stepPreview({ type: 'unavailable', why: 'unshare (util-linux) is not installed' }, (f) => f, 1), new Set())).toBe(
      'no preview (preview needs Linux user namespaces (not available here): unshare (util-linux) is not installed)',
    );
  });
});
