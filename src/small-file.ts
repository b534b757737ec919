// Reads a small regular file that anyone could have planted (a project's config candidate) without
// ever wedging aish: a FIFO would block the open, a link to /dev/zero or /dev/tty would read for
// ever, and a read that never ends holds the event loop, so not even SIGTERM is handled. The file
// is opened without blocking and checked on the open descriptor (what was checked is what is read),
// and the read stops at a cap, or takes only the tail of a file that may be large (a shell history).

import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';

/** Why a file was not read: a clause that follows its name ("is not a regular file (a FIFO)"). */
export interface Refused {
  refused: string;
}

/** Open flags: no wait on a FIFO, no controlling terminal, no link in the last step (it is resolved first). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * The bytes of `file` when it is a regular file of at most `maxBytes`, after resolving links; with
 * `within`, only when the resolved file lies inside that directory (resolved too). Otherwise why
 * not, or the error of resolving or opening it (ENOENT, EACCES, EISDIR for a directory) for the
 * caller to judge. Never blocks, never throws.
 */
export function readSmallRegularFile(file: string, maxBytes: number, within?: string): Uint8Array | Refused | NodeJS.ErrnoException {
  return withRegularFile(file, within, (fd, st) => {
    const tooLarge = { refused: `is larger than ${formatBytes(maxBytes)} (aish reads no larger config)` };
    if (st.size > maxBytes) return tooLarge;
    // Read to the end, as the size may have changed since fstat: one byte over the cap is enough to know.
    let buffer = Buffer.alloc(st.size + 1);
    let filled = 0;
    for (let n; (n = readSync(fd, buffer, filled, buffer.length - filled, null)) > 0; ) {
      filled += n;
      if (filled > maxBytes) return tooLarge;
      if (filled === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(Math.min(buffer.length, maxBytes + 1 - buffer.length))]);
    }
    return buffer.subarray(0, filled);
  });
}

/**
 * The last `maxBytes` bytes at most of `file` (a log that only grows, a shell's history), when it is
 * a regular file after resolving links; `cut` when they are not the whole file. Otherwise why not,
 * or the error of resolving or opening it, as `readSmallRegularFile`. Never blocks, never throws.
 */
export function readRegularFileTail(file: string, maxBytes: number): { bytes: Uint8Array; cut: boolean } | Refused | NodeJS.ErrnoException {
  return withRegularFile(file, undefined, (fd, st) => {
    const start = Math.max(0, st.size - maxBytes);
    const buffer = Buffer.alloc(Math.min(st.size, maxBytes));
    let filled = 0;
    for (let n; filled < buffer.length && (n = readSync(fd, buffer, filled, buffer.length - filled, start + filled)) > 0; ) filled += n;
    return { bytes: buffer.subarray(0, filled), cut: start > 0 };
  });
}

/** Opens `file` without blocking, checks on the descriptor that it is a regular file, and reads it with `read`. */
function withRegularFile<T>(file: string, within: string | undefined, read: (fd: number, st: Stats) => T): T | Refused | NodeJS.ErrnoException {
  let real: string;
  try {
    real = realpathSync(file);
    if (within !== undefined) {
      const base = realpathSync(within);
      if (!isInside(base, real)) return { refused: `is a link to ${real}, outside ${base}` };
    }
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
  let fd: number;
  try {
    fd = openSync(real, OPEN_FLAGS);
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${file}'`), { code: 'EISDIR' });
    if (!st.isFile()) return { refused: `is not a regular file (${kindOf(st)})` };
    return read(fd, st);
  } catch (err) {
    return err as NodeJS.ErrnoException;
  } finally {
    closeSync(fd);
  }
}

/** Whether `result` is a refusal rather than bytes or an error. */
export function isRefused(result: unknown): result is Refused {
  return typeof result === 'object' && result !== null && 'refused' in result;
}

function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;
}
