// vitest globalSetup: what every part of the suite needs besides Node. bash is the session shell of
// the end-to-end tests and git is what undo and the [project] block run, so without them most
// files would fail one by one; the run stops at once instead, saying what to install. Programs only
// some tests need are their own business (test/support/needs.ts).

import { describeMissing, findProgram } from './program-lookup.js';

export const PREREQUISITES = ['bash', 'git'];

export default function checkPrerequisites(): void {
  const missing = PREREQUISITES.filter((p) => !findProgram(p));
  if (missing.length > 0) throw new Error(`aish's tests need bash and git: ${describeMissing(missing)}`);
}
