// The [project] tree: compact, sorted, directories first, folded deepest-first past the cap.

import { describe, expect, it } from 'vitest';
import { formatTree } from '../../src/project/tree.js';

const files = ['README.md', 'package.json', 'src/main.ts', 'src/render/markdown.ts', 'src/render/reply.ts', 'src/render/deep/x.ts', 'test/a.test.ts'];

describe('formatTree', () => {
  it('shows every file as an indented tree when it fits', () => {
    expect(formatTree(files, 10_000)).toBe(
      ['src/', '  render/', '    deep/', '      x.ts', '    markdown.ts', '    reply.ts', '  main.ts', 'test/', '  a.test.ts', 'package.json', 'README.md'].join('\n'),
    );
  });

  it('folds the deepest directories first', () => {
    const full = formatTree(files, 10_000);
    const folded = formatTree(files, full.length - 1);
    expect(folded).toContain('    deep/ (1 file)');
    expect(folded).toContain('    markdown.ts');
  });

  it('folds level by level until it fits, and never exceeds the cap', () => {
    for (const cap of [120, 80, 60, 40]) {
      const out = formatTree(files, cap);
      expect(out.length, out).toBeLessThanOrEqual(cap);
    }
    expect(formatTree(files, 60)).toContain('src/ (4 files)');
  });

  it('cuts the top level when even that is too long, saying how much is left out', () => {
    const many = Array.from({ length: 500 }, (_, i) => `file-${String(i).padStart(3, '0')}.txt`);
    const out = formatTree(many, 200);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out).toMatch(/… \(\d+ more entries\)$/);
  });
});
