// Whether processes a test started are still there, read from the kernel (/proc, kill 0): what
// "nothing left running" means for aish's children and the ones they started in turn.

import { readdirSync, readFileSync } from 'node:fs';
import { until } from './until.js';

/** True once `pid` has ended (a zombie has ended too: it only waits to be collected). */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
  } catch {
    return true;
  }
}

/** The NUL-separated command line of `pid`, '' when it cannot be read. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Resolves once every pid has ended; rejects, naming the survivors, after a generous wait. */
export function gone(...pids: number[]): Promise<void> {
  return until(() => pids.every(isGone), () => `still running: ${pids.filter((pid) => !isGone(pid)).join(', ')}`);
}

/** The processes whose command line holds `marker`. */
function holdersOf(marker: string): number[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .map(Number)
    .filter((pid) => commandLine(pid).includes(marker));
}

/** Resolves once a process's command line holds `marker`; rejects after a generous wait. */
export function processWith(marker: string): Promise<void> {
  return until(() => holdersOf(marker).length > 0, () => `no process with ${marker}`);
}

/** True when `pid` is stopped (Ctrl-Z, SIGSTOP) or cannot be read. */
function isStopped(pid: number): boolean {
  try {
    return /^[Tt]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? 'T');
  } catch {
    return true;
  }
}

/**
 * Resolves once a process whose command line holds `marker` runs (is there and not stopped): a
 * job started or brought back by `fg`, so that a key typed now reaches it and not its shell.
 */
export function runningWith(marker: string): Promise<void> {
  return until(() => holdersOf(marker).some((pid) => !isStopped(pid)), () => `no running process with ${marker}`);
}

/** Resolves once no process's command line holds `marker` (any it started gone too); rejects after a generous wait. */
export function noProcessWith(marker: string): Promise<void> {
  return until(() => holdersOf(marker).length === 0, () => `still running: ${holdersOf(marker).join(', ')}`);
}
