// The session's shell (SPEC §4, docs/shell.md): one interactive bash or zsh behind a
// pseudo-terminal, started with the person's rc file and aish's integration after it, kept for the
// whole aish session so aliases, functions, variables, the directory stack and jobs live on from
// line to line. Commands are typed into it as a bracketed paste; the integration's markers
// (markers.ts, with a per-session secret) say where a command's output starts and ends, its exit
// status and the shell's directory. Everything the shell prints outside a command (its prompt,
// the echo of the typed line) is dropped. A shell that dies is replaced with a status line; one
// whose rc file exits or hangs is started again without rc files.
//
// Operations (a command, a query) run one at a time, in order. `run` never rejects.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MarkerParser, decodeField, type ShellEvent } from './markers.js';

/** The shells aish has integration scripts for. */
export type SessionShell = 'bash' | 'zsh';

/** Which integration a shell program gets, from its name; null when it has none. */
export function sessionShellOf(program: string): SessionShell | null {
  const name = path.basename(program);
  if (name === 'bash' || name.startsWith('bash-')) return 'bash';
  if (name === 'zsh' || name.startsWith('zsh-')) return 'zsh';
  return null;
}

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

export interface ShellSessionOptions {
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

/** How a command ended in the session. */
export interface SessionRun {
  /** The shell's `$?`; 128+N for a signal; the shell's own code when it died. */
  exitCode: number;
  /** The signal name when the status says one ended the command. */
  signal: NodeJS.Signals | null;
  /** Set when the shell itself ended during the command (`exit`, killed, `exec` ended); unless
   * `byExit`, a new shell is starting. */
  shellEnded?: { reason: string; byExit: boolean };
  /** Whole lines typed while the command ran that it did not read: aish runs them next. */
  typedAhead: string[];
  /** The command never started: the shell wanted more input (an unclosed quote or block). */
  incomplete?: boolean;
  /** The command could not be given to a shell (none could start). */
  error?: string;
  /** The line moved the shell's own input, output or error (`exec >file`): where each had gone
   * (a path, or null: closed). The integration has put them back on the terminal. */
  moved?: MovedStream[];
}

export interface MovedStream {
  stream: 'input' | 'output' | 'error';
  to: string | null;
}

export interface RunOptions {
  /** The command's output as the terminal gets it (colours, cursor moves), markers removed. */
  onOutput: (raw: string) => void;
  /**
   * Aborting sends Ctrl-C to the command (the shell's foreground job): once, or with `inputEnds`
   * (nobody to press it again) every half second until the line ends.
   */
  signal?: AbortSignal;
  /** No one types (a pipe): the command reads from /dev/null (typed as `{ command\n} </dev/null`). */
  inputEnds?: boolean;
}

type Phase = 'starting' | 'idle' | 'running' | 'querying' | 'dead';

/** Bracketed paste around a command, with a key bound to kill-whole-line first (anything left on
 * the shell's line is gone) and Enter after. */
const KILL_LINE = '\x1b[9901~';
const QUERY_KEY = '\x1b[9902~';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** readline and zle turn bracketed paste off as they hand a line over: the echo ends there. */
const PASTE_OFF = '\x1b[?2004l';
/** How long after its start a command gets the keys typed before it started. */
const HELD_KEYS_MS = 50;
/** How long a Ctrl-C waits for the command to start before it is typed anyway. */
const INTERRUPT_WAIT_MS = 1000;
/** How often a command whose typing the shell read as typed-ahead lines is typed again. */
const SWALLOWED_RETYPES = 3;
/** Control characters a command may not hold (tab and newline are fine). */
// eslint-disable-next-line no-control-regex
const CONTROL_IN_COMMAND = /[\x00-\x08\x0b-\x1f\x7f]/;
/** What is kept of the shell's output between a command being sent and its start. */
const MAX_BEFORE = 64 * 1024;
/** rc files that take longer than this to read are named in a status line, once. */
const SLOW_RC_MS = 2000;

interface Current {
  started: boolean;
  /** Keys typed before the command started: held, then passed on at its start (typed while the
   * shell's line editor reads the command, they would join its line instead). */
  keys: string;
  /** The shell showed its continuation prompt before the command started. */
  incomplete: boolean;
  /** A Ctrl-C waits for the command's start (see `#interrupt`). */
  interrupting: boolean;
  /** What aish types for the command (between the bracketed-paste marks). */
  line: string;
  /** Times the shell read aish's typing as lines typed ahead instead of running it (see `#done`). */
  swallowed: number;
  /** The command is typed again at the next prompt. */
  retype: boolean;
  /** aish typed Ctrl-C for the command once it had started (or had waited for its start). */
  ctrlC: boolean;
  /** The end was asked for: the prompt came back without it (see the R marker). */
  endAsked: boolean;
  /** Output since the end was asked for: the question's echo if the shell gives that end late,
   * the command's own if the prompt marker was one it printed and its true end comes. */
  held: string;
  before: string;
  opts: RunOptions;
  resolve: (run: SessionRun) => void;
  command: string;
}

interface Query {
  id: string;
  resolve: (payload: string | null) => void;
}

export class ShellSession {
  readonly #opts: ShellSessionOptions;
  /** The shell: the one configured, until a line replaced it (`exec zsh`, see `replace`). */
  #program: string;
  #kind: SessionShell;
  readonly #secret = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(16))).toString('hex');
  #pty: Pty | null = null;
  #parser = new MarkerParser(this.#secret);
  #phase: Phase = 'dead';
  #cwd: string;
  #env: Record<string, string> | null = null;
  /** Resolves when the shell is ready for a line (true), or when none could start (false). */
  #ready: Promise<boolean> | null = null;
  #markReady: ((ok: boolean) => void) | null = null;
  #current: Current | null = null;
  #query: Query | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #queryCount = 0;
  /** The rc files are read (false once they failed: exit or hang). */
  #withRc = true;
  /** Output before the first prompt: what the rc files said. */
  #startOutput = '';
  #startTimer: NodeJS.Timeout | null = null;
  /** When the shell now starting was spawned, and whether a slow start was told already. */
  #spawnedAt = 0;
  #slowTold = false;
  #rcDir: string | null = null;
  #closed = false;
  /** Why a start failed for good: the session cannot run lines. */
  #failure: string | null = null;
  #onCwd: ((cwd: string) => void) | null = null;
  /** The shell's jobs (`jobs -p`) as last asked: hung up at the end if it cannot be asked then. */
  #jobs = '';
  /** The jobs being asked after a line (see #finish), until the answer is in. */
  #jobsAsked: Promise<void> | null = null;
  /** Resolves at the shell's next prompt: after a command's end, the next line waits for it
   * (typed before it, the line would meet the terminal's cooked mode and its echo). */
  #prompt: Promise<void> = Promise.resolve();
  #atPrompt: (() => void) | null = null;
  /** What the shell printed outside any command and query since last handed over (`aside`). */
  #aside = '';

  constructor(opts: ShellSessionOptions) {
    this.#opts = opts;
    this.#program = opts.program;
    this.#kind = opts.kind;
    this.#cwd = opts.cwd;
  }

  /** The shell program now running (or starting). */
  get program(): string {
    return this.#program;
  }

  /** Which shell this is (its history file's format). */
  get kind(): SessionShell {
    return this.#kind;
  }

  /** The shell's current directory, as of the end of the last command. */
  get cwd(): string {
    return this.#cwd;
  }

  /** `start` was called (the shell is starting or up) and it has not died since. */
  get started(): boolean {
    return this.#ready !== null && this.#phase !== 'dead' && !this.#closed;
  }

  /** The shell is up and has read its rc files (a question to it is answered at once). */
  get alive(): boolean {
    return this.#phase === 'idle' || this.#phase === 'running' || this.#phase === 'querying';
  }

  /** Why no shell can run lines (the caller falls back to one process per line); null when fine. */
  get failure(): string | null {
    return this.#failure;
  }

  /** Called with the new directory whenever a command changed it. */
  onCwdChange(listener: (cwd: string) => void): void {
    this.#onCwd = listener;
  }

  /** Starts the shell (behind the prompt); resolves when it can take a line, false if it never can. */
  start(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    if (this.#ready && this.#phase !== 'dead') return this.#ready;
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    void this.#spawn();
    return this.#ready;
  }

  async #spawn(): Promise<void> {
    let spawnPty = this.#opts.spawnPty;
    try {
      spawnPty ??= await loadPty();
      const { file, args, env } = this.#launch();
      const { cols, rows } = this.#opts.size();
      this.#parser = new MarkerParser(this.#secret);
      this.#startOutput = '';
      this.#aside = '';
      this.#atPrompt?.();
      this.#atPrompt = null;
      this.#prompt = Promise.resolve();
      this.#phase = 'starting';
      const pty = spawnPty(file, args, { cols, rows, cwd: this.#cwd, env, name: env.TERM || 'xterm-256color' });
      this.#pty = pty;
      pty.onData((data) => this.#data(pty, data));
      pty.onExit((e) => this.#exit(pty, e));
      this.#spawnedAt = Date.now();
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
    if (this.#env) Object.assign(env, this.#env);
    env.TERM ||= 'xterm-256color';
    const rc = this.#withRc ? 1 : 0;
    if (this.#kind === 'bash') {
      const file = path.join(dir, 'bashrc');
      writeFileSync(file, `__aish_k=${this.#secret}\n__aish_rc=${rc}\n. ${shellQuote(path.join(integration, 'bash.sh'))}\n`, { mode: 0o600 });
      return { file: this.#program, args: ['--rcfile', file, '-i'], env };
    }
    writeFileSync(path.join(dir, '.zshenv'), `__aish_rc=${rc}\nsource ${shellQuote(path.join(integration, 'zsh', '.zshenv'))}\n`, { mode: 0o600 });
    writeFileSync(path.join(dir, '.zshrc'), `__aish_k=${this.#secret}\n__aish_rc=${rc}\nsource ${shellQuote(path.join(integration, 'zsh', '.zshrc'))}\n`, { mode: 0o600 });
    if (env.ZDOTDIR !== undefined) env.__aish_user_zdotdir = env.ZDOTDIR;
    env.ZDOTDIR = dir;
    return { file: this.#program, args: ['-i'], env };
  }

  #removeRcDir(): void {
    if (this.#rcDir) rmSync(this.#rcDir, { recursive: true, force: true });
    this.#rcDir = null;
  }

  #startTimedOut(pty: Pty): void {
    if (pty !== this.#pty || this.#phase !== 'starting') return;
    const seconds = Math.round(this.#opts.startTimeoutMs / 100) / 10;
    if (this.#withRc) {
      this.#withRc = false;
      this.#opts.status(`${this.#name} did not finish reading your rc file within ${seconds} s; started it without rc files`);
      this.#replace(pty);
    } else {
      this.#stop(pty);
      this.#giveUp(`${this.#name} did not start within ${seconds} s`);
    }
  }

  get #name(): string {
    return path.basename(this.#program);
  }

  /** Stops `pty` and starts another in its place. */
  #replace(pty: Pty): void {
    this.#stop(pty);
    this.#phase = 'dead';
    void this.#spawn();
  }

  #stop(pty: Pty): void {
    if (this.#pty === pty) this.#pty = null;
    try {
      pty.kill('SIGKILL');
    } catch {
      // already gone
    }
  }

  #giveUp(reason: string): void {
    this.#failure = reason;
    this.#phase = 'dead';
    this.#markReady?.(false);
    this.#markReady = null;
  }

  #data(pty: Pty, data: string): void {
    if (pty !== this.#pty) return;
    for (const event of this.#parser.push(data)) this.#event(event);
  }

  #event(event: ShellEvent): void {
    if (event.type === 'output') {
      this.#output(event.text);
      return;
    }
    const { kind, fields } = event;
    switch (kind) {
      case 'R':
        if (this.#phase === 'starting') this.#started();
        // The prompt, but the started command's end (D) never came: a Ctrl-C landed after the
        // command ended, while the shell ran its prompt hooks (zsh's take 50 ms reading lines
        // typed ahead, and may hold a slow one of the person's), and zsh dropped the rest of them,
        // aish's end marker with them. The line ends here, interrupted, before the prompt is
        // taken as the next command's. (Without a Ctrl-C, a prompt while the command runs is
        // another shell's that inherited an exported PS1: the command goes on.)
        if (this.#current?.started && this.#current.ctrlC) this.#done(['130']);
        // The prompt is back, without the command's end: the line removed aish's prompt hook
        // (`unset PROMPT_COMMAND`, `precmd_functions=()`).
        else if (this.#current?.started) this.#askEnd(this.#current);
        this.#atPrompt?.();
        this.#atPrompt = null;
        if (this.#current?.retype) {
          this.#current.retype = false;
          this.#current.before = '';
          this.#pty?.write(`${KILL_LINE}${PASTE_START}${this.#current.line}${PASTE_END}\r`);
        }
        return;
      case 'C': {
        const current = this.#current;
        if (!current || current.started) return;
        current.started = true;
        // A Ctrl-C that waited for the start goes a moment after it, as held keys do: at the
        // start itself the shell still holds the terminal and would take it instead.
        if (current.interrupting) {
          current.interrupting = false;
          setTimeout(() => {
            if (this.#current === current && !this.#closed) this.#typeCtrlC(current);
          }, HELD_KEYS_MS).unref();
        }
        // Held keys go to a command still running a moment after its start (one that may read
        // them); a command over by then never sees them, and they come back as typed lines (at
        // its end, below) instead of racing the shell's own prompt.
        if (current.keys) {
          setTimeout(() => {
            if (this.#current !== current || !current.keys) return;
            this.#pty?.write(current.keys);
            current.keys = '';
          }, HELD_KEYS_MS).unref();
        }
        return;
      }
      case 'P': {
        // The shell wants more: the line was incomplete. Ctrl-C drops it, and D follows; once
        // more a second later if a busy machine lost it.
        const current = this.#current;
        if (!current || current.started) return;
        current.incomplete = true;
        const cancel = () => {
          if (this.#current === current && !current.started) this.#pty?.write('\x03');
          else clearInterval(again);
        };
        const again = setInterval(cancel, 1000);
        again.unref();
        cancel();
        return;
      }
      case 'D':
        this.#done(fields);
        return;
      case 'Q':
        if (this.#query && fields[0] === this.#query.id) {
          const query = this.#query;
          this.#query = null;
          this.#phase = 'idle';
          // An answer made of the person's text (their prompt) could hold the secret too.
          query.resolve((fields[1] ?? '').split(this.#secret).join('[aish-secret]'));
        }
        return;
    }
  }

  /** Whether the shell holds its terminal (runs no job in the foreground); true where unknown. */
  #shellInForeground(): boolean {
    const pid = this.#pty?.pid;
    if (pid === undefined) return false;
    const stat = procStat(pid);
    return stat === null || stat.tpgid === pid;
  }

  #output(raw: string): void {
    // The secret never leaves: `set` or `declare -p` would print it, and with it a program could
    // forge markers.
    const text = raw.includes(this.#secret) ? raw.split(this.#secret).join('[aish-secret]') : raw;
    if (this.#phase === 'starting') {
      if (this.#startOutput.length < MAX_BEFORE) this.#startOutput += text;
      return;
    }
    const current = this.#current;
    if (current?.endAsked) {
      if (current.held.length < MAX_BEFORE) current.held += text;
      return;
    }
    if (!current) {
      // Not a query's echo: a job's notice (bash's `Done` as it draws the prompt after a command,
      // zsh's at its prompt), or the line editor drawing its empty prompt.
      if (this.#phase === 'idle') this.#aside = (this.#aside + text).slice(-MAX_BEFORE);
      return;
    }
    if (current.started) current.opts.onOutput(text);
    else if (current.before.length < MAX_BEFORE) current.before += text;
  }

  #started(): void {
    if (this.#startTimer) clearTimeout(this.#startTimer);
    this.#startTimer = null;
    this.#removeRcDir();
    this.#phase = 'idle';
    this.#failure = null;
    const said = rcErrors(this.#startOutput);
    if (said) this.#opts.status(`${this.#name} reported while reading your rc file:\n${said}`);
    // A slow rc file makes the first shell line wait: said once, with how long, so the wait has a
    // reason (a shell started again later says nothing more).
    const took = Date.now() - this.#spawnedAt;
    if (this.#withRc && took > SLOW_RC_MS && !this.#slowTold) {
      this.#slowTold = true;
      this.#opts.status(`${this.#name} took ${(took / 1000).toFixed(1)} s to read your rc file`);
    }
    this.#startOutput = '';
    this.#markReady?.(true);
    this.#markReady = null;
  }

  #done(fields: string[]): void {
    const current = this.#current;
    const [status, cwd, typed, moved, late] = fields;
    if (cwd && cwd !== this.#cwd) {
      this.#cwd = cwd;
      this.#onCwd?.(cwd);
    }
    if (!current) return;
    // An end given late is for the line that asked for it: one that came after that line had
    // ended otherwise (its prompt after a Ctrl-C) must not end the next.
    if (late === 'late' && !current.endAsked) return;
    // aish's typing of the command was read by the end hook as lines typed ahead: a Ctrl-C that
    // landed as the last command ended left zsh an interrupt to take at its next prompt, which
    // dropped its line editor and ran the hooks again, whose read took the typing. The command
    // never ran: it is typed again at the prompt that follows (a few times at most).
    if (!current.started && (typed ?? '').includes(KILL_LINE) && current.swallowed < SWALLOWED_RETYPES) {
      current.swallowed += 1;
      current.retype = true;
      current.incomplete = false;
      return;
    }
    this.#current = null;
    this.#env = null;
    // Held since the end was asked for: the command's own output unless this end is the late one.
    if (current.held && late !== 'late') current.opts.onOutput(current.held);
    this.#phase = 'idle';
    // An end given late, at aish's question (see the R marker), leaves the shell at the prompt it
    // had drawn: no other comes.
    this.#prompt = late === 'late' ? Promise.resolve() : new Promise((resolve) => (this.#atPrompt = resolve));
    const exitCode = Number.parseInt(status ?? '', 10);
    const code = Number.isFinite(exitCode) ? exitCode : 1;
    const incomplete = current.incomplete && !current.started;
    // A line that never started (a syntax error): what the shell said after the echo is its output.
    if (!current.started && !incomplete) {
      const after = current.before.lastIndexOf(PASTE_OFF);
      const said = after === -1 ? '' : current.before.slice(after + PASTE_OFF.length).replace(/^\r/, '');
      if (said) current.opts.onOutput(said);
    }
    const typedAhead = [...(typed ?? '').split('\x1f'), ...typedLines(current.keys)].filter((line) => line.trim() !== '');
    current.resolve({ exitCode: code, signal: signalOf(code), typedAhead, ...(incomplete ? { incomplete } : {}), ...(moved ? { moved: movedStreams(moved) } : {}) });
    // The jobs to hang up at the end, known before the end: a loaded machine may not leave time
    // to ask then. Asked only after a line that may have started or changed one.
    if (JOB_WORDS.test(current.command) || code === 148) {
      const asked = this.query('jobs').then((jobs) => {
        if (jobs !== null) this.#jobs = jobs;
      });
      this.#jobsAsked = asked;
      void asked.finally(() => {
        if (this.#jobsAsked === asked) this.#jobsAsked = null;
      });
    }
  }

  #exit(pty: Pty, e: { exitCode: number; signal?: number }): void {
    if (pty !== this.#pty) return;
    this.#pty = null;
    const wasStarting = this.#phase === 'starting';
    this.#phase = 'dead';
    if (this.#startTimer) clearTimeout(this.#startTimer);
    this.#startTimer = null;
    this.#removeRcDir();
    const signal = e.signal ? signalName(e.signal) : null;
    const reason = signal ? `killed by ${signal}` : `exit ${e.exitCode}`;
    const query = this.#query;
    this.#query = null;
    query?.resolve(null);
    if (this.#closed) {
      this.#finishCurrent(e, signal, reason, true);
      return;
    }
    if (wasStarting) {
      if (this.#withRc) {
        this.#withRc = false;
        this.#opts.status(`${this.#name} ended while reading your rc file (${reason}); started it without rc files`);
        void this.#spawn();
      } else {
        this.#giveUp(`${this.#name} ended as it started (${reason})`);
      }
      return;
    }
    const current = this.#current;
    const byExit = current !== null && !signal && /^\s*(exit|logout)(\s|;|$)/.test(current.command);
    this.#finishCurrent(e, signal, reason, byExit);
    if (byExit) {
      // `exit` ends aish too: nothing of the session is left running (a job `disown`ed is not
      // in the list).
      hangUp(this.#knownJobs(pty.pid));
      this.#closed = true;
      return;
    }
    // During a command the runner says so once its frame is closed (shellEnded).
    if (!current) this.#opts.status(`shell ended (${reason}); started a new one`);
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    void this.#spawn();
  }

  #finishCurrent(e: { exitCode: number; signal?: number }, signal: NodeJS.Signals | null, reason: string, byExit: boolean): void {
    const current = this.#current;
    this.#current = null;
    if (!current) return;
    const exitCode = e.signal ? 128 + e.signal : e.exitCode;
    current.resolve({ exitCode, signal, typedAhead: [], shellEnded: { reason, byExit } });
  }

  /**
   * Ends this shell as a hangup would and starts `program` (a `kind` shell) in its place, with its
   * rc files, in the shell's directory with its exported environment as last read: what `exec
   * zsh` typed into the shell would have done, with aish's integration in the new one. Resolves
   * as `start` does.
   */
  replace(program: string, kind: SessionShell): Promise<boolean> {
    return this.#serial(async () => {
      // A shell still starting is let finish (its start is under way); a dead one is not restarted.
      if (this.#phase === 'starting') await this.#ready;
      if (this.#closed) return false;
      const pty = this.#pty;
      if (pty) {
        const jobs = this.#knownJobs(pty.pid);
        // No longer this session's: its exit says nothing, and a shell that ignores the hangup
        // is killed a moment later.
        this.#pty = null;
        signal(pty.pid, 'SIGHUP');
        hangUp(jobs);
        setTimeout(() => this.#stop(pty), 1000).unref();
      }
      this.#program = program;
      this.#kind = kind;
      this.#withRc = true;
      this.#failure = null;
      this.#phase = 'dead';
      this.#ready = new Promise((resolve) => (this.#markReady = resolve));
      void this.#spawn();
      return this.#ready;
    });
  }

  /** Whether the shell ended for good (`exit` typed, or aish closed it). */
  get ended(): boolean {
    return this.#closed;
  }

  /** Runs `command` as if typed at the shell's prompt. Never rejects. */
  run(command: string, opts: RunOptions): Promise<SessionRun> {
    return this.#serial(() => this.#run(command, opts));
  }

  async #run(command: string, opts: RunOptions): Promise<SessionRun> {
    if (opts.signal?.aborted) return { exitCode: 130, signal: 'SIGINT', typedAhead: [] };
    // Typed into the shell's line editor, a control character would act as a key (Ctrl-C drops
    // what came before it, CR ends the line, ESC could end the paste): such a command is refused.
    // A newline stays: a typed multi-line input is one paste.
    if (CONTROL_IN_COMMAND.test(command)) return { exitCode: 2, signal: null, typedAhead: [], error: 'a command with a control character cannot be typed into the shell' };
    const ok = await this.#whenReady();
    const pty = this.#pty;
    // Interrupted while the shell was still starting: the command never starts.
    if (opts.signal?.aborted) return { exitCode: 130, signal: 'SIGINT', typedAhead: [] };
    if (!ok || !pty || this.#closed) return { exitCode: 127, signal: null, typedAhead: [], error: this.#failure ?? 'the shell is not running' };
    this.#phase = 'running';
    return new Promise<SessionRun>((resolve) => {
      let again: NodeJS.Timeout | undefined;
      // Ctrl-C lands on whatever holds the terminal: in the instant before the command's job takes
      // it, the shell, which goes on. From a pipe nobody can press it again, so it is typed again
      // every half second until the line ends. On a terminal the line was cancelled by one Ctrl-C
      // (in the same read as its Enter, or while aish held the keys) and one goes, as a key would:
      // a program that takes Ctrl-C itself (python3, a trap) gets it once, not every half second.
      const onAbort = () => {
        this.#interrupt(current);
        if (!opts.inputEnds) return;
        again = setInterval(() => this.#interrupt(current), 500);
        again.unref();
      };
      const done = (run: SessionRun) => {
        opts.signal?.removeEventListener('abort', onAbort);
        if (again) clearInterval(again);
        resolve(run);
      };
      // Nobody types into a piped run: its input is at its end, as before the session. A leading
      // space stays first, where the shell looks for it (`ignorespace`: kept out of its history).
      const line = opts.inputEnds ? `${/^ */.exec(command)![0]}{ ${command.trimStart()}\n} </dev/null` : command;
      const current: Current = { started: false, keys: '', incomplete: false, interrupting: false, line, swallowed: 0, retype: false, ctrlC: false, endAsked: false, held: '', before: '', opts, resolve: done, command };
      this.#current = current;
      opts.signal?.addEventListener('abort', onAbort);
      pty.write(`${KILL_LINE}${PASTE_START}${line}${PASTE_END}\r`);
    });
  }

  /** True once the shell shows its prompt (started, and done with the last command). */
  async #whenReady(): Promise<boolean> {
    const ok = await this.start();
    if (!ok) return false;
    await this.#prompt;
    return this.#pty !== null;
  }

  /**
   * What the shell printed outside any command and query since last asked (a background job's
   * `Done`), raw, once its prompt after the last command is drawn (`waitMs` at most: what comes
   * later is handed over next time). Empty when it printed nothing.
   */
  async aside(waitMs: number): Promise<string> {
    await Promise.race([this.#prompt, new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
    const text = this.#aside;
    this.#aside = '';
    return text;
  }

  /** Keys typed while a command runs. */
  write(data: string): void {
    const current = this.#current;
    if (this.#phase !== 'running' || !current) return;
    if (current.started) {
      if (data.includes('\x03')) current.ctrlC = true;
      this.#pty?.write(data);
    } else if (data === '\x03') this.#interrupt(current);
    else current.keys += data;
  }

  /**
   * Ctrl-C for `current`: typed at once once the command has started (its C marker). Before that
   * the shell is still taking in the line, and a Ctrl-C there cuts it where the shell has read to:
   * the rest of a multi-line input would then run as lines of their own (seen in CI:
   * `syntax error near unexpected token '}'` from a piped run's `{ …\n} </dev/null`). So it waits
   * for the start, `INTERRUPT_WAIT_MS` at most. Once aish is ending, SIGHUP (close) ends the
   * command with the shell and its jobs instead.
   */
  #interrupt(current: Current): void {
    if (this.#closed || this.#current !== current) return;
    // As a terminal drops the keys typed ahead on Ctrl-C, the keys held for the command go: sent
    // after this Ctrl-C (they wait for the start too), they would outlive the command and run as
    // the next line.
    current.keys = '';
    if (current.started) {
      this.#typeCtrlC(current);
      return;
    }
    if (current.interrupting) return;
    current.interrupting = true;
    setTimeout(() => {
      if (this.#closed || this.#current !== current || current.started || !current.interrupting) return;
      current.interrupting = false;
      this.#typeCtrlC(current);
    }, INTERRUPT_WAIT_MS).unref();
  }

  /** Types Ctrl-C for `current` (a prompt without its end marker is then taken as its end). */
  #typeCtrlC(current: Current): void {
    current.ctrlC = true;
    this.#pty?.write('\x03');
    // A line that left neither an end nor a prompt marker (`unset PROMPT_COMMAND; PS1='$ '`) has
    // the shell at a prompt aish cannot see: asked for the end, the integration puts its hooks
    // back, and the prompt it draws then ends the line (exit 130).
    if (current.started) this.#askEnd(current);
  }

  /**
   * Asks the shell for the end of `current`, which its prompt hook did not give. The integration
   * gives it (`end`) only if a command began since its last end, with the status the shell kept,
   * and puts its hooks back. Asked once, and only of a shell that holds the terminal: a prompt
   * marker printed by a program (`print $PS1`) must not make aish type into that program.
   */
  #askEnd(current: Current): void {
    if (current.endAsked || !this.#shellInForeground()) return;
    current.endAsked = true;
    this.#pty?.write(`${KILL_LINE}${PASTE_START}end end${PASTE_END}${QUERY_KEY}`);
  }

  resize(cols: number, rows: number): void {
    try {
      this.#pty?.resize(Math.max(2, cols), Math.max(2, rows));
    } catch {
      // The shell is gone: the next one starts at the new size.
    }
  }

  /**
   * Asks the idle shell a question its integration answers (`kind <word>`, `env`, `histfile`)
   * without running a command: nothing reaches its history (`histadd <line>` puts that line there
   * and answers nothing). Null when it does not answer in time.
   */
  query(op: 'kind' | 'env' | 'jobs' | 'keys' | 'histfile' | 'histadd' | 'prompt', arg = '', timeoutMs = 2000): Promise<string | null> {
    return this.#serial(async () => {
      const ok = await this.#whenReady();
      return ok ? this.#ask(op, arg, timeoutMs) : null;
    });
  }

  /**
   * Asks a shell that is idle now, waiting for no start and no running command: null at once when
   * it is busy, and null after `timeoutMs` whatever it is doing. For a key the person pressed
   * (Tab), where a late answer is no answer.
   */
  queryIdle(op: 'complete' | 'histsave', arg: string, timeoutMs: number): Promise<string | null> {
    // A query in flight (the route sign asks what a word is while the person types) is quick: Tab waits for it.
    if (!this.alive || (this.#phase !== 'idle' && this.#phase !== 'querying')) return Promise.resolve(null);
    let expired = false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        expired = true;
        resolve(null);
      }, timeoutMs);
      timer.unref();
    });
    // Just after a command the shell's prompt is a moment away: typed before it, the line would
    // meet the terminal's cooked mode and its echo.
    const asked = this.#serial(async () => {
      await this.#prompt;
      return expired ? null : this.#ask(op, arg, timeoutMs);
    });
    return Promise.race([asked, late]).finally(() => clearTimeout(timer));
  }

  /** Sends a query to the idle shell now; null when it is not idle or does not answer in time. */
  #ask(op: string, arg: string, timeoutMs: number): Promise<string | null> {
    {
      const pty = this.#pty;
      if (!pty || this.#phase !== 'idle') return Promise.resolve(null);
      this.#phase = 'querying';
      const id = `q${++this.#queryCount}`;
      return new Promise<string | null>((resolve) => {
        const timer = setTimeout(() => {
          if (this.#query?.id !== id) return;
          this.#query = null;
          if (this.#phase === 'querying') this.#phase = 'idle';
          resolve(null);
        }, timeoutMs);
        timer.unref();
        this.#query = {
          id,
          resolve: (payload) => {
            clearTimeout(timer);
            resolve(payload);
          },
        };
        pty.write(`${KILL_LINE}${PASTE_START}${id} ${op} ${arg}${PASTE_END}${QUERY_KEY}`);
      });
    }
  }

  /** What the shell would give a program it starts: its exported environment (null if unknown). */
  async exportedEnv(): Promise<Record<string, string> | null> {
    if (this.#env) return this.#env;
    const payload = await this.query('env', '', 3000);
    if (payload === null) return null;
    const env: Record<string, string> = {};
    // Each value was escaped once more than the field that carries them all.
    for (const entry of payload.split('\x1f')) {
      const eq = entry.indexOf('=');
      if (eq > 0) env[entry.slice(0, eq)] = decodeField(entry.slice(eq + 1));
    }
    this.#env = env;
    return env;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Ends the shell as a terminal's hangup would: SIGHUP to it and to its jobs (asked of an idle
   * shell first: an interactive shell at its prompt does not pass SIGHUP on by itself), SIGCONT
   * to a stopped one. A disowned job is left alone, as in a terminal. Resolves once the shell has
   * exited, or after `waitMs` (SIGKILL then).
   */
  async close(waitMs = 1000): Promise<void> {
    if (this.#closed && !this.#pty) return;
    let jobs: string | null = null;
    // A line that started a job asks for the jobs right after it: closed at once, that answer is
    // the one to wait for (the shell is busy answering it, and the jobs last known lack the new one).
    if (this.#jobsAsked) await Promise.race([this.#jobsAsked, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    if (!this.#closed && this.#phase === 'idle') {
      await Promise.race([this.#prompt, new Promise((resolve) => setTimeout(resolve, 300).unref())]);
      jobs = await this.#ask('jobs', '', 300);
    }
    // Not asked (busy, or no answer in time): the jobs as last known.
    const shellPid = this.#pty?.pid;
    const groups = jobs !== null ? pidsIn(jobs) : shellPid === undefined ? [] : this.#knownJobs(shellPid);
    this.#closed = true;
    if (this.#startTimer) clearTimeout(this.#startTimer);
    this.#removeRcDir();
    const pty = this.#pty;
    if (!pty) return;
    const exited = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#stop(pty);
        resolve();
      }, waitMs);
      timer.unref();
      pty.onExit(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    signal(pty.pid, 'SIGHUP');
    hangUp(groups);
    await exited;
    // A job of zsh's was seen to miss the first hangup while its shell exited: once more after it.
    hangUp(groups);
  }

  /** The jobs as last asked that are still groups of the shell's session (a pid that ended may
   * be another process's now). */
  #knownJobs(shellPid: number): number[] {
    return pidsIn(this.#jobs).filter((pid) => sessionOf(pid) === shellPid);
  }
}

/**
 * The whole lines in keys typed at a terminal (Enter ends one), edited as a terminal's line
 * discipline would: backspace deletes, escape sequences (arrows) and other controls are dropped,
 * and a last line without Enter is not one.
 */
export function typedLines(keys: string): string[] {
  const lines: string[] = [];
  let line = '';
  // eslint-disable-next-line no-control-regex
  const clean = keys.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[O[]?./g, '');
  for (const ch of clean) {
    if (ch === '\r' || ch === '\n') {
      lines.push(line);
      line = '';
    } else if (ch === '\x7f' || ch === '\b') line = line.slice(0, -1);
    else if (ch === '\x15') line = '';
    else if (ch >= ' ') line += ch;
  }
  return lines;
}

/** The integration's `<fd> <where>` lines (see `__aish_fds`). */
function movedStreams(field: string): MovedStream[] {
  const names = ['input', 'output', 'error'] as const;
  const moved: MovedStream[] = [];
  for (const line of field.split('\n')) {
    const m = /^([012]) (.*)$/.exec(line);
    if (m) moved.push({ stream: names[Number(m[1])]!, to: m[2] === 'closed' ? null : m[2]! });
  }
  return moved;
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
  throw failure ?? new Error('no folder for the shell\'s rc file');
}

/** Lines after which the jobs are asked again: they may start, stop, end or disown one. */
const JOB_WORDS = /&|\b(bg|fg|disown|kill|wait|jobs|nohup|setsid)\b/;

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

function pidsIn(text: string): number[] {
  return (text.match(/\d+/g) ?? []).map(Number);
}

/** SIGHUP to each job's process group, and SIGCONT to a stopped one, as a terminal's hangup. */
function hangUp(groups: readonly number[]): void {
  for (const group of groups) {
    signal(-group, 'SIGHUP');
    signal(-group, 'SIGCONT');
  }
}

/** Sends `sig` to a process (or, negative, a process group) that may be gone already. */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}


/** Lines the rc files printed that read as errors from the shell, for one status line. */
function rcErrors(output: string): string {
  const lines = output
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((l) => l.replace(/\r/g, '').trimEnd())
    .filter((l) => /^(bash|zsh|\/\S+): |syntax error|parse error|command not found|No such file/.test(l));
  return lines.slice(0, 10).join('\n');
}

function signalOf(status: number): NodeJS.Signals | null {
  if (status <= 128 || status > 128 + 64) return null;
  return signalName(status - 128);
}

function signalName(n: number): NodeJS.Signals | null {
  for (const [name, num] of Object.entries(constants.signals)) if (num === n) return name as NodeJS.Signals;
  return null;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
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
