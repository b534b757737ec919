// `needs('zsh').it(...)`, `needs('/bin/zsh').describe(...)`: a test or a group of tests that drives a
// program this machine may lack. Where it is there they run as usual; where not they skip with the
// reason in their names ("(skipped: zsh is not installed (apt-get install zsh))"), and the needs
// reporter sums them up in the last line of `npm test`; with AISH_TESTS_REQUIRE_ALL (set by
// .ci/run) they fail with that reason instead, so CI always runs everything.

import { beforeEach, describe, it, type TestFunction } from 'vitest';
import { findProgram, planFor, requiresAll } from './program-lookup.js';

declare module 'vitest' {
  interface TaskMeta {
    /** The programs a skipped test needed and this machine lacks (read by test/support/needs-reporter.ts). */
    aishNeeds?: string[];
  }
}

export interface Needs {
  /** The programs asked for that are not here; empty where the tests run. */
  readonly missing: readonly string[];
  /** `timeout` as vitest's own third argument. */
  it(name: string, fn: TestFunction, timeout?: number): void;
  describe(name: string, fn: () => void): void;
}

/** `programs` are bare names looked up on PATH, or the absolute path a test runs (`/bin/zsh`). */
export function needs(...programs: string[]): Needs {
  const missing = programs.filter((p) => !findProgram(p));
  const plan = planFor(missing, requiresAll());
  const meta = { aishNeeds: missing };
  switch (plan.type) {
    case 'run':
      return { missing, it: (name, fn, timeout) => it(name, fn, timeout), describe: (name, fn) => describe(name, fn) };
    case 'skip':
      return {
        missing,
        it: (name, fn, timeout) => it.skip(name + plan.suffix, { meta, timeout }, fn),
        describe: (name, fn) => describe.skip(name + plan.suffix, { meta }, fn),
      };
    case 'fail': {
      const fail = () => {
        throw new Error(plan.message);
      };
      return {
        missing,
        it: (name) => it(name, fail),
        describe: (name, fn) =>
          describe(name, () => {
            beforeEach(fail);
            fn();
          }),
      };
    }
  }
}
