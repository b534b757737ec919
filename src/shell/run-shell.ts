// Runs one command line through the user's shell (`$SHELL -c`), streaming its output live while
// capturing it for the model. Never rejects: failures to start become exit code 127 with a reason.
//
// Two modes. Captured (default): stdout and stderr share one pipe (`exec 2>&1` for POSIX shells)
// so their order is kept. Interactive (vim, less, ssh...): the child gets aish's terminal and
// nothing is captured. Cancellation: in `detached` mode the child leads its own process group and
// an abort sends SIGINT to the group, then SIGTERM, then SIGKILL; otherwise the child shares aish's
// group and the terminal delivers Ctrl-C to it directly (password prompts keep their terminal).
// Termination (aish itself is ending) stops the child in either mode: SIGHUP, SIGTERM, SIGKILL.

import { spawn, type StdioOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { OutputCapture } from './capture.js';

export interface ExecResult {
  /** Exit code; 128+N when killed by signal N; 127 when the shell could not start. */
  exitCode: number;
  signal: NodeJS.Signals | null;
  /** Captured, normalised output ('' for interactive runs). */
  output: string;
  truncated: boolean;
  binary: boolean;
  /** Why the command could not start, when it could not. */
  error?: string;
}

export interface RunShellOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** The shell binary; run as `<program> -c <command>`. */
  program: string;
  /**
   * A program and its arguments put before `<program> -c <command>` (a sandbox such as bwrap).
   * Its own stderr is captured too, so a wrapper that fails says why.
   */
  wrap?: readonly string[];
  /** Give the child the terminal and capture nothing. */
  interactive?: boolean;
  /** stdin for captured runs: the terminal ('inherit') or nothing ('ignore'). */
  stdin?: 'inherit' | 'ignore';
  /** Own process group; an abort signals the whole group. Otherwise an abort only prevents a
   * start that has not happened yet (the terminal delivers Ctrl-C to a child in aish's group);
   * `terminate` still stops a running child. */
  detached?: boolean;
  captureMaxChars: number;
  /** Live output, as decoded text, in arrival order. */
  onOutput?: (text: string) => void;
  signal?: AbortSignal;
  /** Delays of the abort escalation (SIGINT → SIGTERM → SIGKILL), in ms. */
  killDelays?: [number, number];
  /**
   * Aborted when aish itself is ending (hangup, SIGTERM): the child is stopped whatever the mode,
   * and a command not started yet never starts. The child's process group gets SIGHUP, then
   * SIGTERM, then SIGKILL, `TERMINATE_DELAYS` apart. Without `detached` that group is the
   * caller's own: SIGHUP and SIGTERM reach the caller too, which must handle both (main.ts
   * does), and SIGKILL goes to the child alone.
   */
  terminate?: AbortSignal;
}

/** Delays of the termination escalation (SIGHUP → SIGTERM → SIGKILL), in ms: within aish's
 * one second to exit once its terminal has gone. */
const TERMINATE_DELAYS = [250, 250] as const;

const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'busybox', 'yash']);

/** Runs `command`; resolves when the child has exited and its output is drained. Never rejects. */
export async function runShell(command: string, opts: RunShellOptions): Promise<ExecResult> {
  // A Ctrl-C typed just before the start reaches aish, not the child-to-be: let a pending signal
  // handler run first so that abort is seen below instead of being lost.
  await new Promise((resolve) => setImmediate(resolve));
  return spawnShell(command, opts);
}

function spawnShell(command: string, opts: RunShellOptions): Promise<ExecResult> {
  const interactive = opts.interactive ?? false;
  const mergeStderr = !interactive && POSIX_SHELLS.has(path.basename(opts.program));
  const script = mergeStderr ? `exec 2>&1; ${command}` : command;
  const stdio: StdioOptions = interactive
    ? 'inherit'
    : [opts.stdin ?? 'ignore', 'pipe', mergeStderr && !opts.wrap ? 'ignore' : 'pipe'];
  const [file, ...args] = opts.wrap?.length ? [...opts.wrap, opts.program, '-c', script] : [opts.program, '-c', script];

  return new Promise<ExecResult>((resolve) => {
    if (opts.terminate?.aborted) {
      resolve(notStarted('SIGHUP'));
      return;
    }
    if (opts.signal?.aborted) {
      resolve(notStarted('SIGINT'));
      return;
    }
    const capture = new OutputCapture(opts.captureMaxChars);
    const decoder = new StringDecoder('utf8');
    const timers: NodeJS.Timeout[] = [];
    let settled = false;

    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file!, args, {
        cwd: opts.cwd,
        env: opts.env as NodeJS.ProcessEnv,
        stdio,
        detached: opts.detached ?? false,
      });
    } catch (err) {
      resolve(startFailure(opts, err));
      return;
    }

    const onData = (buf: Buffer) => {
      const text = decoder.write(buf);
      if (text.length === 0) return;
      capture.push(text);
      opts.onOutput?.(text);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);

    /** Signals the child's process group: its own when detached; else the caller's (`wholeGroup`)
     * or the child alone. */
    const sendSignal = (sig: NodeJS.Signals, wholeGroup: boolean) => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        if (opts.detached) process.kill(-child.pid, sig);
        else if (wholeGroup) process.kill(0, sig);
        else child.kill(sig);
      } catch {
        // Already gone: nothing to stop.
      }
    };
    /** `first` now, then SIGTERM and SIGKILL after `delays`. */
    const escalate = (first: NodeJS.Signals, [term, kill]: readonly [number, number]) => {
      sendSignal(first, true);
      timers.push(setTimeout(() => sendSignal('SIGTERM', true), term).unref());
      // SIGKILL cannot spare the caller: in a shared group it goes to the child alone.
      timers.push(setTimeout(() => sendSignal('SIGKILL', false), term + kill).unref());
    };
    const onAbort = () => {
      // Sharing aish's process group, the child got Ctrl-C from the terminal already; what it
      // does with it is its own business, as in any shell.
      if (opts.detached) escalate('SIGINT', opts.killDelays ?? [1000, 3000]);
    };
    const onTerminate = () => escalate('SIGHUP', TERMINATE_DELAYS);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    opts.terminate?.addEventListener('abort', onTerminate, { once: true });

    const finish = (result: ExecResult) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      opts.signal?.removeEventListener('abort', onAbort);
      opts.terminate?.removeEventListener('abort', onTerminate);
      resolve(result);
    };

    child.on('error', (err) => finish(startFailure(opts, err)));
    // 'close' fires after the pipes are drained, so no output is lost.
    child.on('close', (code, signal) => {
      const rest = decoder.end();
      if (rest) {
        capture.push(rest);
        opts.onOutput?.(rest);
      }
      const captured = capture.finish();
      finish({
        exitCode: code ?? (signal ? signalExit(signal) : 1),
        signal,
        output: interactive ? '' : captured.text,
        truncated: captured.truncated,
        binary: captured.binary,
      });
    });
  });
}

/** A command stopped before it started, as if `signal` had ended it. */
function notStarted(signal: NodeJS.Signals): ExecResult {
  return { exitCode: signalExit(signal), signal, output: '', truncated: false, binary: false };
}

/** 128+N, as shells report a process ended by signal N. */
function signalExit(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

function startFailure(opts: RunShellOptions, err: unknown): ExecResult {
  const code = (err as NodeJS.ErrnoException).code;
  const program = opts.wrap?.[0] ?? opts.program;
  let reason = `cannot start ${program}: ${String((err as Error).message ?? err)}`;
  // spawn says ENOENT both for a missing shell and for a missing working directory.
  if (code === 'ENOENT') reason = existsSync(opts.cwd) ? `${opts.wrap ? 'program' : 'shell'} not found: ${program}` : `working directory no longer exists: ${opts.cwd}`;
  return { exitCode: 127, signal: null, output: '', truncated: false, binary: false, error: reason };
}
