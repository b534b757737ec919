// The tests' own lookup of the programs they drive (test/support/needs.ts): found on a PATH or at
// an absolute path, named with the package to install when missing, skipped or (as in CI) failed.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeMissing, findProgram, packageFor, planFor, requiresAll, summarizeSkips } from './support/program-lookup.js';

const dir = mkdtempSync(path.join(tmpdir(), 'aish-needs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function place(at: string, name: string, mode: number): string {
  mkdirSync(at, { recursive: true });
  const file = path.join(at, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, mode);
  return file;
}

describe('findProgram', () => {
  const one = path.join(dir, 'one');
  const two = path.join(dir, 'two');
  const runnable = place(two, 'tool', 0o755);
  place(one, 'tool', 0o644);
  place(one, 'plain', 0o644);
  mkdirSync(path.join(one, 'folder'), { recursive: true });
  chmodSync(path.join(one, 'folder'), 0o755);

  it('finds a bare name on the PATH it is given, skipping a file that is not executable', () => {
    expect(findProgram('tool', `${one}:${two}`)).toBe(runnable);
  });

  it.each([
    ['not on the PATH', 'missing', `${one}:${two}`],
    ['only there without the x bit', 'plain', one],
    ['a folder of that name', 'folder', one],
    ['an empty PATH', 'tool', ''],
  ])('finds nothing for %s', (_, name, searchPath) => {
    // As root the x bit is all access(X_OK) looks at for a file; a mode of 0644 has none.
    expect(findProgram(name, searchPath)).toBeUndefined();
  });

  it('checks an absolute path as it is, whatever the PATH (the end-to-end tests run SHELL=/bin/zsh)', () => {
    expect(findProgram(runnable, '')).toBe(runnable);
    expect(findProgram(path.join(one, 'tool'), `${two}`)).toBeUndefined();
  });

  it('finds node on the tests\' own PATH', () => {
    expect(findProgram('node')).toBeDefined();
  });
});

describe('what a missing program is called', () => {
  it.each([
    ['zsh', 'zsh'],
    ['/bin/zsh', 'zsh'],
    ['pgrep', 'procps'],
    ['ps', 'procps'],
    ['bwrap', 'bubblewrap'],
  ])('%s comes with %s', (program, pkg) => {
    expect(packageFor(program)).toBe(pkg);
  });

  it('one program, then several sharing one install command', () => {
    expect(describeMissing(['/bin/zsh'])).toBe('zsh is not installed (apt-get install zsh)');
    expect(describeMissing(['zsh', 'pgrep', 'ps', '/bin/zsh'])).toBe('zsh, pgrep, ps are not installed (apt-get install zsh procps)');
  });
});

describe('skip, or fail where every test must run', () => {
  it('runs a test whose programs are all here, either way', () => {
    expect(planFor([], false)).toEqual({ type: 'run' });
    expect(planFor([], true)).toEqual({ type: 'run' });
  });

  it('skips with the reason in the name', () => {
    expect(planFor(['zsh'], false)).toEqual({ type: 'skip', suffix: ' (skipped: zsh is not installed (apt-get install zsh))' });
  });

  it('fails with the same reason under AISH_TESTS_REQUIRE_ALL', () => {
    expect(planFor(['zsh'], true)).toEqual({
      type: 'fail',
      message: 'zsh is not installed (apt-get install zsh), and AISH_TESTS_REQUIRE_ALL is set (as CI does): every test must run',
    });
  });

  it.each([
    [{}, false],
    [{ AISH_TESTS_REQUIRE_ALL: '' }, false],
    [{ AISH_TESTS_REQUIRE_ALL: '0' }, false],
    [{ AISH_TESTS_REQUIRE_ALL: '1' }, true],
  ])('AISH_TESTS_REQUIRE_ALL in %j: %s', (env, expected) => {
    expect(requiresAll(env)).toBe(expected);
  });
});

describe('the last line of npm test', () => {
  it('is none when nothing was skipped for a missing program', () => {
    expect(summarizeSkips([])).toBeUndefined();
  });

  it('counts the tests and names each program once, with its package', () => {
    expect(summarizeSkips([['zsh'], ['/bin/zsh'], ['zsh', 'pgrep']])).toBe('[aish tests] 3 skipped: zsh, pgrep are not installed (apt-get install zsh procps)');
  });
});
