// Runs a benchmark's child process and measures what the child alone used: wall time from spawn to
// exit, CPU (user + system, from bash's `time`, i.e. getrusage of the waited-for child, all its
// threads) and peak RSS (GNU time's %M). The bench process's own work (the loopback server, the
// reader of the output) is not counted. Needs bash and GNU time (/usr/bin/time).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn as spawnPty } from '@lydell/node-pty';

export interface ChildRun {
  wallMs: number;
  cpuMs: number;
  peakRssKb: number;
  /** Everything the child wrote to stdout and stderr (on a pty, to the terminal). */
  output: string;
}

export interface ChildOptions {
  cwd: string;
  env: Record<string, string>;
  /** A pseudo-terminal for stdin, stdout and stderr instead of pipes. */
  pty?: boolean;
  /** What a piped stdin gives before it ends; nothing by default. On a pty: the line typed at the
   * program's first prompt, followed by Ctrl-D at the prompt after it (an interactive session). */
  input?: string;
  /** On a pty with `input`: what a prompt looks like at the end of the output so far. */
  prompt?: RegExp;
  timeoutMs?: number;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'aish-bench-rusage-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
let runs = 0;

// bash reports the child's CPU to a file (fd 2 is redirected around `time` only), GNU time its peak
// RSS to another; the command's own stderr stays where it was (fd 3).
const WRAPPER = 'TIMEFORMAT="%3U %3S"; { time /usr/bin/time -f %M -o "$0.rss" "$@" 2>&3 ; } 3>&2 2>"$0.cpu"';

/** Runs `command args` to its end with an empty stdin (or `input`); rejects if it does not end in time. */
export function measureChild(command: string, args: string[], opts: ChildOptions): Promise<ChildRun> {
  const base = path.join(scratch, String(runs++));
  const argv = ['-c', WRAPPER, base, command, ...args];
  const t0 = process.hrtime.bigint();
  const done = (output: string): ChildRun => {
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const [user, system] = readFileSync(`${base}.cpu`, 'utf8').trim().split(/\s+/).map(Number);
    const peakRssKb = Number(readFileSync(`${base}.rss`, 'utf8').trim().split('\n').pop());
    return { wallMs, cpuMs: ((user ?? NaN) + (system ?? NaN)) * 1000, peakRssKb, output };
  };
  return new Promise((resolve, reject) => {
    let output = '';
    let kill = () => {};
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`${command} ${args.join(' ')} did not end within ${opts.timeoutMs ?? 30_000} ms; output: ${output.slice(-500)}`));
    }, opts.timeoutMs ?? 30_000);
    if (opts.pty) {
      const term = spawnPty('bash', argv, { cwd: opts.cwd, env: opts.env, cols: 100, rows: 30 });
      kill = () => term.kill('SIGKILL');
      // An interactive session: the line typed at the first prompt, Ctrl-D at the next one.
      let prompts = 0;
      term.onData((d) => {
        output += d;
        if (opts.input === undefined || !opts.prompt || prompts >= 2) return;
        // eslint-disable-next-line no-control-regex
        if (!opts.prompt.test(output.slice(-300).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''))) return;
        prompts += 1;
        term.write(prompts === 1 ? opts.input.replace(/\n$/, '\r') : '\x04');
      });
      term.onExit(() => {
        clearTimeout(timer);
        resolve(done(output));
      });
    } else {
      const child = spawn('bash', argv, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
      kill = () => child.kill('SIGKILL');
      child.stdin.end(opts.input ?? '');
      child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
      child.on('close', () => {
        clearTimeout(timer);
        resolve(done(output));
      });
    }
  });
}
