// The one-writer lock of the memory file: `<dir>/memory.lock`, created with O_EXCL and holding the
// writer's pid. It is held only for one write (acquire, append, release), so several aish sessions
// share memory. A lock whose pid is dead, is our own, or is older than a minute is taken over.

import fs from 'node:fs';
import { AishError, errorMessage, fileWriteProblem } from '../errors.js';

/** Another live aish holds the memory lock; the write did not happen. */
export class MemoryLockedError extends AishError {
  constructor(
    readonly pid: number | null,
    readonly lockFile: string,
  ) {
    super('memory', `memory is being written by another aish${pid === null ? '' : ` (pid ${pid})`}; try again`);
  }
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up (ms). Default 250: a write takes ~1 ms. */
  waitMs?: number;
}

/** A write holds the lock for milliseconds; one older than this was left by a crash (or a reused pid). */
const STALE_AFTER_MS = 60_000;
const RETRY_MS = 10;
const MAX_TAKEOVERS = 20;

/**
 * Runs `fn` while holding the lock at `lockFile` and releases it afterwards, also when `fn`
 * throws. Throws MemoryLockedError when another live process still holds it after `waitMs`.
 * Synchronous: nothing else in this process can interleave with `fn`.
 */
export function withMemoryLock<T>(lockFile: string, fn: () => T, options: LockOptions = {}): T {
  acquire(lockFile, options.waitMs ?? 250);
  try {
    return fn();
  } finally {
    release(lockFile);
  }
}

function acquire(lockFile: string, waitMs: number): void {
  const deadline = Date.now() + waitMs;
  let takeovers = 0;
  for (;;) {
    let fd: number;
    try {
      fd = fs.openSync(lockFile, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new AishError('memory', `cannot lock memory ${lockFile}: ${fileWriteProblem(err)}`, { cause: err });
      }
      const holder = readHolder(lockFile);
      // Gone between our open and our read: the holder just released it.
      if (holder === null) continue;
      if (isStale(holder) && takeovers < MAX_TAKEOVERS) {
        takeovers++;
        removeLock(lockFile);
        continue;
      }
      if (Date.now() >= deadline) throw new MemoryLockedError(holder.pid, lockFile);
      sleepSync(RETRY_MS);
      continue;
    }
    try {
      fs.writeSync(fd, `${process.pid}\n`);
    } catch (err) {
      // A lock without its holder's pid would make the next writer wait for nobody.
      fs.closeSync(fd);
      removeLock(lockFile);
      throw new AishError('memory', `cannot lock memory ${lockFile}: ${fileWriteProblem(err)}; nothing was changed`, { cause: err });
    }
    fs.closeSync(fd);
    return;
  }
}

/** Removes the lock only while it is still ours, so a lock taken over from us is left alone. */
function release(lockFile: string): void {
  const holder = readHolder(lockFile);
  if (holder?.pid === process.pid) removeLock(lockFile);
}

interface Holder {
  /** Null while the holder has created the file but not yet written its pid, or for garbage. */
  pid: number | null;
  ageMs: number;
}

function readHolder(lockFile: string): Holder | null {
  try {
    const text = fs.readFileSync(lockFile, 'utf8').trim();
    const ageMs = Date.now() - fs.statSync(lockFile).mtimeMs;
    const pid = /^\d+$/.test(text) ? Number(text) : null;
    return { pid: pid !== null && pid > 0 ? pid : null, ageMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AishError('memory', `cannot read memory lock ${lockFile}: ${errorMessage(err)}`, { cause: err });
  }
}

function isStale(holder: Holder): boolean {
  if (holder.ageMs > STALE_AFTER_MS) return true;
  if (holder.pid === null) return false;
  // Writes are synchronous, so our own pid in the lock is a leftover, never a write in progress.
  if (holder.pid === process.pid) return true;
  return !isAlive(holder.pid);
}

/** True when a process with this pid exists (EPERM: it exists but belongs to someone else). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeLock(lockFile: string): void {
  try {
    fs.unlinkSync(lockFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new AishError('memory', `cannot remove memory lock ${lockFile}: ${errorMessage(err)}`, { cause: err });
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
