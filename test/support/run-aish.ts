// Runs the built aish with piped stdin (non-TTY mode) and collects what it printed.

import { spawn } from 'node:child_process';
import { AISH_BIN } from './aish-env.js';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  args?: string[];
  stdin?: string;
  env: Record<string, string>;
  cwd: string;
  timeoutMs?: number;
  /** Another start-up file than the repository's dist/aish.js (a copy of dist/, say). */
  bin?: string;
  /** Flags for node itself, before the start-up file. */
  nodeFlags?: string[];
}

/** Runs aish to completion. Rejects only if it does not exit within the timeout. */
export async function runAish(opts: RunOptions): Promise<RunResult> {
  const run = startAish(opts);
  run.child.stdin.end(opts.stdin ?? '');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      run.child.kill('SIGKILL');
      reject(new Error(`aish did not exit within ${opts.timeoutMs ?? 15000} ms\nstdout: ${run.stdout}\nstderr: ${run.stderr}`));
    }, opts.timeoutMs ?? 15000);
  });
  try {
    return await Promise.race([run.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts aish with piped stdin kept open, for tests that interact over time. */
export function startAish(opts: Omit<RunOptions, 'stdin'>) {
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), opts.bin ?? AISH_BIN, ...(opts.args ?? [])], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  child.stdout.setEncoding('utf8').on('data', (d: string) => ((stdout += d), notify()));
  child.stderr.setEncoding('utf8').on('data', (d: string) => ((stderr += d), notify()));
  const exited = new Promise<RunResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    write(text: string) {
      child.stdin.write(text);
    },
    end() {
      child.stdin.end();
    },
    exited,
    /** Resolves when stdout+stderr match `pattern`; rejects after `timeoutMs`. */
    waitFor(pattern: RegExp | string, timeoutMs = 10000): Promise<void> {
      const test = () => (typeof pattern === 'string' ? (stdout + stderr).includes(pattern) : pattern.test(stdout + stderr));
      return new Promise((resolve, reject) => {
        if (test()) return resolve();
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, timeoutMs);
        const check = () => {
          if (!test()) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
      });
    },
  };
}
