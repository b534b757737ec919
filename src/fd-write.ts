// Writing to a standard stream's file descriptor, for what runs before Node's stream for it exists
// (entry.ts, and the front on a terminal): setting up the standard output or error stream loads
// Node's stream machinery, and on a terminal its tty stream, a millisecond or more each.

import { writeSync } from 'node:fs';

/**
 * Writes all of `text` to `fd` at once. A descriptor that is full for now (EAGAIN) is tried again;
 * any other failure (EPIPE, EIO) is returned, and the rest is not written.
 */
export function writeAllSync(fd: number, text: string): NodeJS.ErrnoException | undefined {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      return err as NodeJS.ErrnoException;
    }
  }
  return undefined;
}
