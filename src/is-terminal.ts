// `isatty` for the start-up files without loading node:tty at once: that module loads `net` and
// Node's stream classes, about 5 ms of a 25 ms Node start, which a piped start does not need
// (docs/performance.md). Only a character device can be a terminal; for one, node:tty decides.

import { fstatSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Whether `fd` is a terminal, as `tty.isatty(fd)` says; false for a descriptor that is not open. */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  // vitest gives src/ a __filename too; the bundles are CommonJS.
  const tty = createRequire(__filename)('node:tty') as typeof import('node:tty');
  return tty.isatty(fd);
}
