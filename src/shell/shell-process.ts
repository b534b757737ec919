// The session shell's process (docs/shell.md "What starts, and when"): bash or zsh behind a
// pseudo-terminal, started with the person's rc file and aish's integration after it. One whose rc
// file exits or hangs past the start limit is started again without rc files; one that cannot
// start even so is given up on (`failure`). Its bytes and its end go to the session, which alone
// says when it is ready (its first prompt) and when it must be started again.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchShell, type SessionShell } from './launch.js';

/** The shells aish has integration scripts for. */
export type { SessionShell } from './launch.js';

/** The pseudo-terminal the session drives: what it uses of @lydell/node-pty's IPty. */
export interface Pty {
  readonly pid: number;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
  onData(listener: (data: string) => void): { dispose(): void };
  onExit(listener: (e: { exitCode: number; signal?: number }) => void): { dispose(): void };
}

export type SpawnPty = (file: string, args: string[], opts: { cols: number; rows: number; cwd: string; env: Record<string, string>; name: string }) => Pty;

/** What a session's shell is started with. */
export interface ShellStartOptions {
  program: string;
  kind: SessionShell;
  cwd: string;
  env: Record<string, string | undefined>;
  /** The terminal's size, for the shell's pseudo-terminal. */
  size: () => { cols: number; rows: number };
  /** How long the rc files may take before the shell is started without them. */
  startTimeoutMs: number;
  /** Where the per-session rc file with the secret is written (and removed once read): the first
   * of these that takes a private folder (TMPDIR may name one that is gone: /tmp, then aish's
   * state dir, come after it). */
  tmpDir: string | readonly string[];
  /** Status lines: the shell ended and was replaced, an rc file failed. */
  status: (message: string) => void;
  /** The pty package, loaded when the first shell starts (a test may give another). */
  spawnPty?: SpawnPty;
}

export interface ShellProcessOptions extends Omit<ShellStartOptions, 'cwd'> {
  /** The session's secret, for the per-session rc file. */
  secret: string;
  /** Where a new shell starts, and the exported environment it gets when one is known. */
  cwd: () => string;
  exported: () => Record<string, string> | null;
  /** A new shell was spawned; what it prints; its end (`pid` is the shell's). */
  onSpawn: () => void;
  onData: (data: string) => void;
  onExit: (e: { exitCode: number; signal?: number }, pid: number) => void;
}

/** rc files that take longer than this to read are named in a status line, once. */
const SLOW_RC_MS = 2000;

export class ShellProcess {
  readonly #opts: ShellProcessOptions;
  #pty: Pty | null = null;
  /** Resolves when the shell is ready for a line (true), or when none could start (false). */
  #ready: Promise<boolean> | null = null;
  #markReady: ((ok: boolean) => void) | null = null;
  /** The rc files are read (false once they failed: exit or hang). */
  #withRc = true;
  #startTimer: NodeJS.Timeout | null = null;
  #rcDir: string | null = null;
  #closed = false;
  /** Why a start failed for good: the session cannot run lines. */
  #failure: string | null = null;
  /** The shell: the one configured, until a line replaced it (`exec zsh`, see `replace`). */
  #program: string;
  #kind: SessionShell;
  /** When the shell now starting was spawned, and whether a slow start was told already. */
  #spawnedAt = 0;
  #slowTold = false;

  constructor(opts: ShellProcessOptions) {
    this.#opts = opts;
    this.#program = opts.program;
    this.#kind = opts.kind;
  }

  /** The shell program now running (or starting). */
  get program(): string {
    return this.#program;
  }

  get kind(): SessionShell {
    return this.#kind;
  }

  get pty(): Pty | null {
    return this.#pty;
  }

  get failure(): string | null {
    return this.#failure;
  }

  /** `start` was called, and neither did it fail for good nor was the process closed. */
  get started(): boolean {
    return this.#ready !== null && this.#failure === null && !this.#closed;
  }

  get name(): string {
    return path.basename(this.#program);
  }

  /** Starts the shell unless it is up or starting; resolves when it can take a line, false if it never can. */
  start(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    if (this.#ready && this.#failure === null) return this.#ready;
    this.#failure = null;
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    void this.#spawn();
    return this.#ready;
  }

  /** The shell showed its first prompt; `startOutput` is what its rc files printed before it. */
  ready(startOutput: string): void {
    this.#clearStart();
    this.#failure = null;
    const said = rcErrors(startOutput);
    if (said) this.#opts.status(`${this.name} reported while reading your rc file:\n${said}`);
    // A slow rc file makes the first shell line wait: said once, with how long, so the wait has a
    // reason (a shell started again later says nothing more).
    const took = Date.now() - this.#spawnedAt;
    if (this.#withRc && took > SLOW_RC_MS && !this.#slowTold) {
      this.#slowTold = true;
      this.#opts.status(`${this.name} took ${(took / 1000).toFixed(1)} s to read your rc file`);
    }
    this.#markReady?.(true);
    this.#markReady = null;
  }

  /** The shell ended before its first prompt: started again without rc files, once. */
  startFailed(reason: string): void {
    if (this.#withRc) {
      this.#withRc = false;
      this.#opts.status(`${this.name} ended while reading your rc file (${reason}); started it without rc files`);
      void this.#spawn();
    } else this.#giveUp(`${this.name} ended as it started (${reason})`);
  }

  /** The shell ended after its start: another takes its place. */
  restart(): void {
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    void this.#spawn();
  }

  /**
   * Starts `program` (a `kind` shell) with its rc files in place of the one running, which is
   * returned to be hung up (its end is not reported): what `exec zsh` typed into the shell would
   * have done, with aish's integration in the new one. Resolves as `start` does.
   */
  replace(program: string, kind: SessionShell): { old: Pty | null; ready: Promise<boolean> } {
    const old = this.#pty;
    this.#pty = null;
    this.#clearStart();
    this.#program = program;
    this.#kind = kind;
    this.#withRc = true;
    this.#failure = null;
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    void this.#spawn();
    return { old, ready: this.#ready };
  }

  /** No shell starts any more; the one running, if any, is returned to be hung up. */
  close(): Pty | null {
    this.#closed = true;
    this.#clearStart();
    return this.#pty;
  }

  /** Kills `pty`; its end is not reported. */
  stop(pty: Pty): void {
    if (this.#pty === pty) this.#pty = null;
    try {
      pty.kill('SIGKILL');
    } catch {
      // already gone
    }
  }

  async #spawn(): Promise<void> {
    let spawnPty = this.#opts.spawnPty;
    try {
      spawnPty ??= await loadPty();
      const { file, args, env } = this.#launch();
      const { cols, rows } = this.#opts.size();
      this.#opts.onSpawn();
      const pty = spawnPty(file, args, { cols, rows, cwd: this.#opts.cwd(), env, name: env.TERM || 'xterm-256color' });
      this.#pty = pty;
      this.#spawnedAt = Date.now();
      pty.onData((data) => {
        if (pty === this.#pty) this.#opts.onData(data);
      });
      pty.onExit((e) => {
        if (pty !== this.#pty) return;
        this.#pty = null;
        this.#clearStart();
        this.#opts.onExit(e, pty.pid);
      });
      this.#startTimer = setTimeout(() => this.#startTimedOut(pty), this.#opts.startTimeoutMs);
      this.#startTimer.unref();
    } catch (err) {
      this.#removeRcDir();
      this.#giveUp(`cannot start ${this.#program}: ${(err as Error).message ?? String(err)}`);
    }
  }

  /** The command line and environment of a new shell, and its rc file with the secret. */
  #launch(): { file: string; args: string[]; env: Record<string, string> } {
    // A shell started again in place of one that did not start leaves no folder of its own behind.
    this.#removeRcDir();
    const dir = privateDir(typeof this.#opts.tmpDir === 'string' ? [this.#opts.tmpDir] : this.#opts.tmpDir);
    this.#rcDir = dir;
    const integration = integrationDir();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.#opts.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, this.#opts.exported() ?? {});
    env.TERM ||= 'xterm-256color';
    return launchShell({ kind: this.#kind, program: this.#program, secret: this.#opts.secret, withRc: this.#withRc, dir, integration, env });
  }

  #startTimedOut(pty: Pty): void {
    if (pty !== this.#pty || this.#startTimer === null) return;
    this.#startTimer = null;
    const seconds = Math.round(this.#opts.startTimeoutMs / 100) / 10;
    this.stop(pty);
    if (this.#withRc) {
      this.#withRc = false;
      this.#opts.status(`${this.name} did not finish reading your rc file within ${seconds} s; started it without rc files`);
      void this.#spawn();
    } else this.#giveUp(`${this.name} did not start within ${seconds} s`);
  }

  /** The shell's terminal takes the new size (at least 2×2); a shell that is gone starts at it. */
  resize(cols: number, rows: number): void {
    try {
      this.#pty?.resize(Math.max(2, cols), Math.max(2, rows));
    } catch {
      // The shell is gone: the next one starts at the new size.
    }
  }

  /** The start is over (a prompt, an end, a close): no timer, and the rc folder with the secret goes. */
  #clearStart(): void {
    if (this.#startTimer) clearTimeout(this.#startTimer);
    this.#startTimer = null;
    this.#removeRcDir();
  }

  #removeRcDir(): void {
    if (this.#rcDir) rmSync(this.#rcDir, { recursive: true, force: true });
    this.#rcDir = null;
  }

  #giveUp(reason: string): void {
    this.#failure = reason;
    this.#markReady?.(false);
    this.#markReady = null;
  }
}

/** A new private folder (0700) in the first of `bases` that takes one; a base that is missing is
 * made when it is aish's own (the last). */
function privateDir(bases: readonly string[]): string {
  let failure: unknown;
  for (const [i, base] of bases.entries()) {
    try {
      if (i === bases.length - 1 && i > 0) mkdirSync(base, { recursive: true, mode: 0o700 });
      return mkdtempSync(path.join(base, 'aish-shell-'));
    } catch (err) {
      failure ??= err;
    }
  }
  throw failure ?? new Error("no folder for the shell's rc file");
}

/** Lines the rc files printed that read as errors from the shell, for one status line. */
function rcErrors(output: string): string {
  const lines = output
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((l) => l.replace(/\r/g, '').trimEnd())
    .filter((l) => /^(bash|zsh|fish|\/\S+): |^[~/]\S* \(line \d+\): |syntax error|parse error|command not found|Unknown command|No such file/.test(l));
  return lines.slice(0, 10).join('\n');
}

/** The integration scripts: beside this module in src/, copied beside the bundle in dist/. */
function integrationDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'shell' ? path.join(here, 'integration') : path.join(here, 'shell-integration');
}

async function loadPty(): Promise<SpawnPty> {
  const mod = (await import('@lydell/node-pty')) as typeof import('@lydell/node-pty') & { default?: typeof import('@lydell/node-pty') };
  const spawn = mod.spawn ?? mod.default!.spawn;
  return (file, args, opts) => spawn(file, args, opts) as unknown as Pty;
}
