// The conversation a REPL session carries: the context store, the pending exec output, the session
// log (created on the first turn) and the AI request that ties them to the broker, the tool loop
// and the screen. One instance per aish process.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sessionsDir } from '../history/format.js';
import { BrokerError } from '../broker/errors.js';
import { chat, chatStream } from '../broker/stream.js';
import { classifyModel } from '../routing/classify.js';
import { withFallback } from '../routing/fallback.js';
import { buildSummaryRequest } from '../routing/summarize-prompt.js';
import type { BrokerEvent, ToolCall } from '../broker/types.js';
import type { Config } from '../config/schema.js';
import { Context } from '../context/context.js';
import { mergeUserTurn, PendingOutput } from '../context/pending-output.js';
import { composeSystemMessage, DEFAULT_SYSTEM_PROMPT } from '../context/system-prompt.js';
import type { Turn } from '../context/turns.js';
import { UsageError, errorMessage } from '../errors.js';
import { listSessions, resolveSession, type SessionInfo } from '../history/list.js';
import { loadSession } from '../history/load.js';
import { SessionLog } from '../history/session-log.js';
import type { Io } from '../io.js';
import { ReplyRenderer } from '../render/reply.js';
import type { Renderer } from '../render/renderer.js';
import { neutralize } from '../render/sanitize.js';
import { Spinner } from '../render/spinner.js';
import { confirmCommand, type AskFn } from '../safety/confirm.js';
import { ConfirmToolGate } from '../safety/tool-gate.js';
import { extractCmdLines } from '../tools/cmd-lines.js';
import { noTools } from '../tools/no-tools.js';
import { runRequest, type RequestResult } from '../tools/turn-loop.js';
import type { ModelClient, ToolGate, ToolHost, ToolOutcome, TurnObserver } from '../tools/types.js';

export interface ConversationOptions {
  config: Config;
  env: Record<string, string | undefined>;
  io: Io;
  render: Renderer;
  /** Where sessions/ lives; undefined turns the session log off. */
  historyDir: string | undefined;
  version: string;
  startedAt: Date;
  /** Asks the person (confirms); null when nobody can answer. */
  ask: AskFn | null;
  /** Runs an approved CMD: line exactly as a typed shell line. */
  runShellLine(command: string, signal: AbortSignal): Promise<void>;
  /** Whether CMD: lines are run after a reply (false in one-shot mode: printed only). */
  runCommands: boolean;
  /** Whether to keep a session log (false in one-shot mode). */
  logSessions: boolean;
}

/** Routing switches of this session (`:route on|off`, `:fallback on|off`), from the config. */
export interface RoutingState {
  auto: boolean;
  cloudFallback: boolean;
}

export class Conversation {
  readonly context: Context;
  readonly pending = new PendingOutput();
  readonly routing: RoutingState;
  tools: ToolHost = noTools;
  /** The `[background]` memory block for the next request (empty or null when none). */
  memory: (() => string | null) | null = null;
  readonly #opts: ConversationOptions;
  readonly #gate: ConfirmToolGate;
  #log: SessionLog | null = null;
  #logProblemShown = false;

  constructor(opts: ConversationOptions) {
    this.#opts = opts;
    const c = opts.config.context;
    this.routing = { auto: opts.config.routing.auto, cloudFallback: opts.config.routing.cloud_fallback };
    this.context = new Context({
      ...(c.summarize_on_evict ? { summarize: (prior, evicted) => this.#summarize(prior, evicted) } : {}),
      maxTurns: c.max_turns,
      tokenBudget: c.token_budget,
      useToolRole: c.use_tool_role,
      maxSummaryChars: c.max_summary_chars,
      onStatus: (kind, message) => (kind === 'context' ? opts.render.context(message) : opts.render.status(message)),
      onSummary: (summary) => this.#log?.appendSummary(summary),
    });
    this.#gate = new ConfirmToolGate({
      policy: opts.config.mcp.auto_approve,
      ask: opts.ask,
      show: (text) => opts.render.info(opts.render.style.dim(neutralize(text))),
    });
  }

  /** The active session file, if one was written. */
  get sessionFile(): string | null {
    return this.#log?.file ?? null;
  }

  /**
   * Sends `text` to `modelName` as the next user turn, with the pending exec output in front; runs
   * the tool loop, then offers the reply's CMD: lines. On a model error the user turn is removed
   * and the pending output restored, so a retry loses nothing. Never rejects for model errors.
   */
  async ask(text: string, modelName: string, signal: AbortSignal): Promise<RequestResult> {
    const { render, config } = this.#opts;
    // Routing picks the preset once per user request; the whole tool sub-loop stays on it.
    const route = classifyModel(text, { routing: { auto: this.routing.auto, classes: config.routing.classes } });
    if (route.preset && route.preset !== modelName && config.models[route.preset]) {
      modelName = route.preset;
      render.status(`routed to ${modelName}`);
    }
    const result = await this.request(text, modelName, signal);
    if (result.outcome === 'done' || result.outcome === 'depth-limit') await this.#offerCommands(result.text, signal);
    return result;
  }

  /**
   * One model request with the tool loop: `text` (null: continue after tool results) becomes the
   * user turn with the pending exec output in front. A failure is shown, the user turn removed and
   * the pending output restored. Options let Norris use its own gate, depth and system suffix.
   */
  async request(
    text: string | null,
    modelName: string,
    signal: AbortSignal,
    options: { gate?: ToolGate; maxDepth?: number; norrisSuffix?: string } = {},
  ): Promise<RequestResult> {
    const { render, config } = this.#opts;
    const taken = text === null ? '' : this.pending.take();
    const fallbackName = config.routing.fallback_model;
    const client = withFallback(
      this.#modelClient(modelName),
      fallbackName ? this.#modelClient(fallbackName) : undefined,
      () => this.routing.cloudFallback,
      (message) => render.status(message),
    );
    const stats: TurnStats = { started: Date.now(), promptTokens: 0, completionTokens: 0, usageSeen: false, toolCalls: 0 };
    const result = await runRequest(
      {
        context: this.context,
        model: client,
        tools: this.tools,
        gate: options.gate ?? this.#gate,
        observer: this.#observer(stats),
        system: () =>
          composeSystemMessage({
            basePrompt: DEFAULT_SYSTEM_PROMPT,
            memory: options.norrisSuffix ? null : (this.memory?.() ?? null),
            summary: this.context.summary,
            norrisSuffix: options.norrisSuffix ?? null,
          }),
        maxDepth: options.maxDepth ?? config.mcp.max_tool_depth,
        quietDepthLimit: options.maxDepth !== undefined,
      },
      text === null ? null : mergeUserTurn(taken, text),
      signal,
    );
    switch (result.outcome) {
      case 'failed':
        if (result.userTurnRemoved) this.pending.restore(taken);
        render.error(`${errorMessage(result.error)}${failureHint(result.error, modelName, config)}`);
        break;
      case 'cancelled':
        render.status('cancelled');
        break;
      case 'done':
      case 'depth-limit':
        if (config.ui.show_stats) render.status(formatStats(stats));
        break;
    }
    return result;
  }

  async #offerCommands(text: string, signal: AbortSignal): Promise<void> {
    const { config, ask, render } = this.#opts;
    if (!this.#opts.runCommands) return;
    for (const command of extractCmdLines(text)) {
      if (signal.aborted) return;
      let approved = !config.shell.confirm_cmd;
      if (!approved) {
        approved = await confirmCommand(command, ask ?? (async () => null));
        if (!ask) render.status(`execute '${command}'? [y/N] n (input is not a terminal)`);
      }
      if (signal.aborted) return;
      if (!approved) {
        render.status(`skipped: ${command}`);
        continue;
      }
      await this.#opts.runShellLine(command, signal);
    }
  }

  /** Empties the conversation and the pending buffer (memory and project context survive). */
  reset(): void {
    this.context.reset();
    this.pending.clear();
    this.#log?.appendEvent('reset');
  }

  /** Sessions on disk, newest first, with the active one marked. */
  async sessions(): Promise<SessionInfo[]> {
    const dir = this.#requireHistoryDir();
    return listSessions(dir, this.sessionFile);
  }

  /** Session names on disk (for Tab completion), without reading the files. */
  sessionNames(): string[] {
    const dir = this.#opts.historyDir;
    if (!dir) return [];
    try {
      return readdirSync(sessionsDir(dir))
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => f.slice(0, -'.jsonl'.length));
    } catch {
      return [];
    }
  }

  /** `:save <name>`: renames the active log and keeps appending to it. */
  save(name: string): string {
    const log = this.#ensureLog();
    if (!log?.enabled) throw new UsageError('session history is off; nothing to save');
    return log.rename(name);
  }

  /**
   * Loads a session's turns (and summary) into the empty conversation and writes them into the
   * active log, so it is complete on its own. Refuses while the conversation is not empty.
   */
  async resume(nameOrLast: string): Promise<{ file: string; turns: number; warnings: string[]; repaired: number }> {
    if (this.context.length > 0) throw new UsageError('the conversation is not empty (:reset first)');
    const dir = this.#requireHistoryDir();
    const file = await resolveSession(dir, nameOrLast, this.sessionFile);
    const loaded = await loadSession(file, { keepTurns: this.context.maxTurns * 4 });
    this.context.appendMany(loaded.turns);
    if (loaded.summary) this.context.setSummary(loaded.summary);
    const log = this.#ensureLog();
    if (log) {
      log.appendEvent('resumed', { from: path.basename(file) });
      if (loaded.summary) log.appendSummary(loaded.summary);
      for (const turn of this.context.turns) log.appendTurn(turn);
    }
    return { file, turns: this.context.length, warnings: loaded.warnings, repaired: loaded.repaired.length };
  }

  close(): void {
    this.#log?.close();
  }

  #requireHistoryDir(): string {
    const dir = this.#opts.historyDir;
    if (!dir) throw new UsageError('session history is off (no history directory)');
    return dir;
  }

  #ensureLog(): SessionLog | null {
    if (!this.#opts.logSessions) return null;
    if (this.#log) return this.#log;
    const { log, problem } = SessionLog.create({
      dir: this.#opts.historyDir,
      startedAt: this.#opts.startedAt,
      model: this.#opts.config.default_model,
      version: this.#opts.version,
      onProblem: (message) => this.#opts.render.status(message),
    });
    this.#log = log;
    if (problem && !this.#logProblemShown) {
      this.#logProblemShown = true;
      this.#opts.render.status(problem);
    }
    return log;
  }

  /**
   * The summarizer behind `context.summarize_on_evict` (seed 002 §6): a non-streaming call to
   * `context.summarizer_model` (else the default preset), at most 300 tokens, 30 s. null on any
   * failure, which the context turns into silent eviction and one status line.
   */
  async #summarize(prior: string | null, evicted: readonly Turn[]): Promise<string | null> {
    const { config, env } = this.#opts;
    const name = config.context.summarizer_model ?? config.default_model;
    const model = config.models[name];
    if (!model) return null;
    const result = await chat({ ...model, max_tokens: 300, timeout_ms: 30_000 }, buildSummaryRequest(prior, evicted), {
      env,
      signal: AbortSignal.timeout(30_000),
    });
    const text = result.text.trim();
    return text === '' ? null : text;
  }

  #modelClient(name: string): ModelClient {
    const model = this.#opts.config.models[name];
    if (!model) throw new UsageError(`no preset named "${name}"`);
    const env = this.#opts.env;
    return {
      name,
      // Usage figures are asked for only when they are shown (`ui.show_stats`).
      stream: (messages, onEvent, opts) =>
        chatStream(model, messages, onEvent, {
          env,
          ...opts,
          ...(this.#opts.config.ui.show_stats ? { extraBody: { stream_options: { include_usage: true } } } : {}),
        }),
    };
  }

  #observer(stats: TurnStats): TurnObserver {
    const { render, io } = this.#opts;
    const spinner = new Spinner(io, (s) => render.style.dim(s));
    let reply = new ReplyRenderer(render);
    const toolStarted = new Map<string, number>();
    return {
      requestStart: (depth) => {
        reply = new ReplyRenderer(render);
        spinner.start(depth === 0 ? 'thinking' : 'thinking (tool results sent)');
      },
      event: (e: BrokerEvent) => {
        switch (e.type) {
          case 'text':
            spinner.stop();
            reply.text(e.text);
            break;
          case 'reasoning':
            spinner.stop();
            reply.reasoning(e.text);
            break;
          case 'tool_call':
            if (e.name) spinner.start(`preparing a call to ${e.name}`);
            break;
          case 'warning':
            spinner.stop();
            reply.finish();
            render.status(e.message);
            break;
          case 'usage':
            stats.usageSeen = true;
            stats.promptTokens += e.usage.prompt_tokens ?? 0;
            stats.completionTokens += e.usage.completion_tokens ?? 0;
            break;
        }
      },
      requestEnd: () => {
        spinner.stop();
        reply.finish();
      },
      toolBegin: (call: ToolCall, args) => {
        stats.toolCalls++;
        toolStarted.set(call.id, Date.now());
        render.toolBegin(call.name, args === undefined ? call.arguments : JSON.stringify(args));
        spinner.start(`running ${call.name}`);
      },
      toolEnd: (call: ToolCall, outcome: ToolOutcome) => {
        spinner.stop();
        const ms = Date.now() - (toolStarted.get(call.id) ?? Date.now());
        render.toolBody(outcome.display ?? shorten(outcome.content));
        for (const notice of outcome.notices ?? []) render.status(notice);
        const ok = outcome.status === 'ok' && !outcome.isError;
        render.toolEnd(`${outcome.isError ? 'error (reported by the tool)' : outcome.status} · ${ms} ms`, ok);
      },
      status: (message) => render.status(message),
      persist: (turn: Turn) => this.#ensureLog()?.appendTurn(turn),
      audit: (record) => this.#ensureLog()?.appendToolAudit(record),
    };
  }
}

interface TurnStats {
  started: number;
  promptTokens: number;
  completionTokens: number;
  usageSeen: boolean;
  toolCalls: number;
}

/** The one-line summary after a reply: `812 → 64 tokens · 1 tool call · 2.3 s`. */
export function formatStats(stats: TurnStats, now = Date.now()): string {
  const parts: string[] = [];
  if (stats.usageSeen) parts.push(`${stats.promptTokens} → ${stats.completionTokens} tokens`);
  parts.push(`${stats.toolCalls} tool call${stats.toolCalls === 1 ? '' : 's'}`);
  parts.push(`${((now - stats.started) / 1000).toFixed(1)} s`);
  return parts.join(' · ');
}

/** For a server that cannot be reached: which preset and URL, and what to do about it. */
function failureHint(err: unknown, modelName: string, config: Config): string {
  if (!(err instanceof BrokerError) || err.kind !== 'transport' || err.status !== undefined) return '';
  const model = config.models[modelName];
  return model ? ` (${modelName} at ${model.endpoint}: is the server running? :models lists presets; OPENAI_BASE_URL or a config file changes them)` : '';
}

/** At most a few lines of a tool result for the frame; the model gets all of it. */
function shorten(text: string, maxLines = 8, maxChars = 800): string {
  let out = text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
  const lines = out.split('\n');
  if (lines.length > maxLines) out = `${lines.slice(0, maxLines).join('\n')}\n… (${lines.length - maxLines} more lines)`;
  return out;
}
