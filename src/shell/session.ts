// The session's shell (SPEC §4, docs/shell.md): one interactive bash, zsh or fish behind a
// pseudo-terminal, kept for the whole aish session so aliases, functions, variables, the directory
// stack and jobs live on from line to line. Commands are typed into it as a bracketed paste; the
// integration's markers (markers.ts, with a per-session secret) say where a command's output starts
// and ends, its exit status and the shell's directory. This class only wires the parts: the
// process (shell-process.ts), the pure command life (command-life.ts) whose effects it performs
// with real timers, and the jobs hung up at the end (shell-jobs.ts).
//
// Operations (a command, a query) run one at a time, in order. `run` never rejects.

import { step, typedLines, type LifeEffect, type LifeEvent, type LifeState, type SessionRun } from './command-life.js';
import { pipedLine } from './launch.js';
import { LifeTimers, delay, orNullAfter } from './life-timers.js';
import { MarkerParser, parseEnv } from './markers.js';
import { SecretMask, maskSecret } from './secret-mask.js';
import { ShellJobs, hangUp, hangUpShell, holdsTerminal, pidsIn } from './shell-jobs.js';
import { ShellProcess, type SessionShell, type ShellStartOptions } from './shell-process.js';

export { typedLines, type MovedStream, type SessionRun } from './command-life.js';
export type { Pty, SessionShell, ShellStartOptions, SpawnPty } from './shell-process.js';
export { sessionShellOf } from './launch.js';

export type ShellSessionOptions = ShellStartOptions;

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

/** Control characters a command may not hold (tab and newline are fine). */
// eslint-disable-next-line no-control-regex
const CONTROL_IN_COMMAND = /[\x00-\x08\x0b-\x1f\x7f]/;
/** What is kept of what the shell printed at its prompt until it is handed over. */
const MAX_ASIDE = 64 * 1024;

export class ShellSession {
  readonly #opts: ShellSessionOptions;
  readonly #secret = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(16))).toString('hex');
  readonly #process: ShellProcess;
  readonly #jobs = new ShellJobs();
  #parser = new MarkerParser(this.#secret);
  /** Masks any piece of the secret in the shell's output, across chunks (secret-mask.ts). */
  #mask = new SecretMask(this.#secret);
  #state: LifeState = { type: 'dead' };
  readonly #timers = new LifeTimers((id) => this.#feed({ type: 'timer', id }));
  /** The run and the query in the shell now, as the machine resolves them. */
  #run: { opts: RunOptions; resolve: (run: SessionRun) => void } | null = null;
  #query: ((payload: string | null) => void) | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #queryCount = 0;
  #cwd: string;
  #env: Record<string, string> | null = null;
  #closed = false;
  #onCwd: ((cwd: string) => void) | null = null;
  /** Resolves at the shell's next prompt: after a command's end, the next line waits for it
   * (typed before it, the line would meet the terminal's cooked mode and its echo). */
  #prompt: Promise<void> = Promise.resolve();
  #atPrompt: (() => void) | null = null;
  /** What the shell printed outside any command and query since last handed over (`aside`). */
  #aside = '';
  /** Keys typed while a run waits for the shell (its start, its prompt), given to the run once
   * it is typed: dropped, a Ctrl-Z pressed while a slow rc file was read never reached the command. */
  #early: string[] | null = null;

  constructor(opts: ShellSessionOptions) {
    this.#opts = opts;
    this.#cwd = opts.cwd;
    this.#process = new ShellProcess({
      ...opts,
      secret: this.#secret,
      cwd: () => this.#cwd,
      exported: () => this.#env,
      onSpawn: () => {
        this.#parser = new MarkerParser(this.#secret);
        this.#mask = new SecretMask(this.#secret);
        this.#aside = '';
        this.#reachedPrompt();
        this.#prompt = Promise.resolve();
        this.#feed({ type: 'spawned' });
      },
      onData: (data) => {
        // The secret never leaves, not even a piece of it: `set` or `echo ${__aish_k:0:20}` would
        // print it, and with it a program could forge markers. A marker ends the output before it.
        for (const event of this.#parser.push(data)) {
          this.#output(event.type === 'output' ? this.#mask.push(event.text) : this.#mask.flush());
          if (event.type === 'marker') this.#feed({ type: 'marker', kind: event.kind, fields: event.fields });
        }
      },
      onExit: (e, pid) => this.#exited(e, pid),
    });
  }

  /** Which shell this is (its history file's format): the one configured until a line replaced it. */
  get kind(): SessionShell {
    return this.#process.kind;
  }

  /** The shell program now running (or starting). */
  get program(): string {
    return this.#process.program;
  }

  /** The shell's current directory, as of the end of the last command. */
  get cwd(): string {
    return this.#cwd;
  }

  /** `start` was called (the shell is starting or up) and it has not died since. */
  get started(): boolean {
    return this.#process.started && this.#state.type !== 'dead' && !this.#closed;
  }

  /** The shell is up and has read its rc files (a question to it is answered at once). */
  get alive(): boolean {
    return this.#state.type !== 'dead' && this.#state.type !== 'starting';
  }

  /** Why no shell can run lines (the caller falls back to one process per line); null when fine. */
  get failure(): string | null {
    return this.#process.failure;
  }

  /** Whether the shell ended for good (`exit` typed, or aish closed it). */
  get ended(): boolean {
    return this.#closed;
  }

  /** Called with the new directory whenever a command changed it. */
  onCwdChange(listener: (cwd: string) => void): void {
    this.#onCwd = listener;
  }

  /** Starts the shell (behind the prompt); resolves when it can take a line, false if it never can. */
  start(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return this.#process.start();
  }

  /** Runs `command` as if typed at the shell's prompt. Never rejects. */
  run(command: string, opts: RunOptions): Promise<SessionRun> {
    if (!('typed' in this.#state)) this.#early ??= [];
    return this.#serial(() => this.#runNow(command, opts));
  }

  async #runNow(command: string, opts: RunOptions): Promise<SessionRun> {
    // Typed into the shell's line editor, a control character would act as a key (Ctrl-C drops
    // what came before it, CR ends the line, ESC could end the paste): such a command is refused.
    // A newline stays: a typed multi-line input is one paste.
    const ok = !opts.signal?.aborted && !CONTROL_IN_COMMAND.test(command) && (await this.#whenReady());
    const early = this.#early ?? [];
    this.#early = null;
    if (CONTROL_IN_COMMAND.test(command)) return { exitCode: 2, signal: null, typedAhead: [], error: 'a command with a control character cannot be typed into the shell' };
    // Interrupted while the shell was still starting: the command never starts.
    if (opts.signal?.aborted) return { exitCode: 130, signal: 'SIGINT', typedAhead: [] };
    if (!ok || this.#closed || this.#state.type !== 'idle') return { exitCode: 127, signal: null, typedAhead: typedLines(early.join('')), error: this.failure ?? 'the shell is not running' };
    const onAbort = () => this.#feed({ type: 'abort' });
    const run = await new Promise<SessionRun>((resolve) => {
      this.#run = { opts, resolve };
      opts.signal?.addEventListener('abort', onAbort);
      // Nobody types into a piped run: its input is at its end, as before the session.
      const inputEnds = opts.inputEnds === true;
      this.#feed({ type: 'run', command, line: inputEnds ? pipedLine(this.#process.kind, command) : command, inputEnds });
      for (const data of early) this.#feed({ type: 'key', data });
    });
    opts.signal?.removeEventListener('abort', onAbort);
    return run;
  }

  /** True once the shell shows its prompt (started, and done with the last command). */
  async #whenReady(): Promise<boolean> {
    const ok = await this.start();
    if (!ok) return false;
    await this.#prompt;
    return this.#process.pty !== null;
  }

  /**
   * What the shell printed outside any command and query since last asked (a background job's
   * `Done`), raw, once its prompt after the last command is drawn (`waitMs` at most: what comes
   * later is handed over next time). Empty when it printed nothing.
   */
  async aside(waitMs: number): Promise<string> {
    await Promise.race([this.#prompt, delay(waitMs)]);
    const text = this.#aside;
    this.#aside = '';
    return text;
  }

  /** Keys typed while a command runs (or waits for the shell to take it). */
  write(data: string): void {
    if (this.#early) this.#early.push(data);
    else this.#feed({ type: 'key', data });
  }

  resize(cols: number, rows: number): void {
    this.#process.resize(cols, rows);
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
    if (this.#state.type !== 'idle' && this.#state.type !== 'querying') return Promise.resolve(null);
    // Just after a command the shell's prompt is a moment away: typed before it, the line would
    // meet the terminal's cooked mode and its echo.
    return orNullAfter(timeoutMs, (expired) =>
      this.#serial(async () => {
        await this.#prompt;
        return expired() ? null : this.#ask(op, arg, timeoutMs);
      }),
    );
  }

  /** Sends a query to the idle shell now; null when it is not idle or does not answer in time. */
  #ask(op: string, arg: string, timeoutMs: number): Promise<string | null> {
    if (!this.#process.pty || this.#state.type !== 'idle') return Promise.resolve(null);
    const id = `q${++this.#queryCount}`;
    return new Promise<string | null>((resolve) => {
      this.#query = resolve;
      this.#feed({ type: 'query', id, op, arg, timeoutMs });
    });
  }

  /** What the shell would give a program it starts: its exported environment (null if unknown). */
  async exportedEnv(): Promise<Record<string, string> | null> {
    if (this.#env) return this.#env;
    const payload = await this.query('env', '', 3000);
    if (payload !== null) this.#env = parseEnv(payload);
    return this.#env;
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
    if (this.#closed && !this.#process.pty) return;
    let jobs: string | null = null;
    // A line that started a job asks for the jobs right after it: closed at once, that answer is
    // the one to wait for (the shell is busy answering it, and the jobs last known lack the new one).
    // Otherwise nothing is awaited before the hangup: aish ending during a command (terminate)
    // must hang the shell up in this very tick, while it still runs the command and so passes the
    // hangup on to its jobs; a tick later the abort's Ctrl-C may have it back at its prompt.
    const asking = this.#jobs.settled(1000);
    if (asking) await asking;
    if (!this.#closed && this.#state.type === 'idle') {
      await Promise.race([this.#prompt, delay(300)]);
      jobs = await this.#ask('jobs', '', 300);
    }
    this.#closed = true;
    this.#timers.clear();
    const pty = this.#process.close();
    if (!pty) return;
    // Not asked (busy, or no answer in time): the jobs as last known.
    const groups = jobs !== null ? pidsIn(jobs) : this.#jobs.known(pty.pid);
    await hangUpShell(pty, groups, waitMs, () => this.#process.stop(pty));
  }

  /** `exec zsh` with aish's integration: this shell hung up, `program` (a `kind` shell) started in
   * its place with its rc files, directory and exported environment as last read. As `start`. */
  replace(program: string, kind: SessionShell): Promise<boolean> {
    return this.#serial(async () => {
      // A shell still starting is let finish (its start is under way); a dead one is not restarted.
      if (this.#state.type === 'starting') await this.#process.start();
      if (this.#closed || !this.#process.started) return false;
      const { old, ready } = this.#process.replace(program, kind);
      if (old) void hangUpShell(old, this.#jobs.known(old.pid), 1000, () => this.#process.stop(old));
      return ready;
    });
  }

  /** Feeds the command life an event and performs what it says. Once closed, SIGHUP ends the
   * command with the shell: no key, Ctrl-C or timer goes to it any more. */
  #feed(event: LifeEvent): void {
    if (this.#closed && (event.type === 'key' || event.type === 'abort' || event.type === 'timer')) return;
    const next = step(this.#state, event, this.#secret);
    this.#state = next.state;
    for (const effect of next.effects) this.#perform(effect);
  }

  #perform(effect: LifeEffect): void {
    switch (effect.type) {
      case 'write':
        this.#process.pty?.write(effect.data);
        return;
      case 'schedule':
        return this.#timers.schedule(effect.id, effect.ms);
      case 'cancel':
        return this.#timers.cancel(effect.id);
      case 'output':
        this.#run?.opts.onOutput(effect.text);
        return;
      case 'resolve-run': {
        const run = this.#run;
        this.#run = null;
        this.#env = null;
        this.#prompt = new Promise((resolve) => (this.#atPrompt = resolve));
        run?.resolve(effect.run);
        return;
      }
      case 'resolve-query': {
        const query = this.#query;
        this.#query = null;
        // An answer made of the person's text (their prompt) could hold a piece of the secret too.
        query?.(effect.payload === null ? null : maskSecret(effect.payload, this.#secret));
        return;
      }
      case 'ready':
        this.#process.ready(effect.startOutput);
        return;
      case 'prompt':
        this.#reachedPrompt();
        return;
      case 'cwd':
        if (effect.cwd === this.#cwd) return;
        this.#cwd = effect.cwd;
        this.#onCwd?.(effect.cwd);
        return;
      case 'aside':
        this.#aside = (this.#aside + effect.text).slice(-MAX_ASIDE);
        return;
      case 'ask-jobs':
        this.#jobs.track(this.query('jobs'));
        return;
      case 'ask-end':
        // Typed into a program of the line (a prompt marker it printed), the question would be its
        // input. fish's integration has no `end` question: its markers come from its own events.
        if (this.#process.kind !== 'fish' && holdsTerminal(this.#process.pty?.pid)) this.#feed({ type: 'end-asked' });
        return;
      case 'ended':
        return this.#ended(effect);
    }
  }

  #reachedPrompt(): void {
    this.#atPrompt?.();
    this.#atPrompt = null;
  }

  /** What the shell printed, the secret masked, to the command life. */
  #output(text: string): void {
    if (text !== '') this.#feed({ type: 'output', text });
  }

  /** `text` made of what the shell printed (the screen text a terminal shows of it) with any
   * piece of the secret masked: escape sequences between its pieces hide it from the stream's mask. */
  maskSecret(text: string): string {
    return maskSecret(text, this.#secret);
  }

  #exited(e: { exitCode: number; signal?: number }, pid: number): void {
    this.#output(this.#mask.flush());
    const closing = this.#closed;
    this.#feed({ type: 'exit', exitCode: e.exitCode, ...(e.signal ? { signal: e.signal } : {}), hungUp: closing });
    // `exit` ends aish too: nothing of the session is left running (a job `disown`ed is not in
    // the list).
    if (!closing && this.#closed) hangUp(this.#jobs.known(pid));
  }

  #ended({ during, reason, byExit }: Extract<LifeEffect, { type: 'ended' }>): void {
    if (this.#closed) return;
    if (during === 'start') this.#process.startFailed(reason);
    else if (byExit) this.#closed = true;
    else {
      // During a command the runner says so once its frame is closed (shellEnded).
      if (during !== 'command') this.#opts.status(`shell ended (${reason}); started a new one`);
      this.#process.restart();
    }
  }
}
