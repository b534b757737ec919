// planRestore (pure): what an undo does with each file an action changed, given how the file is now.

import { describe, expect, it } from 'vitest';
import { planRestore, type FileState } from '../../src/undo/restore.js';
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
    expect(planRestore([c], since, new Set(), force)).toEqual(expected ? [expected] : []);
  });

  it('a file left out for its size is kept, even forced', () => {
    expect(planRestore([change(ABSENT, NONE, F, 'b')], new Map(), new Set(['f']), true)).toEqual([{ type: 'keep', path: 'f', why: 'larger than undo.max_file_bytes, not in the checkpoint' }]);
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
