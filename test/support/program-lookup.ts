// Whether a program the tests drive is on this machine, and how to say what is missing: a test
// that needs one skips (or fails under AISH_TESTS_REQUIRE_ALL) naming it and the package to install.
// Pure and free of vitest's test API, so the reporter in the main process can use it too.

import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The file `program` runs as: an absolute path as it is, a bare name looked up in `searchPath` (the
 * tests' own PATH by default); undefined where no executable file is there.
 */
export function findProgram(program: string, searchPath = process.env.PATH ?? ''): string | undefined {
  const candidates = program.includes('/') ? [program] : searchPath.split(':').filter(Boolean).map((dir) => path.join(dir, program));
  return candidates.find(isExecutableFile);
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Debian/Ubuntu package names where they differ from the program's. */
const PACKAGES: Record<string, string> = { pgrep: 'procps', ps: 'procps', bwrap: 'bubblewrap' };

/** The package that installs `program` (`/bin/zsh` and `zsh` alike: zsh). */
export function packageFor(program: string): string {
  const name = path.basename(program);
  return PACKAGES[name] ?? name;
}

/** "zsh is not installed (apt-get install zsh)"; several programs share one install command. */
export function describeMissing(programs: readonly string[]): string {
  const names = [...new Set(programs.map((p) => path.basename(p)))];
  const packages = [...new Set(programs.map(packageFor))];
  return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not installed (apt-get install ${packages.join(' ')})`;
}

/** The variable CI sets so that a test whose program is missing fails instead of skipping. */
export const REQUIRE_ALL = 'AISH_TESTS_REQUIRE_ALL';

export function requiresAll(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env[REQUIRE_ALL]) && env[REQUIRE_ALL] !== '0';
}

/** What a test whose programs are `missing` does: run, skip with the reason in its name, or fail with it. */
export type NeedsPlan = { type: 'run' } | { type: 'skip'; suffix: string } | { type: 'fail'; message: string };

export function planFor(missing: readonly string[], requireAll: boolean): NeedsPlan {
  if (missing.length === 0) return { type: 'run' };
  const reason = describeMissing(missing);
  if (requireAll) return { type: 'fail', message: `${reason}, and ${REQUIRE_ALL} is set (as CI does): every test must run` };
  return { type: 'skip', suffix: ` (skipped: ${reason})` };
}

/**
 * The line `npm test` ends with, from the missing programs of each test skipped for them:
 * "[aish tests] 17 skipped: zsh is not installed (apt-get install zsh)"; undefined for none.
 */
export function summarizeSkips(skipped: readonly (readonly string[])[]): string | undefined {
  if (skipped.length === 0) return undefined;
  return `[aish tests] ${skipped.length} skipped: ${describeMissing(skipped.flat())}`;
}
