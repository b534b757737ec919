// The jobs of the session's shell and their hang-up at the end (docs/shell.md "Jobs"): a terminal
// that closes sends SIGHUP to its shell and to every job of it, and SIGCONT to a stopped one. An
// interactive shell at its prompt passes no hangup on by itself, so aish asks it for its jobs
// (`jobs -p`) and hangs them up too. A disowned job is not in the list and is left alone.

import { readFileSync } from 'node:fs';
import { delay } from './life-timers.js';
import type { Pty } from './shell-process.js';

/** The shell's jobs as last asked, and the question in flight, if any. */
export class ShellJobs {
  #known = '';
  #asking: Promise<void> | null = null;

  /** Keeps the answer of a `jobs` question when it comes (null: none in time, the last stays). */
  track(answer: Promise<string | null>): void {
    const asking = answer.then((jobs) => {
      if (jobs !== null) this.#known = jobs;
    });
    this.#asking = asking;
    void asking.finally(() => {
      if (this.#asking === asking) this.#asking = null;
    });
  }

  /** Resolves once a question in flight is answered, `waitMs` at most; null when none is. */
  settled(waitMs: number): Promise<void> | null {
    return this.#asking && Promise.race([this.#asking, delay(waitMs)]);
  }

  /** The jobs as last asked that are still groups of the shell's session (a pid that ended may
   * be another process's now). */
  known(shellPid: number): number[] {
    return pidsIn(this.#known).filter((pid) => sessionOf(pid) === shellPid);
  }
}

/**
 * Ends the shell as a terminal's hangup would: SIGHUP to it and to `groups`. Resolves once the
 * shell has exited, or after `waitMs` (`kill` then).
 */
export async function hangUpShell(pty: Pick<Pty, 'pid' | 'onExit'>, groups: readonly number[], waitMs: number, kill: () => void): Promise<void> {
  const exited = new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      kill();
      resolve();
    }, waitMs);
    timer.unref();
    pty.onExit(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  signalProcess(pty.pid, 'SIGHUP');
  hangUp(groups);
  await exited;
  // A job of zsh's was seen to miss the first hangup while its shell exited: once more after it.
  hangUp(groups);
}

/** SIGHUP to each job's process group, and SIGCONT to a stopped one, as a terminal's hangup. */
export function hangUp(groups: readonly number[]): void {
  for (const group of groups) {
    signalProcess(-group, 'SIGHUP');
    signalProcess(-group, 'SIGCONT');
  }
}

export function pidsIn(text: string): number[] {
  return (text.match(/\d+/g) ?? []).map(Number);
}

/** Whether the shell `pid` holds its terminal (runs no job in the foreground); true where unknown. */
export function holdsTerminal(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  const stat = procStat(pid);
  return stat === null || stat.tpgid === pid;
}

/** The session id of a process (Linux /proc), or null. */
function sessionOf(pid: number): number | null {
  return procStat(pid)?.session ?? null;
}

/** A process's session and its terminal's foreground process group (Linux /proc), or null. */
function procStat(pid: number): { session: number; tpgid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { session: Number(fields[3]), tpgid: Number(fields[5]) };
  } catch {
    return null;
  }
}

/** Sends `sig` to a process (or, negative, a process group) that may be gone already. */
function signalProcess(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}
