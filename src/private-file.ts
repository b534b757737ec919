// A file only its owner may read (0600, its folder 0700), rewritten whole: a temp file, then a
// rename, so a crash or a second aish never leaves half of it behind. For what aish keeps under
// its state dir that nobody else should read or change (OAuth tokens, trusted project configs).

import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `text` to `file` (0600; missing folders made 0700). Throws what the file system throws;
 * the file is then as it was and no temp file is left (a full disk fills no more of it).
 */
export function writePrivateFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // The global crypto: importing node:crypto costs a start 7 ms (docs/performance.md).
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    // The mode given to writeFileSync passes through the umask; this one does not.
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
