// The read-eval loop (SPEC §2): reads logical lines (repl/input.ts), sends each to the shell, a
// meta command or the model as the line router says, and shows the prompt. Each line gets its own
// AbortController: Ctrl-C (SIGINT from main.ts, or the terminal during a question) aborts it, and
// everything working on that line takes the signal. Meta commands get their own ports
// (src/meta/types.ts), never the loop.

import { preloadBroker } from '../broker/stream.js';
import type { Config } from '../config/schema.js';
import { FatalError, describeError } from '../errors.js';
import type { SessionStore } from '../history/session.js';
import type { Io } from '../io.js';
import { asksShell, classify, flipRoute, misfiredProse, type Route } from '../line-router.js';
import type { McpRegistry } from '../mcp/registry.js';
import { BackgroundConnect, connectConfiguredServers } from '../mcp/startup.js';
import { dispatchMeta } from '../meta/dispatch.js';
import type { BoundCommand } from '../meta/types.js';
import type { Renderer } from '../render/renderer.js';
import { plainQuestion } from '../safety/confirm.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import type { TurnCore } from '../turn/core.js';
import type { Checkpoints } from '../undo/checkpoints.js';
import type { Conversation } from './conversation.js';
import type { ReaderSetup, ReplInput } from './input.js';
import { shellWantsMore } from '../shell/incomplete.js';
import { RouteSigns } from './route-sign.js';
import { ShellFollow } from './shell-follow.js';

/** On a terminal, how long after the prompt the session's shell starts (unless a line needs it first). */
const SHELL_START_DELAY_MS = 100;
/** How long a typed line waits for a shell still starting to say what its first word is. */
const ROUTE_WAIT_MS = 2000;

export interface ReplParts {
  io: Io;
  config: Config;
  env: Record<string, string | undefined>;
  render: Renderer;
  input: ReplInput;
  /** What the line reader is opened with (Ctrl-C during a question comes back to `interrupt`). */
  reader: Omit<ReaderSetup, 'onInterrupt' | 'sign' | 'incomplete' | 'mode'>;
  commands: readonly BoundCommand[];
  conversation: Pick<Conversation, 'ask' | 'activeModel'>;
  /** The exec output of a line that was a question after all is taken back; the budget is asked for early. */
  core: Pick<TurnCore, 'pending' | 'useBudgetOf'>;
  sessions: Pick<SessionStore, 'close'>;
  shell: ShellRunner;
  mcp: McpRegistry;
  undo: Pick<Checkpoints, 'around' | 'settled'>;
  /** The prompt as it reads now. */
  prompt: () => string;
  /** `--resume [NAME|last]`. */
  resume: string | undefined;
  /** The start-up line on a terminal. */
  banner: string;
  /** The banner and a first prompt are on the screen already (front.ts): this prompt replaces it. */
  promptShown?: boolean;
}

export class Repl {
  readonly render: Renderer;
  readonly #parts: ReplParts;
  #current: AbortController | null = null;
  /** On a terminal, the configured MCP servers connecting behind the prompt. */
  #mcpStart: BackgroundConnect | null = null;
  /** What the line follows of the session's shell: its editing mode and history. */
  readonly #follow: ShellFollow;

  constructor(parts: ReplParts) {
    this.#parts = parts;
    this.render = parts.render;
    this.#follow = new ShellFollow(parts.shell, parts.input, parts.reader.historySize);
  }

  /** Runs the loop until end of input or :quit; resolves to the exit code. */
  async run(): Promise<number> {
    const { io, input, shell, mcp, config } = this.#parts;
    // The start-up file's prompt gives way: what is written next starts on its line.
    if (this.#parts.promptShown) io.output.write('\r\x1b[2K');
    const signs = new RouteSigns(config, shell, () => input.refresh());
    await input.open({
      ...this.#parts.reader,
      onInterrupt: () => this.interrupt(),
      sign: (line) => signs.sign(line),
      incomplete: async (text) => (await this.route(text)).kind === 'shell' && (await shellWantsMore(text, this.#parts.env.PATH)),
      mode: () => this.#follow.mode,
    });
    if (io.isTTY && !this.#parts.promptShown) this.render.status(this.#parts.banner);
    // The session's shell starts behind the prompt: only the first shell line waits for it. On a
    // terminal it starts a moment later (or with the first line that needs it), so the first keys
    // typed are echoed before its start-up takes the event loop.
    const startShell = () => {
      shell.startSession();
      if (io.isTTY) this.#follow.started();
    };
    if (io.isTTY) setTimeout(startShell, SHELL_START_DELAY_MS).unref();
    else startShell();
    // On a terminal the prompt comes first and the servers connect behind it; a script's lines
    // still run against a session whose servers are connected, as before.
    if (io.isTTY) this.#mcpStart = new BackgroundConnect(mcp, config);
    else await connectConfiguredServers(mcp, config, this.render);
    // While the person reads the prompt: load the HTTP client, ask the model's server its context.
    if (io.isTTY) setTimeout(() => (void preloadBroker(), this.#parts.core.useBudgetOf(this.#parts.conversation.activeModel)), 150).unref();
    try {
      if (this.#parts.resume !== undefined) await this.#resumeAtStart(this.#parts.resume);
      for (;;) {
        if (io.isTTY) await this.#follow.beforePrompt();
        const line = await input.nextLine(this.#parts.prompt, async (typed) => (await this.route(typed)).kind === 'ai');
        if (line === null) break;
        await this.handleLine(line, input.flipped);
      }
    } finally {
      input.close();
      // The last command's checkpoint is still being written.
      await this.#parts.undo.settled();
      const shellClosed = shell.close();
      this.#parts.sessions.close();
      await this.#mcpStart?.stop();
      await mcp.closeAll();
      await shellClosed;
      if (io.isTTY) this.render.endLine();
      await input.saved();
    }
    return input.exitCode;
  }

  /** `--resume NAME|last`, as `:resume` does it; a session that cannot be resumed is a usage error (exit 2). */
  async #resumeAtStart(name: string): Promise<void> {
    try {
      await dispatchMeta(`resume ${name}`, this.#parts.commands, new AbortController().signal);
    } catch (err) {
      throw new FatalError(`--resume: ${describeError(err, this.#parts.env)}`, 2);
    }
  }

  /** Ctrl-C or SIGINT from outside: cancels the line being processed; when idle on a pipe, ends. */
  interrupt(): void {
    if (this.#current) {
      this.#current.abort();
      return;
    }
    if (!this.#parts.io.isTTY) this.#parts.input.quit(130);
  }

  /** aish was stopped (SIGTSTP from outside) and continued: the terminal is taken back. */
  continued(): void {
    this.#parts.input.continued();
  }

  /**
   * Processes one logical input line. Never throws: errors become status lines. `flipped` (Alt-Enter)
   * sends it the other way than its route: a shell line to the model, any other to the shell.
   */
  async handleLine(raw: string, flipped = false): Promise<void> {
    const controller = new AbortController();
    this.#current = controller;
    try {
      await this.#runInput(raw, controller.signal, flipped);
    } catch (err) {
      if (controller.signal.aborted) this.render.status('cancelled');
      else this.render.error(describeError(err, this.#parts.env));
    } finally {
      this.#current = null;
    }
  }

  /** One input as typed, on the line's signal: to the shell, a meta command or the model. */
  async #runInput(raw: string, signal: AbortSignal, flipped: boolean): Promise<void> {
    const route = flipped ? flipRoute(await this.route(raw)) : await this.route(raw);
    // Model lines and meta commands may use the MCP servers: they wait for them. A shell line
    // does not, but hears of failed connections first.
    if (route.kind === 'ai' || route.kind === 'meta') {
      await this.#mcpStart?.ready(this.render, signal);
      // Programs aish starts and the redactor see what the shell exports now.
      await this.#parts.shell.syncEnv();
      signal.throwIfAborted();
    } else {
      this.#mcpStart?.report(this.render);
    }
    switch (route.kind) {
      case 'blank':
        return;
      case 'meta':
        await dispatchMeta(stripContinuations(route.payload), this.#parts.commands, signal);
        return;
      case 'shell':
        // Typed with a leading space, it stays out of the shell's history as out of aish's.
        await this.#runShellLine(route.payload, route.rule === 'known-command' || route.rule === 'shell-knows', signal, raw.startsWith(' '));
        return;
      case 'ai':
        await (route.rule === 'explain' /* a lone `?` */ ? dispatchMeta('explain', this.#parts.commands, signal) : this.#parts.conversation.ask(stripContinuations(route.payload), signal));
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
    const { config, shell } = this.#parts;
    const word = asksShell(raw, config);
    const context = shell.routeContext();
    if (word === null) return classify(raw, config, undefined, context);
    if (config.shell.known_commands.includes(word) && shell.knownKind(word) === undefined) return classify(raw, config, undefined, context);
    const kind = await shell.wordKind(word, this.#parts.io.isTTY ? ROUTE_WAIT_MS : Infinity);
    return classify(raw, config, (w) => (w === word ? kind : undefined), context);
  }

  /**
   * A typed shell line. One that starts with a known command but reads as English and fails at
   * once (`make it faster`) was probably a question: on a terminal, the person is offered to ask
   * the model instead, and the failed run is then left out of what the model is sent.
   */
  async #runShellLine(line: string, knownCommand: boolean, signal: AbortSignal, outOfHistory: boolean): Promise<void> {
    const { shell, core, input } = this.#parts;
    let started = Date.now();
    const before = core.pending.text;
    // With `undo.typed`, a typed line gets a checkpoint too. "Fails at once" is timed from the
    // command's start: a first line also waits for the shell to start, which says nothing of it.
    await this.#parts.undo.around({ command: line, origin: 'typed' }, shell.cwd, () => shell.run(line, signal, { outOfHistory, onStart: () => (started = Date.now()) }));
    if (!this.#parts.io.isTTY || !knownCommand || signal.aborted) return;
    if (!misfiredProse(line, shell.lastStatus, Date.now() - started)) return;
    const answer = await input.askKey(plainQuestion('ask the model instead? [Y/n] ', 'yn', 'y'));
    if (answer !== 'y' || signal.aborted) return;
    core.pending.rollback(before);
    await this.#parts.conversation.ask(line, signal);
  }

  /**
   * Ends the session from outside (the terminal went away, SIGHUP, SIGTERM): the shell command
   * running now is stopped whatever its process group, the line being processed is aborted
   * (model request, MCP call), and `run()` resolves to `exitCode` once the session log and the
   * MCP sessions are closed.
   */
  shutdown(exitCode: number): void {
    this.#parts.input.quit(exitCode);
    this.#parts.shell.terminate();
    this.#current?.abort();
  }
}

/** Continuation lines of a prompt: `\` + newline becomes a newline. */
function stripContinuations(text: string): string {
  return text.replace(/\\\n/g, '\n');
}
