// The first input of a pipe, read without Node's stream for standard input: setting that stream up
// loads `net` and the stream classes, about 5 ms of a 25 ms Node start (docs/performance.md), and
// a script's aish given an empty input needs neither.
//
// The pipe is opened again through /proc/self/fd/0 with O_NONBLOCK, a file description of its own,
// so a read never blocks and standard input's own description is left as it was (a pending read
// of fd 0 in libuv's thread pool would keep the process from exiting: measured, the exit waits
// for it). libuv opens it close-on-exec. Linux only; anything else is left to the stream.

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** What is on a piped standard input now: a chunk (taken from the pipe), null at its end, or undefined when this cannot tell. */
export type PipePeek = Buffer | null | undefined;

/**
 * Reads what the pipe on fd 0 holds now, once. Undefined when stdin is not a pipe, the platform is
 * not Linux, nothing has been written yet (the writer still open), or anything fails: then the
 * stream must be asked. A chunk returned has left the pipe: give it back to the stream (`unshift`).
 */
export function peekPipe(fd: number, platform: NodeJS.Platform): PipePeek {
  if (platform !== 'linux') return undefined;
  let own: number | undefined;
  try {
    if (!fstatSync(fd).isFIFO()) return undefined;
    own = openSync(`/proc/self/fd/${fd}`, constants.O_RDONLY | constants.O_NONBLOCK);
    const buffer = Buffer.allocUnsafe(64 * 1024);
    const n = readSync(own, buffer, 0, buffer.length, null);
    return n === 0 ? null : buffer.subarray(0, n);
  } catch {
    // EAGAIN (nothing yet), ENXIO, EACCES, no /proc: the stream reads it.
    return undefined;
  } finally {
    if (own !== undefined) closeSync(own);
  }
}
