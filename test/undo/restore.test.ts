// planRestore (pure): what an undo does with each file an action changed, given how the file is now.

import { describe, expect, it } from 'vitest';
import { planRestore, type FileState, type RestoreContext } from '../../src/undo/restore.js';
import { ABSENT, parseRawDiff, type TreeChange } from '../../src/undo/store.js';

const F = '100644';
const X = '100755';
const change = (fromMode: string, fromSha: string, toMode: string, toSha: string): TreeChange => ({ path: 'f', fromMode, fromSha, toMode, toSha });
const NONE = '0'.repeat(40);

describe('planRestore', () => {
  it.each([
    ['created, untouched since → removed', change(ABSENT, NONE, F, 'b'), null, false, { type: 'remove', path: 'f' }],
    ['deleted, still gone → written back', change(F, 'a', ABSENT, NONE), null, false, { type: 'write', path: 'f', mode: F, sha: 'a' }],
    ['modified → old content', change(F, 'a', F, 'b'), null, false, { type: 'write', path: 'f', mode: F, sha: 'a' }],
    ['made executable → old mode', change(F, 'a', X, 'a'), null, false, { type: 'write', path: 'f', mode: F, sha: 'a' }],
    ['changed since → kept', change(F, 'a', F, 'b'), { mode: F, sha: 'c' }, false, { type: 'keep', path: 'f', why: 'changed since' }],
    ['created, then deleted by hand → kept', change(ABSENT, NONE, F, 'b'), { mode: ABSENT, sha: NONE }, false, null],
    ['deleted, then made again → kept', change(F, 'a', ABSENT, NONE), { mode: F, sha: 'c' }, false, { type: 'keep', path: 'f', why: 'changed since' }],
    ['changed since, forced → old content', change(F, 'a', F, 'b'), { mode: F, sha: 'c' }, true, { type: 'write', path: 'f', mode: F, sha: 'a' }],
    ['already as before → nothing', change(F, 'a', F, 'b'), { mode: F, sha: 'a' }, false, null],
    ['a repository inside the tree → nothing', change(ABSENT, NONE, '160000', 'b'), null, false, null],
  ] as const)('%s', (_name, c, now, force, expected) => {
    const since = new Map<string, FileState>(now ? [['f', now]] : []);
    expect(planRestore([c], { since, skipped: new Set(), force })).toEqual(expected ? [expected] : []);
  });

  it('a file left out for its size is kept, even forced', () => {
    expect(planRestore([change(ABSENT, NONE, F, 'b')], { since: new Map(), skipped: new Set(['f']), force: true })).toEqual([{ type: 'keep', path: 'f', why: 'larger than undo.max_file_bytes, not in the checkpoint' }]);
  });
});

describe('parseRawDiff', () => {
  it('reads names with spaces, newlines and non-ASCII as they are', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const raw = `:000000 100644 ${NONE} ${a} A\0new file\nline.txt\0:100644 100755 ${a} ${b} M\0ü/ß.txt\0`;
    expect(parseRawDiff(raw)).toEqual([
      { path: 'new file\nline.txt', fromMode: ABSENT, toMode: F, fromSha: NONE, toSha: a },
      { path: 'ü/ß.txt', fromMode: F, toMode: X, fromSha: a, toSha: b },
    ]);
  });
});

describe('planRestore with what the snapshots could not see (issue 32)', () => {
  const at = (file: string, fromMode: string, toMode: string): TreeChange => ({ path: file, fromMode, fromSha: fromMode === ABSENT ? NONE : 'a', toMode, toSha: toMode === ABSENT ? NONE : 'b' });
  const repo = (p: string) => ({ path: p, kind: 'repo' as const, id: '1' });
  const ignored = (p: string) => ({ path: p, kind: 'ignored' as const, id: '2' });
  const none: NonNullable<RestoreContext['unseen']> = { before: [], after: [], now: [], vanished: [] };
  const plan = (changes: TreeChange[], unseen: Partial<typeof none>, extra: Partial<RestoreContext> = {}) =>
    planRestore(changes, { since: new Map(), skipped: new Set(), force: true, unseen: { ...none, ...unseen }, ...extra });

  it('paths hidden before the action are kept, named once by what hid them, even forced', () => {
    expect(plan([at('lib/a.c', ABSENT, F), at('lib/b.c', ABSENT, F), at('data.db', ABSENT, F), at('new.txt', ABSENT, F)], { before: [repo('lib/'), ignored('data.db')] })).toEqual([
      { type: 'keep', path: 'lib/', why: 'in a repository of its own before the action: never in the checkpoint, left as it is' },
      { type: 'keep', path: 'data.db', why: 'ignored before the action: never in the checkpoint, left as it is' },
      { type: 'remove', path: 'new.txt' },
    ]);
  });

  it('when something unseen vanished, created files are kept, named by the folder the action made; the rest is undone', () => {
    const steps = plan([at('v/lib/a.c', ABSENT, F), at('v/backup/HEAD', ABSENT, F), at('v/backup/objects/x', ABSENT, F), at('old.txt', F, ABSENT)], { before: [repo('v/lib/')], vanished: [repo('v/lib/')] }, { foldersBefore: new Set() });
    expect(steps).toContainEqual({ type: 'keep', path: 'v/backup/', why: 'made by the action, which moved or removed v/lib/.git that the checkpoint could not see: this may be all that is left of it' });
    expect(steps).toContainEqual({ type: 'write', path: 'old.txt', mode: F, sha: 'a' });
    expect(steps.filter((s) => s.type === 'remove')).toEqual([]);
  });

  it('a file kept for a vanished thing in a folder that was there before is named by itself', () => {
    const steps = plan([at('src/made.c', ABSENT, F)], { vanished: [ignored('data.db')] }, { foldersBefore: new Set(['src/']) });
    expect(steps).toEqual([{ type: 'keep', path: 'src/made.c', why: expect.stringContaining('data.db') }]);
  });

  it('a path hidden now comes back only where nothing is in its place; a created one is not removed', () => {
    expect(plan([at('gone.txt', F, ABSENT), at('made.txt', ABSENT, F)], { now: [ignored('gone.txt'), ignored('made.txt')] })).toEqual([
      { type: 'write', path: 'gone.txt', mode: F, sha: 'a', unless: 'ignored now: the checkpoint cannot see what changed since, left as it is' },
      { type: 'keep', path: 'made.txt', why: 'ignored now: the checkpoint cannot see what changed since, left as it is' },
    ]);
  });

  it('a file written back gets the permission bits it had', () => {
    expect(plan([at('.env', F, ABSENT)], {}, { perms: { '.env': '600' } })).toEqual([{ type: 'write', path: '.env', mode: F, sha: 'a', perm: 0o600 }]);
    // Not noted: it had git's 644 (755 when executable), whatever the umask is now.
    expect(plan([at('notes.txt', F, ABSENT)], {}, { perms: {} })).toEqual([{ type: 'write', path: 'notes.txt', mode: F, sha: 'a', perm: 0o644 }]);
  });
});
