// Wires the parts into one program: reads lines, routes them, runs shell lines, meta commands and
// model turns, and keeps the state a session carries (cwd, env, active model, pending output).
// Receives everything from main.ts; touches no global process state itself.

import path from 'node:path';
import type { Config } from './config/schema.js';
import { AishError, UsageError, errorMessage } from './errors.js';
import type { Io } from './io.js';
import { coreCommands } from './meta/core.js';
import { sessionCommands } from './meta/session.js';
import { mcpCommands } from './meta/mcp.js';
import { routeCommands } from './meta/route.js';
import { norrisCommands } from './meta/norris.js';
import { memoryCommands } from './meta/memory.js';
import { MemoryStore } from './memory/store.js';
import { summarizeMemory } from './memory/summarize.js';
import { runNorris } from './norris/run.js';
import { createSecondOpinion } from './norris/second-opinion.js';
import { McpRegistry } from './mcp/registry.js';
import { mcpToolHost } from './tools/mcp-host.js';
import { Spinner } from './render/spinner.js';
import { Conversation } from './repl/conversation.js';
import { completeMeta, dispatchMeta } from './meta/dispatch.js';
import type { MetaCommand, MetaContext } from './meta/types.js';
import { Renderer } from './render/renderer.js';
import { colorLevel, createStyle } from './render/style.js';
import { appendInputHistory, loadInputHistory } from './repl/input-history.js';
import { PipedLineReader, TerminalLineReader, type LineReader } from './repl/line-reader.js';
import { preloadBroker } from './broker/stream.js';
import { classify } from './router.js';
import { ShellCompleter } from './repl/completion.js';
import { matchBuiltin, runBuiltin, type ShellState } from './shell/builtins.js';
import { isInteractiveCommand } from './shell/interactive.js';
import { runShell } from './shell/run-shell.js';

export interface AppOptions {
  io: Io;
  config: Config;
  /** The config file in use, if any (shown at start-up). */
  configFile?: string | undefined;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Where input history and sessions live; undefined turns persistence off. */
  stateDir: string | undefined;
  version: string;
  /** `--model NAME`. */
  model?: string | undefined;
  /** `--resume [NAME|last]`. */
  resume?: string | undefined;
  startedAt?: Date;
}

export class App implements MetaContext {
  readonly config: Config;
  readonly render: Renderer;
  readonly conversation: Conversation;
  readonly commands: readonly MetaCommand[] = [...coreCommands, ...sessionCommands, ...mcpCommands, ...routeCommands, ...norrisCommands, ...memoryCommands];
  readonly mcp: McpRegistry;
  readonly memory: MemoryStore;
  activeModel: string;

  readonly #io: Io;
  readonly #opts: AppOptions;
  readonly #shell: ShellState;
  #lastStatus = 0;
  #turn = 0;
  #current: AbortController | null = null;
  #reader: LineReader | null = null;
  #quitting = false;
  #exitCode = 0;
  #historySave: Promise<void> = Promise.resolve();
  readonly #completer = new ShellCompleter();
  #historyWarned = false;
  #norris = false;

  constructor(opts: AppOptions) {
    this.#opts = opts;
    this.#io = opts.io;
    this.config = opts.config;
    this.render = new Renderer(opts.io, createStyle(colorLevel(opts.env, opts.io.isTTY)));
    this.#shell = { cwd: opts.cwd, oldpwd: opts.env.OLDPWD, env: { ...opts.env, PWD: opts.cwd } };
    const model = opts.model ?? opts.config.default_model;
    if (!opts.config.models[model]) {
      throw new UsageError(`--model: no preset named "${model}" (presets: ${Object.keys(opts.config.models).join(', ')})`);
    }
    this.activeModel = model;
    this.conversation = new Conversation({
      config: opts.config,
      env: opts.env,
      io: opts.io,
      render: this.render,
      historyDir: this.#historyDir(),
      version: opts.version,
      startedAt: opts.startedAt ?? new Date(),
      ask: opts.io.isTTY ? (question) => this.#reader?.ask(question) ?? Promise.resolve(null) : null,
      runShellLine: (command, signal) => this.runShellLine(command, signal),
      runCommands: true,
      logSessions: true,
    });
    this.memory = MemoryStore.open(this.#historyDir());
    if (opts.config.memory.enabled) {
      this.conversation.memory = () => {
        const block = this.memory.inject(opts.config.memory.max_inject_chars);
        return block === '' ? null : block;
      };
    }
    this.mcp = createRegistry(opts.config, opts.env, opts.version, this.render);
    this.conversation.tools = mcpToolHost(this.mcp);
  }

  /** The directory shell lines run in. */
  get cwd(): string {
    return this.#shell.cwd;
  }

  /** The exit status of the last shell line. */
  get lastStatus(): number {
    return this.#lastStatus;
  }

  /** Runs the read-eval loop until end of input or :quit; resolves to the exit code. */
  async run(): Promise<number> {
    this.#reader = await this.#createReader();
    if (this.#io.isTTY) this.#banner();
    await connectConfiguredServers(this.mcp, this.config, this.#io, this.render);
    if (this.#opts.resume !== undefined) await this.handleLine(`:resume ${this.#opts.resume}`);
    // Load the HTTP client while the person is still reading the prompt, not on the first question.
    if (this.#io.isTTY) setTimeout(() => void preloadBroker(), 150).unref();
    try {
      while (!this.#quitting) {
        const line = await this.#readLogicalLine(this.#reader);
        if (line === null) break;
        this.#reader.suspend();
        await this.handleLine(line);
      }
    } finally {
      this.#reader.close();
      this.conversation.close();
      await this.mcp.closeAll();
      if (this.#io.isTTY) this.render.endLine();
      await this.#historySave;
    }
    return this.#exitCode;
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
      const route = classify(raw, this.config);
      switch (route.kind) {
        case 'blank':
          return;
        case 'meta':
          await dispatchMeta(stripContinuations(route.payload), this, controller.signal);
          return;
        case 'shell':
          await this.runShellLine(route.payload, controller.signal);
          return;
        case 'ai':
          await this.askModel(stripContinuations(route.payload), controller.signal);
          return;
      }
    } catch (err) {
      if (controller.signal.aborted) this.render.status('cancelled');
      else this.render.error(describeError(err, this.#opts.env));
    } finally {
      this.#current = null;
    }
  }

  async runShellLine(command: string, signal: AbortSignal): Promise<void> {
    const builtin = matchBuiltin(command);
    if (builtin) {
      const result = await runBuiltin(builtin.name, builtin.rest, this.#shell);
      this.#lastStatus = result.status;
      if (result.output) this.render.info(result.output);
      if (result.error) this.render.error(result.error);
      return;
    }
    const tty = this.#io.isTTY;
    const interactive = tty && isInteractiveCommand(command, this.config.shell.interactive);
    let hidden = false;
    this.render.execBegin(command);
    const result = await runShell(command, {
      cwd: this.#shell.cwd,
      env: this.#shell.env,
      program: this.config.shell.program ?? this.#shell.env.SHELL ?? '/bin/sh',
      interactive,
      stdin: tty ? 'inherit' : 'ignore',
      // On a terminal the child shares aish's process group, so Ctrl-C reaches it from the
      // terminal itself; from a pipe aish forwards the interrupt to the child's own group.
      detached: !tty,
      captureMaxChars: this.config.shell.capture_max_chars,
      onOutput: (text) => {
        if (!hidden && text.includes('\0')) hidden = true;
        if (!hidden) this.render.execOutput(text);
      },
      signal,
    });
    this.render.execEnd(result);
    this.#lastStatus = result.exitCode;
    if (hidden) this.render.status('binary output not shown and not captured');
    else if (result.truncated) this.render.status(`output capped at ${this.config.shell.capture_max_chars} chars for the model (head and tail kept)`);
    this.conversation.pending.append(result.output);
  }

  async askModel(text: string, signal: AbortSignal): Promise<void> {
    this.#turn++;
    await this.conversation.ask(text, this.activeModel, signal);
  }

  async summarizeMemory(signal: AbortSignal): Promise<void> {
    await summarizeMemory({
      config: this.config,
      env: this.#opts.env,
      store: this.memory,
      sessionFile: this.conversation.sessionFile,
      turns: this.conversation.context.turns,
      ask: this.#io.isTTY ? (question) => this.#reader?.ask(question) ?? Promise.resolve(null) : null,
      render: this.render,
      signal,
    });
  }

  #secondOpinionFn: ((command: string, signal: AbortSignal) => Promise<boolean>) | null = null;

  /** The `deep` preset's opinion (else the default preset's), cached for the session. */
  #secondOpinion(): (command: string, signal: AbortSignal) => Promise<boolean> {
    const model = this.config.models.deep ?? this.config.models[this.config.default_model]!;
    this.#secondOpinionFn ??= createSecondOpinion(model, this.#opts.env);
    return this.#secondOpinionFn;
  }

  get norrisRunning(): boolean {
    return this.#norris;
  }

  async runNorris(goal: string, signal: AbortSignal): Promise<void> {
    if (this.#norris) throw new UsageError('Norris is already running');
    this.#norris = true;
    const conversation = this.conversation;
    try {
      const end = await runNorris(
        goal,
        {
          request: (content, gate, norrisSuffix, s) => conversation.request(content, this.activeModel, s, { gate, maxDepth: 1, norrisSuffix }),
          runCommand: (command, s) => this.runShellLine(command, s),
          note: (text) => conversation.pending.append(text),
          ask: this.#io.isTTY ? (question) => this.#reader?.ask(question) ?? Promise.resolve(null) : null,
          status: (message) => this.render.status(message),
          setSummarizing: (enabled) => conversation.context.setSummarizing(enabled),
          autoApprove: this.config.mcp.auto_approve,
          maxSteps: this.config.norris.max_steps,
          ...(this.config.norris.second_opinion ? { secondOpinion: this.#secondOpinion() } : {}),
        },
        signal,
      );
      const words: Record<typeof end, string> = {
        done: 'done: GOAL: complete',
        stalled: 'stalled: a reply with no action and no goal line',
        aborted: 'aborted',
        halted: 'halted',
        budget: `stopped: norris.max_steps (${this.config.norris.max_steps}) spent`,
        error: 'stopped by a model error',
      };
      this.render.status(`[Norris] ${words[end]}`);
    } finally {
      this.#norris = false;
    }
  }

  resetConversation(): void {
    this.conversation.reset();
    this.#turn = 0;
  }

  clearScreen(): void {
    if (this.#io.isTTY) this.#io.output.write('\x1b[H\x1b[2J');
  }

  quit(): void {
    this.#quitting = true;
    this.#reader?.close();
  }

  /** The prompt: `[aish:<model>]> ` or the `shell.prompt` template. */
  prompt(): string {
    const template = this.config.shell.prompt;
    const routing = `${this.conversation.routing.auto ? ' ↻' : ''}${this.#norris ? ' ⚡' : ''}`;
    if (!template) return `${this.render.style.bold(`[aish:${this.activeModel}${routing}]`)}> `;
    const home = this.#shell.env.HOME;
    const cwd = this.#shell.cwd;
    const values: Record<string, string> = {
      model: this.activeModel,
      cwd,
      cwd_short: home && (cwd === home || cwd.startsWith(home + path.sep)) ? `~${cwd.slice(home.length)}` : cwd,
      ctx_used: String(this.conversation.context.estimateTokens()),
      ctx_max: String(this.config.context.token_budget),
      turn: String(this.#turn),
      last_status: String(this.#lastStatus),
      mode: this.#norris ? 'norris' : this.conversation.routing.auto ? 'route' : '',
    };
    return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
  }

  async #readLogicalLine(reader: LineReader): Promise<string | null> {
    const parts: string[] = [];
    let prompt = this.#io.isTTY ? this.prompt() : '';
    for (;;) {
      const line = await reader.read(prompt);
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
    const file = this.#historyFile();
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
      completer: (line) => {
        if (line.startsWith(':')) return completeMeta(line, this);
        const route = classify(line, this.config);
        // The first word of anything may be a command; later words complete on a shell line only.
        if (route.kind === 'shell' || !/\s/.test(line.trim())) {
          return this.#completer.complete(line, { cwd: this.#shell.cwd, env: this.#shell.env, knownCommands: this.config.shell.known_commands });
        }
        return [[], line];
      },
      onHistory: (entries) => {
        const entry = entries[0];
        if (!file || entry === undefined) return;
        this.#historySave = this.#historySave
          .then(() => appendInputHistory(file, entry, size))
          .catch((err) => {
            if (this.#historyWarned) return;
            this.#historyWarned = true;
            this.render.status(`input history not saved: ${errorMessage(err)}`);
          });
      },
      onInterrupt: () => this.interrupt(),
    });
  }

  #historyDir(): string | undefined {
    const dir = this.config.history.dir;
    if (!dir) return this.#opts.stateDir;
    const home = this.#opts.env.HOME;
    if (home && (dir === '~' || dir.startsWith('~/'))) return path.join(home, dir.slice(1));
    return path.resolve(this.#opts.cwd, dir);
  }

  #historyFile(): string | undefined {
    const dir = this.#historyDir();
    return dir ? path.join(dir, 'input_history') : undefined;
  }

  #banner(): void {
    const m = this.config.models[this.activeModel]!;
    const from = this.#opts.configFile ? `config ${this.#opts.configFile}` : 'no config file';
    this.render.status(`aish ${this.#opts.version}: ${this.activeModel} = ${m.model} at ${m.endpoint} (${from}); :help for commands`);
  }
}

/** The session's MCP registry, with the `mcp.*` settings of the config. */
export function createRegistry(config: Config, env: Record<string, string | undefined>, version: string, render: Renderer): McpRegistry {
  return new McpRegistry({
    env,
    clientVersion: version,
    onStatus: (message) => render.status(message),
    callTimeoutMs: config.mcp.call_timeout_ms,
    maxResultChars: config.mcp.max_result_chars,
  });
}

/** Connects `mcp.servers` in parallel, best effort: one status line per failure (SPEC §6). */
export async function connectConfiguredServers(registry: McpRegistry, config: Config, io: Io, render: Renderer): Promise<void> {
  const count = Object.keys(config.mcp.servers).length;
  if (count === 0) return;
  const spinner = new Spinner(io, (s) => render.style.dim(s));
  spinner.start(`connecting ${count} MCP server${count === 1 ? '' : 's'}`);
  try {
    const failures = await registry.connectAll(config.mcp.servers);
    spinner.stop();
    for (const failure of failures) render.error(failure.error.message);
  } finally {
    spinner.stop();
  }
}

/** Continuation lines of a prompt: `\` + newline becomes a newline. */
function stripContinuations(text: string): string {
  return text.replace(/\\\n/g, '\n');
}

/** One line for the person: the message of a known error, more only with AISH_DEBUG. */
export function describeError(err: unknown, env: Record<string, string | undefined>): string {
  if (err instanceof AishError) return err.message;
  const base = `internal error: ${errorMessage(err)}`;
  return env.AISH_DEBUG && err instanceof Error && err.stack ? `${base}\n${err.stack}` : base;
}
