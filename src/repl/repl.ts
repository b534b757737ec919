// The read-eval loop (SPEC §2): reads logical lines (a trailing `\` continues one), sends each to
// the shell, a meta command or the model as the line router says, and shows the prompt. Each line
// gets its own AbortController: Ctrl-C (SIGINT from main.ts, or the terminal during a question)
// aborts it, and everything working on that line takes the signal. The REPL is the MetaContext
// meta commands see.

import os from 'node:os';
import { preloadBroker } from '../broker/stream.js';
import type { Config } from '../config/schema.js';
import { FatalError, UsageError, describeError, errorMessage } from '../errors.js';
import type { SavedPrompts } from '../history/saved-prompts.js';
import type { SessionStore } from '../history/session.js';
import type { Io } from '../io.js';
import { asksShell, classify, misfiredProse, type Route } from '../line-router.js';
import type { McpRegistry } from '../mcp/registry.js';
import { BackgroundConnect, connectConfiguredServers } from '../mcp/startup.js';
import type { MemoryStore } from '../memory/store.js';
import { summarizeMemory } from '../memory/summarize.js';
import { completeMeta, dispatchMeta } from '../meta/dispatch.js';
import { uriCandidates } from '../meta/mcp-lists.js';
import type { MetaCommand, MetaContext } from '../meta/types.js';
import type { NorrisMode } from '../norris/mode.js';
import type { Renderer } from '../render/renderer.js';
import type { BackgroundLines } from './background-lines.js';
import { formatQuestion } from '../render/question.js';
import { neutralize } from '../render/sanitize.js';
import { loadWidths } from '../render/text-width.js';
import type { ProjectContext } from '../project/context.js';
import { attachMentions } from '../project/mentions.js';
import { plainQuestion, type KeyQuestion } from '../safety/confirm.js';
import type { ApprovalGate } from '../safety/gate.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import type { TurnCore } from '../turn/core.js';
import type { ToolControls } from '../turn/types.js';
import type { Checkpoints } from '../undo/checkpoints.js';
import { ShellCompleter, completePath, shellCandidates } from './completion.js';
import { composeInEditor } from './editor.js';
import { appendInputHistory, loadInputHistory } from './input-history.js';
import { PipedLineReader, TerminalLineReader, echoComposed, type LineReader } from './line-reader.js';
import { formatPrompt } from './prompt.js';

/** On a terminal, how long after the prompt the session's shell starts (unless a line needs it first). */
const SHELL_START_DELAY_MS = 100;
/** How long a typed line waits for a shell still starting to say what its first word is. */
const ROUTE_WAIT_MS = 2000;

export interface ReplParts {
  io: Io;
  config: Config;
  env: Record<string, string | undefined>;
  render: Renderer;
  commands: readonly MetaCommand[];
  core: TurnCore;
  sessions: SessionStore;
  shell: ShellRunner;
  mcp: McpRegistry;
  tools: ToolControls;
  memory: MemoryStore;
  norris: NorrisMode;
  /** Checkpoints around actions, and `:undo`. */
  undo: Checkpoints;
  gate: ApprovalGate;
  /** The `[project]` block of the current directory (`:tree`). */
  project: ProjectContext;
  prompts: SavedPrompts;
  /** Applied to input history lines before they are written. */
  redact: (text: string) => string;
  /** The preset user lines go to at start (`--model`, else `default_model`). */
  model: string;
  /** The input history file; undefined keeps no input history. */
  inputHistoryFile: string | undefined;
  /** `--resume [NAME|last]`. */
  resume: string | undefined;
  /** The start-up line on a terminal. */
  banner: string;
  /** The banner and a first prompt are on the screen already (front.ts): this prompt replaces it. */
  promptShown?: boolean;
  /** Server log lines: held while the person types at the prompt or answers a question. */
  background?: BackgroundLines;
}

export class Repl implements MetaContext {
  readonly config: Config;
  readonly render: Renderer;
  readonly commands: readonly MetaCommand[];
  readonly core: TurnCore;
  readonly sessions: SessionStore;
  readonly shell: ShellRunner;
  readonly mcp: McpRegistry;
  readonly tools: ToolControls;
  readonly memory: MemoryStore;
  readonly norris: NorrisMode;
  readonly undo: Checkpoints;
  readonly gate: ApprovalGate;
  readonly prompts: SavedPrompts;
  activeModel: string;
  #lastQuestion: string | null = null;

  readonly #parts: ReplParts;
  readonly #io: Io;
  #turn = 0;
  #current: AbortController | null = null;
  #reader: LineReader | null = null;
  #quitting = false;
  #exitCode = 0;
  #historySave: Promise<void> = Promise.resolve();
  /** Lines typed while a shell command ran that it did not read (see `typedAhead`). */
  readonly #typedAhead: string[] = [];
  /** Text put on the next input line for editing. */
  #prefill: string | null = null;
  #historyWarned = false;
  /** On a terminal, the configured MCP servers connecting behind the prompt. */
  #mcpStart: BackgroundConnect | null = null;
  readonly #completer = new ShellCompleter();

  constructor(parts: ReplParts) {
    this.#parts = parts;
    this.#io = parts.io;
    this.config = parts.config;
    this.render = parts.render;
    this.commands = parts.commands;
    this.core = parts.core;
    this.sessions = parts.sessions;
    this.shell = parts.shell;
    this.mcp = parts.mcp;
    this.tools = parts.tools;
    this.memory = parts.memory;
    this.norris = parts.norris;
    this.undo = parts.undo;
    this.gate = parts.gate;
    this.prompts = parts.prompts;
    this.activeModel = parts.model;
  }

  /** Runs the loop until end of input or :quit; resolves to the exit code. */
  async run(): Promise<number> {
    // The start-up file's prompt gives way: what is written next starts on its line.
    if (this.#parts.promptShown) this.#io.output.write('\r\x1b[2K');
    this.#reader = await this.#createReader();
    if (this.#io.isTTY && !this.#parts.promptShown) this.render.status(this.#parts.banner);
    // The session's shell starts behind the prompt: only the first shell line waits for it. On a
    // terminal it starts a moment later (or with the first line that needs it), so the first keys
    // typed are echoed before its start-up takes the event loop.
    if (this.#io.isTTY) setTimeout(() => this.shell.startSession(), SHELL_START_DELAY_MS).unref();
    else this.shell.startSession();
    // On a terminal the prompt comes first and the servers connect behind it; a script's lines
    // still run against a session whose servers are connected, as before.
    if (this.#io.isTTY) this.#mcpStart = new BackgroundConnect(this.mcp, this.config);
    else await connectConfiguredServers(this.mcp, this.config, this.render);
    // Load the HTTP client while the person is still reading the prompt, not on the first question.
    if (this.#io.isTTY) setTimeout(() => void preloadBroker(), 150).unref();
    try {
      if (this.#parts.resume !== undefined) await this.#resumeAtStart(this.#parts.resume);
      while (!this.#quitting) {
        const line = (await this.#nextTypedAhead()) ?? (await this.#readLogicalLine(this.#reader));
        if (line === null) break;
        this.#reader.suspend();
        await this.handleLine(line);
      }
    } finally {
      this.#reader.close();
      // The last command's checkpoint is still being written.
      await this.undo.settled();
      const shellClosed = this.shell.close();
      this.sessions.close();
      await this.#mcpStart?.stop();
      await this.mcp.closeAll();
      await shellClosed;
      if (this.#io.isTTY) this.render.endLine();
      await this.#historySave;
    }
    return this.#exitCode;
  }

  /** `--resume NAME|last`, as `:resume` does it; a session that cannot be resumed is a usage error (exit 2). */
  async #resumeAtStart(name: string): Promise<void> {
    try {
      await dispatchMeta(`resume ${name}`, this, new AbortController().signal);
    } catch (err) {
      throw new FatalError(`--resume: ${describeError(err, this.#parts.env)}`, 2);
    }
  }

  /**
   * Asks the person for a line of free text in the middle of a line (an edited command, a form
   * field; questions with a fixed set of answers use `askKey`); null when nobody can answer.
   * Every question passes the sanitizer here: they quote commands and tool names from outside.
   */
  ask(question: string, prefill?: string, complete?: (typed: string) => Promise<string[]>): Promise<string | null> {
    // Text put on the line is typed into readline: control characters there would act as keys.
    const reader = this.#reader;
    if (!reader) return Promise.resolve(null);
    this.#parts.background?.atPrompt(true);
    const completer = complete && (async (line: string): Promise<[string[], string]> => [await complete(line), line]);
    return reader
      .ask(neutralize(question), prefill === undefined ? undefined : neutralize(prefill).replace(/\n/g, ' '), completer)
      .finally(() => this.#parts.background?.atPrompt(false));
  }

  askLine(question: string, complete?: (typed: string) => Promise<string[]>): Promise<string | null> {
    return this.ask(question, undefined, complete);
  }

  /**
   * Asks a question answered by one key (confirmations, HALT); null when nobody can answer. The
   * command or arguments it quotes are shown whole and readable (render/question.ts), and every
   * part passes the sanitizer.
   */
  async askKey(question: KeyQuestion): Promise<string | null> {
    const reader = this.#reader;
    if (!reader) return null;
    // Wide characters (CJK, emoji) wrap by the columns they take.
    await loadWidths();
    const text = formatQuestion(question, { columns: this.#io.columns(), rows: this.#io.rows?.() ?? 24 });
    this.#parts.background?.atPrompt(true);
    return reader.askKey(text, question.keys, question.fallback).finally(() => this.#parts.background?.atPrompt(false));
  }

  /** Ctrl-C or SIGINT from outside: cancels the line being processed; when idle on a pipe, ends. */
  interrupt(): void {
    if (this.#current) {
      this.#current.abort();
      return;
    }
    if (!this.#io.isTTY) {
      this.#exitCode = 130;
      this.quit();
    }
  }

  /** Processes one logical input line. Never throws: errors become status lines. */
  async handleLine(raw: string): Promise<void> {
    const controller = new AbortController();
    this.#current = controller;
    try {
      await this.runInput(raw, controller.signal);
    } catch (err) {
      if (controller.signal.aborted) this.render.status('cancelled');
      else this.render.error(describeError(err, this.#parts.env));
    } finally {
      this.#current = null;
    }
  }

  /** One input as if typed, on the line's signal: to the shell, a meta command or the model. */
  async runInput(raw: string, signal: AbortSignal): Promise<void> {
    const route = await this.route(raw);
    // Model lines and meta commands may use the MCP servers: they wait for them. A shell line
    // does not, but hears of failed connections first.
    if (route.kind === 'ai' || route.kind === 'meta') {
      await this.#mcpStart?.ready(this.render, signal);
      // Programs aish starts and the redactor see what the shell exports now.
      await this.shell.syncEnv();
      signal.throwIfAborted();
    } else {
      this.#mcpStart?.report(this.render);
    }
    switch (route.kind) {
      case 'blank':
        return;
      case 'meta':
        await dispatchMeta(stripContinuations(route.payload), this, signal);
        return;
      case 'shell':
        await this.#runShellLine(route.payload, route.rule === 'known-command' || route.rule === 'shell-knows', signal);
        return;
      case 'ai':
        await this.askModel(stripContinuations(route.payload), signal);
        return;
    }
  }

  /**
   * Where a line goes, with the session's shell asked what its first word is. A line whose first
   * word is in the known list goes to the shell without asking. Otherwise a shell still starting
   * is waited for: a pipe's lines wait for it (a script's routes must not depend on timing), a
   * terminal's for at most `ROUTE_WAIT_MS` (a function typed at once is still the person's), then
   * the known list decides.
   */
  async route(raw: string): Promise<Route> {
    const word = asksShell(raw, this.config);
    if (word === null) return classify(raw, this.config);
    if (this.config.shell.known_commands.includes(word) && this.shell.knownKind(word) === undefined) return classify(raw, this.config);
    const kind = await this.shell.wordKind(word, this.#io.isTTY ? ROUTE_WAIT_MS : Infinity);
    return classify(raw, this.config, (w) => (w === word ? kind : undefined));
  }

  /**
   * `:edit [text]`: composes a line in the editor (the terminal is already handed over while a
   * line is processed), shows it after the prompt and keeps it in the input history.
   */
  async composeLine(initial: string): Promise<string | null> {
    if (!this.#io.isTTY) throw new UsageError(':edit needs a terminal');
    const text = await this.#compose(initial);
    if (text === null) return null;
    this.render.write(echoComposed(this.prompt(), text));
    this.#reader?.remember(text);
    return text;
  }

  /** The editor on `initial`; null (and a status line saying why) when nothing is to be run. */
  async #compose(initial: string): Promise<string | null> {
    try {
      const result = await composeInEditor(initial, { env: this.shell.env, cwd: this.shell.cwd, tmpDir: this.shell.env.TMPDIR || os.tmpdir() });
      if (result.ok) return result.text;
      this.render.status(result.reason);
    } catch (err) {
      this.render.error(`editor: ${describeError(err, this.#parts.env)}`);
    }
    return null;
  }

  /**
   * A typed shell line. One that starts with a known command but reads as English and fails at
   * once (`make it faster`) was probably a question: on a terminal, the person is offered to ask
   * the model instead, and the failed run is then left out of what the model is sent.
   */
  async #runShellLine(line: string, knownCommand: boolean, signal: AbortSignal): Promise<void> {
    const started = Date.now();
    const before = this.core.pending.text;
    // With `undo.typed`, a typed line gets a checkpoint too.
    await this.undo.around({ command: line, origin: 'typed' }, this.shell.cwd, () => this.shell.run(line, signal));
    if (!this.#io.isTTY || !knownCommand || signal.aborted) return;
    if (!misfiredProse(line, this.shell.lastStatus, Date.now() - started)) return;
    const answer = await this.askKey(plainQuestion('ask the model instead? [Y/n] ', 'yn', 'y'));
    if (answer !== 'y' || signal.aborted) return;
    this.core.pending.rollback(before);
    await this.askModel(line, signal);
  }

  /**
   * `:norris <goal>`. On a terminal, lines typed while it runs reach it: `:halt` halts it, and
   * anything else is passed to its next step as a note from the person.
   */
  async runNorris(goal: string, signal: AbortSignal): Promise<void> {
    const stop = this.#reader?.listen((line) => this.#duringNorris(line)) ?? (() => {});
    this.undo.prepare(this.shell.cwd);
    try {
      await this.norris.run(goal, this.activeModel, signal);
    } finally {
      stop();
    }
  }

  get lastQuestion(): string | null {
    return this.#lastQuestion;
  }

  /**
   * Lines typed while a command ran that it did not read. As in a terminal, they run next, in
   * order; but a line for the model (a question, or an answer to a prompt that never came) is put
   * back on the input line, to leave the machine only with Enter.
   */
  typedAhead(lines: readonly string[]): void {
    this.#typedAhead.push(...lines);
  }

  /** The next typed-ahead line; one for the model becomes the next prefill, and the rest wait. */
  async #nextTypedAhead(): Promise<string | null> {
    while (this.#typedAhead.length > 0) {
      const line = this.#typedAhead.shift()!;
      if ((await this.route(line)).kind !== 'ai') return line;
      this.#prefill = line;
      this.render.status('typed while the command ran: kept on the line, sent to the model only with Enter');
      this.#typedAhead.length = 0;
    }
    return null;
  }

  /** Hands the keyboard to a command running in the session's shell (see LineReader.passKeys). */
  passKeys(onKeys: (data: string) => void): () => void {
    return this.#reader ? this.#reader.passKeys(onKeys) : () => {};
  }

  /** Runs `work` (a command Norris decided on) with the terminal given back to it. */
  holdTerminal<T>(work: () => Promise<T>): Promise<T> {
    return this.#reader ? this.#reader.hold(work) : work();
  }

  #duringNorris(line: string): void {
    const text = line.trim();
    if (text === '') return;
    if (text === ':halt') {
      this.render.status('halting Norris');
      this.#current?.abort();
      return;
    }
    this.core.pending.note(`[note from the user while you work] ${text}`);
    this.render.status("noted for Norris's next step (:halt stops it)");
  }

  /**
   * A line for the model: `@path` and `@alias:<uri>` mentions are attached first (a missing file
   * or resource stops it here). Text that is not the person's (a server's prompt) is sent as it is,
   * `mentions: false`, and is not kept as the last question.
   */
  async askModel(text: string, signal: AbortSignal, options: { mentions?: boolean } = {}): Promise<void> {
    if (options.mentions === false) {
      this.#turn++;
      await this.core.ask(text, this.activeModel, signal);
      return;
    }
    const attached = await attachMentions(text, this.shell.cwd, this.shell.env.HOME, this.config.shell.capture_max_chars, this.mcp, signal);
    for (const note of attached.notes) this.render.status(note);
    this.#lastQuestion = text;
    this.#turn++;
    // The model may propose a command: the tree's first snapshot is made while it thinks.
    this.undo.prepare(this.shell.cwd);
    await this.core.ask(attached.text, this.activeModel, signal);
  }

  async summarizeMemory(signal: AbortSignal): Promise<void> {
    await summarizeMemory({
      config: this.config,
      complete: (name, messages, limits) => this.core.askOnce(name, messages, { ...limits, purpose: 'memory' }),
      store: this.memory,
      sessionFile: this.sessions.file,
      turns: this.core.context.turns,
      ask: this.#io.isTTY ? (question, prefill) => this.ask(question, prefill) : null,
      askKey: this.#io.isTTY ? (question) => this.askKey(question) : null,
      status: (message) => this.render.status(message),
      signal,
    });
  }

  /** What the model is told about the current directory's git work tree (`:tree`); null outside one. */
  projectBlock(): Promise<string | null> {
    return this.#parts.project.block(this.shell.cwd);
  }

  resetConversation(): void {
    this.core.reset();
    this.#turn = 0;
  }

  clearScreen(): void {
    if (this.#io.isTTY) this.#io.output.write('\x1b[H\x1b[2J');
  }

  /** Ends the loop after the current line; `exitCode` when given (a shell's `exit 3`). */
  quit(exitCode?: number): void {
    if (exitCode !== undefined) this.#exitCode = exitCode;
    this.#quitting = true;
    this.#reader?.close();
  }

  /** The prompt: `[aish:<model>]> ` or the `shell.prompt` template. */
  prompt(): string {
    return formatPrompt(
      this.config.shell.prompt,
      {
        model: this.activeModel,
        routing: this.core.routing.auto,
        norris: this.norris.running,
        cwd: this.shell.cwd,
        home: this.shell.env.HOME,
        ctxUsed: this.core.context.estimateTokens(),
        ctxMax: this.config.context.token_budget,
        turn: this.#turn,
        lastStatus: this.shell.lastStatus,
      },
      (s) => this.render.style.bold(s),
    );
  }

  async #readLogicalLine(reader: LineReader): Promise<string | null> {
    const parts: string[] = [];
    let prompt = this.#io.isTTY ? this.prompt() : '';
    for (;;) {
      this.#parts.background?.atPrompt(true);
      const prefill = this.#prefill ?? undefined;
      this.#prefill = null;
      const line = await reader.read(prompt, prefill).finally(() => this.#parts.background?.atPrompt(false));
      if (line === null) return parts.length ? parts.join('\n') : null;
      parts.push(line);
      // A trailing backslash continues the line (an even run of backslashes is literal).
      const trailing = /\\+$/.exec(line)?.[0].length ?? 0;
      if (trailing % 2 === 0) return parts.join('\n');
      prompt = this.#io.isTTY ? '... ' : '';
    }
  }

  async #createReader(): Promise<LineReader> {
    if (!this.#io.isTTY) return new PipedLineReader(this.#io);
    const size = this.config.history.input_history_size;
    const file = this.#parts.inputHistoryFile;
    let history: string[] = [];
    if (file) {
      try {
        history = await loadInputHistory(file, size);
      } catch (err) {
        this.render.status(`input history not loaded: ${errorMessage(err)}`);
      }
    }
    return new TerminalLineReader(this.#io, {
      history,
      historySize: size,
      completer: (line) => this.#complete(line),
      onHistory: (entries) => {
        const entry = entries[0];
        // A line typed with a leading space is not kept (the shells' `ignorespace`).
        if (!file || entry === undefined || entry.startsWith(' ')) return;
        const line = this.#parts.redact(entry);
        this.#historySave = this.#historySave
          .then(() => appendInputHistory(file, line, size))
          .catch((err) => {
            if (this.#historyWarned) return;
            this.#historyWarned = true;
            this.render.status(`input history not saved: ${errorMessage(err)}`);
          });
      },
      onInterrupt: () => this.interrupt(),
      edit: (initial) => this.#compose(initial),
    });
  }

  #complete(line: string): [string[], string] | Promise<[string[], string]> {
    if (line.startsWith(':')) return completeMeta(line, this);
    // `@path` in a line for the model: the word after `@` completes as a path.
    const mention = /(?:^|\s)@(\S*)$/.exec(line);
    if (mention) return this.#completeMention(mention[1]!);
    return this.#completeShell(line);
  }

  /**
   * `@<word>`: after `@alias:` the server's resource URIs (and its templates up to their first
   * variable) from the cached list; else paths, and `@alias:` of the servers with resources.
   */
  async #completeMention(word: string): Promise<[string[], string]> {
    const sessions = this.mcp.connected().filter((s) => s.lists.offersResources);
    const colon = word.indexOf(':');
    const session = colon > 0 ? sessions.find((s) => s.alias === word.slice(0, colon)) : undefined;
    if (session) {
      await session.lists.ready();
      return [uriCandidates(session, word.slice(colon + 1)).map((u) => `@${session.alias}:${u}`), `@${word}`];
    }
    const paths = completePath(word, { cwd: this.shell.cwd, env: this.shell.env }).map((p) => `@${p}`);
    const aliases = sessions.map((s) => `@${s.alias}:`).filter((a) => a.startsWith(`@${word}`));
    return [[...paths, ...aliases], `@${word}`];
  }

  /**
   * The first word of anything may be a command; later words complete on a shell line only (its
   * first word asked of a running shell, never waited for). What Tab in the session's shell
   * offers, else aish's own completion.
   */
  async #completeShell(line: string): Promise<[string[], string]> {
    if (/\s/.test(line.trim())) {
      const word = asksShell(line, this.config);
      const kind = word === null ? undefined : await this.shell.wordKind(word, 0);
      if (classify(line, this.config, (w) => (w === word ? kind : this.shell.knownKind(w))).kind !== 'shell') return [[], line];
    }
    const body = line.startsWith('$') ? line.slice(1).trimStart() : line;
    const answer = await this.shell.complete(body);
    const fromShell = answer && shellCandidates(answer, line);
    if (fromShell) return fromShell;
    return this.#completer.complete(line, { cwd: this.shell.cwd, env: this.shell.env, knownCommands: this.config.shell.known_commands });
  }

  /**
   * Ends the session from outside (the terminal went away, SIGHUP, SIGTERM): the shell command
   * running now is stopped whatever its process group, the line being processed is aborted
   * (model request, MCP call), and `run()` resolves to `exitCode` once the session log and the
   * MCP sessions are closed.
   */
  shutdown(exitCode: number): void {
    this.#exitCode = exitCode;
    this.shell.terminate();
    this.#current?.abort();
    this.quit();
  }
}

/** Continuation lines of a prompt: `\` + newline becomes a newline. */
function stripContinuations(text: string): string {
  return text.replace(/\\\n/g, '\n');
}
