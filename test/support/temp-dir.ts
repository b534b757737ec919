// Private temp directories for tests, removed when the test file's tests have run, so a run of the
// suite leaves nothing behind in the system temp dir.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

// Imported by a test file, this module is evaluated while that file is collected: the hook is the file's.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new directory under the system temp dir (`mkdtemp` with `prefix`), removed after the file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
