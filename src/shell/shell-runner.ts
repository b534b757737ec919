// A typed shell line from start to end (SPEC §4): it runs in the session's shell (session.ts)
// inside an exec frame, with the keyboard handed to it on a terminal, and what the terminal showed
// joins the pending buffer for the next question. Without a session (a shell aish has no
// integration for, `shell.session: false`, or one that cannot start) each line runs in its own
// `$SHELL -c`, where `cd`, `export` and `unset` change aish's own state instead. Knows the shell's
// directory, exported environment, last exit status and history file; a line holding a secret
// reaches the shell's history only redacted. Approved `CMD:` lines run here too, exactly as if
// typed.

import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import { findOnPath, isExecutableFile } from '../find-on-path.js';
import type { RouteContext, WordKind } from '../line-router.js';
import type { PendingOutput } from '../context/pending-output.js';
import { matchBuiltin, runBuiltin, shellState, type ShellState } from './builtins.js';
import { OutputCapture, normalizeOutput } from './capture.js';
import { parseCompletion, type ShellCompletion } from './completion-answer.js';
import { isInteractiveCommand } from './interactive.js';
import { runShell } from './run-shell.js';
import { shellNotices } from './shell-notices.js';
import { sessionShellOf, type MovedStream, type SessionRun, type ShellSession } from './session.js';
import { shellReplacement } from './shell-exec.js';
import { readShellHistory } from './shell-history.js';

/** How an exec frame ends: the exit code, the signal, or why the command never started. */
export interface ExecEnd {
  exitCode: number;
  signal: NodeJS.Signals | null;
  /** Shown instead of the exit code when the command never started. */
  error?: string;
}

/** Where a shell line is shown: the frame, live output and status lines (the renderer). */
export interface ExecView {
  execBegin(command: string): void;
  execOutput(text: string): void;
  execEnd(end: ExecEnd): void;
  info(text: string): void;
  status(message: string): void;
  error(message: string): void;
}

export interface ShellRunnerParts {
  shell: Config['shell'];
  /** The starting directory and environment: the runner's state is a copy of them unless `state` is given. */
  cwd: string;
  env: Record<string, string | undefined>;
  /**
   * The directory and environment as they change, when others read them too (the redactor looks
   * up secrets in it); made from `cwd` and `env` when not given.
   */
  state?: ShellState;
  /** On a terminal: interactive programs get it, and Ctrl-C reaches children from it. */
  isTTY: boolean;
  view: ExecView;
  /** Captured output goes here for the next user turn. */
  pending: PendingOutput;
  /**
   * Keeps each finished command as a numbered block (src/blocks/) and says whether it is private:
   * a private one's output never joins the pending buffer. Without it every output joins it.
   */
  blocks?: (run: KeptRun) => { n: number; private: boolean };
  /** The session's shell; null runs each line in its own process. */
  session?: ShellSession | null;
  /** On a terminal: the keyboard, handed to a running command until the returned function is called. */
  keys?: (onKeys: (data: string) => void) => () => void;
  /** The terminal's size, and its changes. */
  size?: () => { cols: number; rows: number };
  onResize?: (listener: () => void) => () => void;
  /** Lines typed while a command ran that it did not read: they are the next lines read. */
  onTypeahead?: (lines: string[]) => void;
  /** `exit` (or `logout`) ended the shell: aish ends too, with the shell's exit code. */
  onShellExit?: (code: number) => void;
  /** The session's one redactor: a line holding a secret reaches the shell's history only redacted. */
  redact: (text: string) => string;
}

/** A finished command as the session's blocks keep it. */
export interface KeptRun {
  command: string;
  cwd: string;
  exitCode: number;
  output: string;
  /** Marked private as it was typed (`:private <command>`). */
  marked?: boolean;
}

/** How a typed line runs. */
export interface RunHow {
  /** Its output is private: kept from the model, the session log and every file (`:private <command>`). */
  private?: boolean;
  /** Kept out of the shell's history (typed with a leading space, as the shells' `ignorespace`). */
  outOfHistory?: boolean;
  /** Called as the command is about to start: after the shell has started, if it had to. */
  onStart?: () => void;
}

export class ShellRunner {
  readonly #parts: ShellRunnerParts;
  readonly #state: ShellState;
  #lastStatus = 0;
  /** Aborted once aish is ending: see `terminate`. */
  readonly #ending = new AbortController();
  /** Where the session's shell keeps its history (`$HISTFILE`), asked once: see `shellHistory`. */
  #historyFile: Promise<string | null> | null = null;
  /** The session's shell being ended: by `close` or `terminate`, whichever came first. */
  #closing: Promise<void> | null = null;

  /** A command ran since the environment was last read from the session's shell. */
  #envStale = false;
  /** The read of the session shell's environment under way. */
  #envSync: Promise<void> | null = null;
  /** What the session's shell said of words (null: no such command), until a command may change it. */
  readonly #kinds = new Map<string, WordKind | null>();
  /** The editing mode the session's shell was last found in, or undefined: to ask (again). */
  #keys: 'vi' | 'emacs' | undefined;
  /** zsh's AUTO_CD, as last asked with the editing mode. */
  #autoCd = false;
  readonly #cwdListeners: Array<(cwd: string) => void> = [];
  /** The shell's own prompt as it last answered (`shell.prompt_from_shell`). */
  #shellPrompt: string | null = null;
  /** The question for it since the last command, answered or not (null: not asked since). */
  #shellPromptAsked: Promise<string | null> | null = null;

  constructor(parts: ShellRunnerParts) {
    this.#parts = parts;
    this.#state = parts.state ?? shellState(parts.cwd, parts.env);
    parts.session?.onCwdChange((cwd) => {
      this.#state.cwd = cwd;
      this.#cwdChanged(cwd);
    });
    // The session's terminal follows aish's at every moment, not only while a command runs: a
    // program started later (vim, less, `stty size`) reads the size from it when it starts.
    const { session, onResize, size } = parts;
    if (session && onResize && size) {
      onResize(() => {
        const now = size();
        session.resize(now.cols, now.rows);
      });
    }
  }

  /** `listener` hears each change of the directory a command made (the MCP servers' roots follow it). */
  onCwdChange(listener: (cwd: string) => void): void {
    this.#cwdListeners.push(listener);
  }

  #cwdChanged(cwd: string): void {
    for (const listener of this.#cwdListeners) listener(cwd);
  }

  /** The session's shell, when lines run in one that works. */
  get #session(): ShellSession | null {
    const session = this.#parts.session;
    return session && session.failure === null ? session : null;
  }

  /** The directory shell lines run in (the session shell's, as of its last command). */
  get cwd(): string {
    return this.#state.cwd;
  }

  /**
   * The environment programs aish starts get: the session shell's exported variables as last read
   * (`syncEnv`), or the per-line runner's own (changed by `export` and `unset`).
   */
  get env(): Record<string, string | undefined> {
    return this.#state.env;
  }

  /**
   * Reads the session shell's exported environment again if a command ran since; a read under
   * way is shared. Never rejects.
   */
  syncEnv(): Promise<void> {
    this.#envSync ??= this.#readEnv().finally(() => (this.#envSync = null));
    return this.#envSync;
  }

  async #readEnv(): Promise<void> {
    const session = this.#session;
    if (!session || !this.#envStale) return;
    const env = await session.exportedEnv().catch(() => null);
    if (!env) return;
    this.#envStale = false;
    this.#state.env = { ...env, PWD: this.#state.cwd };
  }

  /**
   * What the session's shell says `word` is, asked once and kept until a command may have
   * changed the answer; undefined without a session that answers (the router's fallback decides).
   * A shell still starting is waited for `waitMs` at most (Infinity: a pipe's lines, whose routes
   * must not depend on timing).
   */
  async wordKind(word: string, waitMs: number): Promise<WordKind | null | undefined> {
    if (this.#kinds.has(word)) return this.#kinds.get(word);
    const session = this.#session;
    // Without a session (sh, or `shell.session: false`) a program on PATH is still a command: a
    // word that is not one may be a builtin or a keyword of that shell, and stays unknown.
    if (!session) return findOnPath(word, this.#state.env.PATH ?? '') ? 'file' : undefined;
    if (!session.alive) {
      const started = session.start();
      const ok = waitMs === Infinity ? await started : await Promise.race([started, new Promise<false>((r) => setTimeout(() => r(false), waitMs).unref())]);
      if (!ok || this.#session !== session) return undefined;
    }
    const answer = await session.query('kind', word);
    if (answer === null) return undefined;
    const kind = WORD_KINDS.has(answer) ? (answer as WordKind) : null;
    this.#kinds.set(word, kind);
    return kind;
  }

  /**
   * What Tab in the session's shell would offer at the end of `line` (its commands, files and
   * programmable completion, in its directory). Null, at once or after `timeoutMs`, when there is
   * no session idle at its prompt to ask or it does not answer in time: the caller completes by
   * itself then.
   */
  async complete(line: string, timeoutMs = COMPLETE_TIMEOUT_MS): Promise<ShellCompletion | null> {
    const session = this.#session;
    // A control character could not be typed into the shell's line as text.
    if (!session || /[\x00-\x1f\x7f]/.test(line)) return null;
    const payload = await session.queryIdle('complete', line, timeoutMs);
    return payload === null ? null : parseCompletion(payload);
  }

  /**
   * The editing mode the person chose in their shell (`set -o vi`, `editing-mode vi` in
   * ~/.inputrc, zsh's `bindkey -v`), asked of the session once it is idle and kept until a
   * command may have changed it; undefined when there is no session to ask.
   */
  async editingMode(): Promise<'vi' | 'emacs' | undefined> {
    if (this.#keys) return this.#keys;
    const session = this.#session;
    // Never the one to start the shell (it starts behind the prompt); one starting is waited for.
    if (!session || !session.started) return undefined;
    const answer = (await session.query('keys', '', 1000))?.split(' ') ?? [];
    const mode = answer[0];
    if (mode !== 'vi' && mode !== 'emacs') return undefined;
    this.#keys = mode;
    this.#autoCd = answer.includes('autocd');
    return mode;
  }

  /**
   * What the router needs to know of this shell beyond its words: which shell it is, whether a
   * directory typed alone changes to it (zsh's AUTO_CD), and which paths exist from its directory.
   */
  routeContext(): RouteContext {
    const program = this.#parts.shell.program ?? this.#parts.env.SHELL ?? '';
    const name = this.#parts.session?.kind ?? path.basename(program);
    const resolve = (p: string) => {
      const home = this.#state.env.HOME;
      const expanded = home && (p === '~' || p.startsWith('~/')) ? home + p.slice(1) : p;
      return path.resolve(this.#state.cwd, expanded);
    };
    return {
      ...(name ? { shell: name } : {}),
      autoCd: this.#autoCd,
      isDirectory: (p) => statOf(resolve(p))?.isDirectory() ?? false,
      exists: (p) => statOf(resolve(p)) !== undefined,
    };
  }

  /** Whether the session's shell is up (or starting): questions to it are answered soon. */
  get sessionStarted(): boolean {
    return this.#session?.started ?? false;
  }

  /**
   * The session shell's own prompt (the person's PS1 as the shell expands it), as the shell
   * printed it: text from outside, escapes and all, for the renderer to make safe
   * (render/shell-prompt.ts). Asked of the shell once after each command and kept. Null without a
   * session that answers in time, or for an empty prompt; never rejects.
   */
  renderedPrompt(): Promise<string | null> {
    // Asked since the last command (as the shell started, say), answered or not: that answer.
    if (this.#shellPromptAsked) return this.#shellPromptAsked;
    const session = this.#session;
    if (!session?.alive) return Promise.resolve(null);
    const asked = session.query('prompt', '', PROMPT_TIMEOUT_MS).then((answer) => {
      // Answers come in the order asked: the last one is about the last command.
      this.#shellPrompt = answer || null;
      return this.#shellPrompt;
    });
    this.#shellPromptAsked = asked;
    return asked;
  }

  /** The shell's prompt as `renderedPrompt` last found it (null: none, aish draws its own). */
  get lastRenderedPrompt(): string | null {
    return this.#shellPrompt;
  }

  /** The answer `wordKind` keeps for `word`, if any. */
  knownKind(word: string): WordKind | null | undefined {
    return this.#kinds.get(word);
  }

  /** After a command: answers it may have changed are asked again. */
  #forgetKinds(command: string): void {
    if (MAY_CHANGE_KEYS.test(command)) this.#keys = undefined;
    if (MAY_DEFINE.test(command)) {
      this.#kinds.clear();
      return;
    }
    // A program installed by the command may now be on PATH.
    for (const [word, kind] of this.#kinds) if (kind === null) this.#kinds.delete(word);
  }

  /**
   * The person's own shell history, newest first, at most `max`: the session shell's `$HISTFILE`
   * (asked of the shell: the variable is seldom exported), read as shell-history.ts reads it.
   * Waits for the session to start; empty without a session or a history file. Never rejects.
   */
  async shellHistory(max: number): Promise<string[]> {
    const session = this.#session;
    if (!session || !(await session.start())) return [];
    const file = await this.#askHistoryFile(session);
    if (!file) return [];
    return readShellHistory(session.kind, path.resolve(this.#state.cwd, file), { max });
  }

  #askHistoryFile(session: ShellSession): Promise<string | null> {
    this.#historyFile ??= session.query('histfile');
    return this.#historyFile;
  }

  /** Starts the session's shell behind the prompt (a line that needs it waits for it). */
  startSession(): void {
    const session = this.#parts.session;
    if (!session) {
      const why = this.#parts.shell.session ? `aish has no session for ${path.basename(this.#program)}` : 'shell.session is off';
      this.#parts.view.status(`each line runs in its own ${this.#program} -c (${why})`);
      return;
    }
    void session.start().then((ok) => {
      if (ok && this.#parts.shell.prompt_from_shell && this.#parts.isTTY) void this.renderedPrompt();
      if (!ok && session.failure) this.#parts.view.status(`no shell session (${session.failure}); each line runs in its own ${this.#program}`);
    });
  }

  get #program(): string {
    return this.#parts.shell.program ?? this.#state.env.SHELL ?? '/bin/sh';
  }

  /** The exit status of the last shell line. */
  get lastStatus(): number {
    return this.#lastStatus;
  }

  /** Runs `command` as a typed shell line. Never rejects for the command's own failures. */
  async run(command: string, signal: AbortSignal, how: RunHow = {}): Promise<void> {
    const session = this.#session;
    if (session && (await session.start())) {
      // On a terminal the shell is asked where its history is before the first line runs, so Up
      // reaches that history once the line is done.
      if (this.#parts.isTTY) void this.#askHistoryFile(session);
      how.onStart?.();
      await this.#runInSession(session, command, signal, how);
      return;
    }
    how.onStart?.();
    const { view, shell, isTTY } = this.#parts;
    // Without a session there is no shell to leave: `exit` and `logout` leave aish, as a shell would.
    const exit = /^\s*(?:exit|logout)(?:\s+(\d+))?\s*$/.exec(command);
    if (exit) {
      this.#parts.onShellExit?.(Number(exit[1] ?? this.#lastStatus) & 255);
      return;
    }
    const builtin = matchBuiltin(command);
    if (builtin) {
      const before = this.#state.cwd;
      const result = await runBuiltin(builtin.name, builtin.rest, this.#state);
      this.#lastStatus = result.status;
      if (this.#state.cwd !== before) this.#cwdChanged(this.#state.cwd);
      if (result.output) view.info(result.output);
      if (result.error) view.error(result.error);
      return;
    }
    const interactive = isTTY && isInteractiveCommand(command, shell.interactive);
    // On a terminal the child shares aish's process group, so Ctrl-C reaches it from the
    // terminal itself; from a pipe aish forwards the interrupt to the child's own group.
    await this.#runOwnProcess(command, signal, { cwd: this.#state.cwd, env: this.#state.env, interactive, stdin: isTTY ? 'inherit' : 'ignore', detached: !isTTY, marked: how.private ?? false });
  }

  /**
   * Runs `command` in a fresh `<shell> -c` behind `wrap` (a sandbox's argv), never in the session's
   * shell: what it changes (variables, the directory) does not outlive it. No terminal and no
   * input; its own process group, so the signal stops it from a terminal too. Shown and captured
   * like a typed line; resolves the exit code and what the model will read.
   */
  async runIsolated(command: string, signal: AbortSignal, how: { wrap: readonly string[]; env: Record<string, string> }): Promise<{ exitCode: number; output: string }> {
    return this.#runOwnProcess(command, signal, { cwd: this.#state.cwd, env: how.env, wrap: how.wrap, interactive: false, stdin: 'ignore', detached: true });
  }

  /** A line in its own process (runShell) inside an exec frame; the output joins the pending buffer. */
  async #runOwnProcess(
    command: string,
    signal: AbortSignal,
    how: { cwd: string; env: Record<string, string | undefined>; wrap?: readonly string[]; interactive: boolean; stdin: 'inherit' | 'ignore'; detached: boolean; marked?: boolean },
  ): Promise<{ exitCode: number; output: string }> {
    const { view, shell } = this.#parts;
    let hidden = false;
    view.execBegin(command);
    const { marked, ...runHow } = how;
    const result = await runShell(command, {
      ...runHow,
      program: this.#program,
      captureMaxChars: shell.capture_max_chars,
      onOutput: (text) => {
        if (!hidden && text.includes('\0')) hidden = true;
        if (!hidden) view.execOutput(text);
      },
      signal,
      terminate: this.#ending.signal,
    });
    view.execEnd(result);
    this.#lastStatus = result.exitCode;
    if (hidden) view.status('binary output not shown and not captured');
    else if (result.truncated) view.status(`output capped at ${shell.capture_max_chars} chars for the model (head and tail kept)`);
    this.#keep({ command, cwd: how.cwd, output: result.output, exitCode: result.exitCode, marked: marked ?? false });
    return { exitCode: result.exitCode, output: result.output };
  }

  /**
   * A line in the session's shell: the keyboard goes to it on a terminal (Ctrl-C, Ctrl-Z and
   * answers to its questions included), its output is shown as it comes (as plain lines from a
   * pipe) and captured as the text a terminal showed.
   */
  async #runInSession(session: ShellSession, command: string, signal: AbortSignal, how: RunHow): Promise<void> {
    const { view, shell, isTTY } = this.#parts;
    // A line holding a secret runs whole, but never reaches the shell's history (nor its file): it
    // is typed with a leading space, which the shell keeps out (the integration makes sure of
    // `ignorespace`). aish's own input history keeps it redacted.
    const redacted = historyText(command, this.#parts.redact);
    const typed = how.outOfHistory || redacted !== command ? ` ${command}` : command;
    // The block names the directory the command started in, not the one a `cd` left.
    const cwd = this.#state.cwd;
    const replacement = shellReplacement(command, this.#state.env.SHELL);
    if (replacement) {
      await this.#replaceShell(session, command, replacement, how.private ?? false);
      return;
    }
    const capture = new OutputCapture(shell.capture_max_chars);
    const plain = new PlainLines((text) => view.execOutput(text));
    view.execBegin(command);
    const release = isTTY ? this.#parts.keys?.((data) => session.write(data)) : undefined;
    let run: SessionRun;
    try {
      run = await session.run(typed, {
        onOutput: (raw) => {
          capture.push(raw);
          if (isTTY) view.execOutput(raw);
          else plain.push(raw);
        },
        signal,
        inputEnds: !isTTY,
      });
    } finally {
      release?.();
    }
    plain.end();
    // The redacted text is not added to the shell's history after it (a `histadd` query): typed
    // into the shell just after the command, that query lost keys typed ahead meanwhile (a
    // `:quit` typed as the command ended never came).
    // The environment is read again when next needed (a line for the model, the next history
    // entry): read here, at once, that question to the shell lost keys typed as the command ended.
    this.#envStale = true;
    this.#forgetKinds(command);
    const captured = await capture.finishScreen(this.#parts.size?.().cols ?? 80);
    view.execEnd({ exitCode: run.exitCode, signal: run.signal, ...(run.error ? { error: run.error } : {}) });
    this.#lastStatus = run.exitCode;
    if (run.shellEnded && !run.shellEnded.byExit) view.status(`shell ended (${run.shellEnded.reason}); started a new one`);
    if (run.incomplete) view.status('the shell wanted more input (an unclosed quote or block?): the line was cancelled');
    if (run.moved) view.status(movedText(run.moved));
    if (run.typedAhead.length > 0) this.#parts.onTypeahead?.(run.typedAhead);
    // The next prompt is drawn from the shell's, which the command may have changed (a cd, $?);
    // a new shell's is asked after its first command.
    this.#shellPromptAsked = null;
    if (run.shellEnded) this.#shellPrompt = null;
    else {
      // A job's end the shell announced outside a command comes before the next prompt, as in a
      // terminal; not for the model, as the shell's prompt is not. From a pipe it would land
      // among the lines a script reads on stdout.
      const aside = await session.aside(isTTY ? NOTICE_WAIT_MS : 0);
      const notices = isTTY ? session.maskSecret(await shellNotices(aside, this.#parts.size?.().cols ?? 80)) : '';
      if (notices) view.info(notices);
      // Only a terminal shows a prompt.
      if (shell.prompt_from_shell && isTTY) await this.renderedPrompt();
    }
    if (captured.binary) view.status('binary output not shown and not captured');
    else if (captured.truncated) view.status(`output capped at ${shell.capture_max_chars} chars for the model (head and tail kept)`);
    // The text the screen showed can join pieces of the session's secret the byte stream kept apart
    // (a colour code between them): masked again as shown.
    let output = session.maskSecret(captured.text);
    if (captured.fullScreen) output = `${output ? `${output}\n` : ''}[${programName(command)}: full-screen program]`;
    this.#keep({ command, cwd, output, exitCode: run.exitCode, marked: how.private ?? false });
    if (run.shellEnded?.byExit) this.#parts.onShellExit?.(run.exitCode);
  }

  /** A finished command: kept as a block, and its output for the next question unless it is private. */
  #keep(run: KeptRun): void {
    const block = this.#parts.blocks?.(run);
    if (block?.private) return;
    this.#parts.pending.append({ command: run.command, output: run.output, exitCode: run.exitCode, ...(block ? { block: block.n } : {}) });
  }

  /**
   * `exec <shell>`: typed into the session, the new shell would have no integration and the line
   * would never end. A new session of that shell (of the same one, for a shell aish has no
   * session for) starts in its place instead, in the same directory with the same exported
   * environment, and a status line says so.
   */
  async #replaceShell(session: ShellSession, command: string, program: string, marked: boolean): Promise<void> {
    const { view } = this.#parts;
    const cwd = this.#state.cwd;
    view.execBegin(command);
    const before = { program: session.program, kind: session.kind };
    const kind = sessionShellOf(program);
    const name = path.basename(program);
    // The exported environment as the shell has it now: the new shell inherits it, as with exec.
    const env = (await session.exportedEnv().catch(() => null)) ?? this.#state.env;
    // A shell that is not there fails as exec would, and the shell there was stays.
    const found = program.includes('/') ? isExecutableFile(path.resolve(this.#state.cwd, program)) : findOnPath(program, env.PATH ?? '') !== null;
    if (!found) {
      view.execEnd({ exitCode: 127, signal: null });
      this.#lastStatus = 127;
      view.status(`${name}: not found; the shell stays ${path.basename(before.program)}`);
      this.#keep({ command, cwd, output: `${name}: not found`, exitCode: 127, marked });
      return;
    }
    const ok = await session.replace(kind ? program : before.program, kind ?? before.kind);
    const exitCode = ok ? 0 : 127;
    view.execEnd({ exitCode, signal: null });
    this.#lastStatus = exitCode;
    if (!ok) view.status(`no shell session (${session.failure ?? `${name} did not start`})`);
    else if (kind) view.status(`${name} replaced the shell: a new ${name} session, with aish's integration`);
    else view.status(`aish has no session for ${name}: started a new ${path.basename(before.program)} session instead`);
    this.#historyFile = null;
    this.#kinds.clear();
    this.#keys = undefined;
    this.#envStale = true;
    this.#shellPromptAsked = null;
    this.#shellPrompt = null;
    this.#keep({ command, cwd, output: '', exitCode, marked });
  }

  /**
   * aish is ending (its terminal went away, SIGTERM): stops the command running now whatever its
   * process group, where a line's abort would leave it to the terminal, and starts no more.
   */
  terminate(): void {
    this.#ending.abort();
    // The hangup goes now, in this very tick: a command running in the shell gets it while the
    // shell is still running it, and the shell passes it on to its jobs. Waited for (the history
    // asked to be saved first), the abort's Ctrl-C brought the shell back to its prompt, which
    // passes no hangup on, and a `sleep 300 &` of that line outlived aish.
    this.#closing ??= this.#parts.session?.close() ?? Promise.resolve();
  }

  /**
   * Ends the session's shell (SIGHUP to it and its jobs), its history written first; resolves
   * once it is gone.
   */
  close(): Promise<void> {
    this.#closing ??= this.#closeSession();
    return this.#closing;
  }

  async #closeSession(): Promise<void> {
    const session = this.#parts.session;
    if (!session) return;
    // bash hung up just after answering a query (the session asks for its jobs as it ends) exits
    // without writing its history file: an idle bash writes it first, as `exit` would have.
    if (session.kind === 'bash' && session.alive) await session.queryIdle('histsave', '', 300);
    await session.close();
  }
}

/** How long the shell's prompt after a command is waited for, with the job notices it prints first. */
const NOTICE_WAIT_MS = 250;
/** How long the shell may take to draw its prompt (a starship or theme's command) before aish draws its own. */
const PROMPT_TIMEOUT_MS = 1000;
/** How long Tab waits for the session's shell before aish completes by itself. */
const COMPLETE_TIMEOUT_MS = 500;
const WORD_KINDS = new Set(['alias', 'function', 'builtin', 'keyword', 'file']);
/** Commands that may define, remove or shadow a command word (or change PATH): answers are asked again. */
const MAY_DEFINE = /\b(alias|unalias|function|unset|unfunction|source|enable|disable|hash|rehash|eval|exec|PATH|path|cd|pushd|popd|abbr|functions|funced|fish_add_path)\b|\(\s*\)|(^|[\s;&|])\.\s/;

/** A path's stat, or undefined (missing, unreadable, or not a path at all). */
function statOf(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Commands that may change the editing mode (`set -o vi`, `bindkey -v`, `bind`, an rc file read again). */
const MAY_CHANGE_KEYS = /\b(set|bindkey|bind|source|exec|fish_vi_key_bindings|fish_default_key_bindings|fish_hybrid_key_bindings)\b|(^|[\s;&|])\.\s/;

/**
 * `command` as the shell's history may keep it: redacted; null when it cannot be redacted (the
 * shape rules did not load), and then it is kept out.
 */
function historyText(command: string, redact: (text: string) => string): string | null {
  try {
    return redact(command);
  } catch {
    return null;
  }
}

/** The status line for a line that moved the shell's own input or output (`exec >file`). */
function movedText(moved: readonly MovedStream[]): string {
  const what = moved.map(({ stream, to }, i) => `${i === 0 ? "the shell's" : 'its'} ${stream === 'error' ? 'error output' : stream} ${to === null ? 'was closed' : `went to ${to}`}`);
  return `${what.join(' and ')}: aish put ${moved.length > 1 ? 'them' : 'it'} back on the terminal`;
}

/** The first word of a command, for `[vim: full-screen program]`. */
function programName(command: string): string {
  const words = command.trim().split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) && !['sudo', 'env', 'command', 'exec', 'nice', 'time'].includes(w));
  const first = words[0] ?? command.trim();
  return first.slice(first.lastIndexOf('/') + 1);
}

/**
 * Pty output made plain, line by line as it comes, for a pipe: no colours, no CR LF. Only the new
 * chunk is searched for a line's end, and a line's pieces are joined once, when it ends: searching
 * the whole line so far at every chunk made one long line quadratic (a 5 MB line took 10 s, 20 MB
 * did not end in 100 s; issue 32, bench/long-line.ts).
 */
class PlainLines {
  /** The line begun and not ended yet, in the pieces it came in. */
  #partial: string[] = [];
  constructor(readonly write: (text: string) => void) {}

  push(raw: string): void {
    const nl = raw.lastIndexOf('\n');
    if (nl === -1) {
      if (raw) this.#partial.push(raw);
      return;
    }
    this.#partial.push(raw.slice(0, nl + 1));
    const lines = this.#partial.join('');
    this.#partial = nl + 1 < raw.length ? [raw.slice(nl + 1)] : [];
    this.write(normalizeOutput(lines));
  }

  end(): void {
    if (this.#partial.length > 0) this.write(normalizeOutput(this.#partial.join('')));
    this.#partial = [];
  }
}
