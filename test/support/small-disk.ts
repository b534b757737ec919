// A real full disk for tests: a 64 KiB tmpfs mounted on a test's folder (root only), and a filler
// that takes every free page of it. Where no tmpfs can be mounted (not root, no CAP_SYS_ADMIN, a
// container without mount rights) `SMALL_DISK.reason` says why and the tests skip, naming it.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, writeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Mounts a tmpfs of `size` on `dir` (made if missing). Throws what mount says. */
export function mountSmallDisk(dir: string, size = '64k'): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
}

/** Unmounts it (lazily, so a process still holding a file there does not stop the test's cleanup). */
export function unmountSmallDisk(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  } catch {
    // Not mounted: nothing to undo.
  }
}

function probe(): { ok: boolean; reason: string } {
  if (process.platform !== 'linux') return { ok: false, reason: 'tmpfs mounts are a Linux test' };
  if (process.getuid?.() !== 0) return { ok: false, reason: 'mounting a small tmpfs needs root' };
  const dir = mkdtempSync(path.join(tmpdir(), 'aish-disk-probe-'));
  try {
    mountSmallDisk(dir);
    unmountSmallDisk(dir);
    return { ok: true, reason: '' };
  } catch (err) {
    return { ok: false, reason: `cannot mount a tmpfs here: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether this machine lets the tests mount a small tmpfs, and why not. */
export const SMALL_DISK = probe();

/**
 * Fills the disk `dir` is on: whole pages into `<dir>/filler` until the disk says ENOSPC. Pages
 * already given to other files keep their free bytes, as on a real disk: a write that needs no
 * more than those succeeds, a longer one stops part way.
 */
export function fillDisk(dir: string): void {
  const fd = openSync(path.join(dir, 'filler'), 'a');
  const page = Buffer.alloc(4096, 0x78);
  try {
    for (;;) writeSync(fd, page);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

/** Frees the disk `fillDisk` filled. */
export function freeDisk(dir: string): void {
  rmSync(path.join(dir, 'filler'), { force: true });
}
