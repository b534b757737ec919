// The turn core: what happens when a line goes to the model. It picks the preset (routing), sends
// the conversation with the pending exec output in front (falling back to the cloud preset when
// allowed), runs the tool sub-loop, and offers the reply's `CMD:` lines. It has no terminal: it
// reports through a TurnObserver, asks through the AskFn it is given, and records through the
// session recorder. The REPL, one-shot `-p` and Norris all drive this one core.

import { BrokerError } from '../broker/errors.js';
import { extractCmdLines } from '../cmd-contract.js';
import type { ChatMessage } from '../broker/types.js';
import type { Config } from '../config/schema.js';
import { DEFAULT_TOKEN_BUDGET } from '../config/defaults.js';
import { Context } from '../context/context.js';
import { mergeUserTurn, type PendingOutput } from '../context/pending-output.js';
import { budgetFromContextLength, pendingShareChars, PresetBudgets } from '../context/preset-budgets.js';
import { createSummarizer } from '../context/summarizer.js';
import { composeSystemMessage, DEFAULT_SYSTEM_PROMPT } from '../context/system-prompt.js';
import { AishError, errorMessage } from '../errors.js';
import type { SessionRecorder } from '../history/session.js';
import { classifyModel } from '../model-routing/classify.js';
import { withFallback } from '../model-routing/fallback.js';
import { withRetryAfter } from '../model-routing/retry-after.js';
import type { AskOnceLimits, ModelAccess } from './model-client.js';
import { CUT_MARK, runRequest, type RequestResult } from './tool-loop.js';
import type { UsageLedger } from './usage.js';
import type { ApprovalGate, ToolGate } from '../safety/gate.js';
import { reasonToShow } from '../safety/policy.js';
import type { ToolHost, TurnObserver } from './types.js';

/** Runs an approved `CMD:` line exactly as a typed shell line (builtins, frame, pending output). */
export interface CommandRunner {
  run(command: string, signal: AbortSignal): Promise<void>;
}

/** Routing switches of this session (`:route on|off`, `:fallback on|off`), from the config. */
export interface RoutingState {
  auto: boolean;
  cloudFallback: boolean;
}

export interface TurnCoreParts {
  config: Config;
  /** The model presets: streamed requests and one-question summaries. */
  models: ModelAccess;
  /** The exec output waiting for the next user turn; the shell runner appends to the same one. */
  pending: PendingOutput;
  tools: ToolHost;
  /** The one approval gate: `CMD:` lines and tool calls outside Norris (Norris brings its own tool gate). */
  gate: ApprovalGate;
  /** Runs approved `CMD:` lines; null prints them only (one-shot). */
  commands: CommandRunner | null;
  /** Keeps turns, audits and summaries (the session log); null keeps nothing. */
  recorder: SessionRecorder | null;
  /** The `[background]` memory block for the next request; null or '' when none. */
  background: () => string | null;
  /** The `[project]` block for the next request (the current directory's work tree); null outside one. */
  project: () => Promise<string | null>;
  observer: TurnObserver;
  /** Nobody will ever be asked (`aish -p`): a tool call that needs approval ends `needs_approval`. */
  unattended?: boolean;
}

/** What Norris changes for its steps: its own gate, one round trip, and the goal in the system message. */
export interface RequestOptions {
  gate?: ToolGate;
  maxDepth?: number;
  norrisSuffix?: string;
}

export class TurnCore {
  readonly context: Context;
  readonly pending: PendingOutput;
  readonly routing: RoutingState;
  /** Tokens and cost of this session's requests, by preset (`:cost`). */
  readonly usage: UsageLedger;
  readonly #parts: TurnCoreParts;
  /** What presets' servers said of their context; null when the config sets the budget or nobody asks. */
  readonly #budgets: PresetBudgets | null;
  /** The preset whose budget the context has (the last asked). */
  #budgetPreset: string | null = null;
  #proposed: readonly string[] = [];
  #lastReply: string | null = null;

  constructor(parts: TurnCoreParts) {
    this.#parts = parts;
    this.pending = parts.pending;
    this.usage = parts.models.usage;
    const { config, observer } = parts;
    const c = config.context;
    this.routing = { auto: config.routing.auto, cloudFallback: config.routing.cloud_fallback };
    this.context = new Context({
      ...(c.summarize_on_evict ? { summarize: this.#summarizer() } : {}),
      maxTurns: c.max_turns,
      tokenBudget: c.token_budget ?? DEFAULT_TOKEN_BUDGET,
      budgetSource: { type: c.token_budget === undefined ? 'default' : 'config' },
      useToolRole: c.use_tool_role,
      maxSummaryChars: c.max_summary_chars,
      onStatus: (kind, message) => observer({ type: kind, message }),
      onSummary: (summary) => parts.recorder?.summary(summary),
    });
    const ask = parts.models.contextLength?.bind(parts.models);
    // Nobody waits for a one-shot's next question: its server is not asked.
    this.#budgets =
      c.token_budget === undefined && ask && !parts.unattended
        ? new PresetBudgets(ask, (preset, length) => {
            if (preset === this.#budgetPreset) this.#setServerBudget(preset, length);
          })
        : null;
  }

  /**
   * The context takes the budget of `preset`: what its server said, once it has, else the default
   * while it is asked (in the background). Nothing changes when the config sets the budget.
   */
  useBudgetOf(preset: string): void {
    const budgets = this.#budgets;
    if (!budgets) return;
    this.#budgetPreset = preset;
    const length = budgets.answer(preset);
    if (length) return this.#setServerBudget(preset, length);
    this.context.setTokenBudget(DEFAULT_TOKEN_BUDGET, { type: 'default' });
    budgets.askOnce(preset);
  }

  #setServerBudget(preset: string, contextLength: number): void {
    this.context.setTokenBudget(budgetFromContextLength(contextLength), { type: 'server', preset, contextLength });
  }

  /**
   * A user request: routes it to a preset, sends `text` as the next user turn with the pending
   * exec output in front, runs the tool loop, then offers the reply's `CMD:` lines. On a model
   * error the user turn is removed and the pending output restored, so a retry loses nothing.
   * Never rejects for model or tool failures.
   */
  async ask(text: string, modelName: string, signal: AbortSignal): Promise<RequestResult> {
    const { config, observer } = this.#parts;
    // Routing picks the preset once per user request; the whole tool sub-loop stays on it.
    const route = classifyModel(text, { routing: { auto: this.routing.auto, classes: config.routing.classes } });
    if (route.preset && route.preset !== modelName && config.models[route.preset]) {
      modelName = route.preset;
      observer({ type: 'status', message: `routed to ${modelName}` });
    }
    const result = await this.request(text, modelName, signal);
    // A cut-off reply may end inside a command: none of its CMD: lines is offered.
    if (result.outcome === 'done' && result.cut) {
      if (extractCmdLines(result.text).length > 0) observer({ type: 'status', message: 'the CMD: lines of a cut-off reply are not offered' });
    } else if (result.outcome === 'done' || result.outcome === 'depth-limit') await this.#offerCommands(result.text, signal);
    return result;
  }

  /**
   * One model request with the tool loop: `text` (null: continue after tool results) becomes the
   * user turn with the pending exec output in front. A failure is reported, the user turn removed
   * and the pending output restored. Options let Norris use its own gate, depth and system suffix.
   */
  async request(text: string | null, modelName: string, signal: AbortSignal, options: RequestOptions = {}): Promise<RequestResult> {
    const { config, models, observer } = this.#parts;
    this.useBudgetOf(modelName);
    // The output of commands takes a share of the budget at most, so it never evicts the conversation.
    const taken = text === null ? '' : this.pending.take(pendingShareChars(this.context.tokenBudget));
    const fallbackName = config.routing.fallback_model;
    const status = (message: string) => observer({ type: 'status', message });
    // Norris leaves the middle blocks out of its system message (SPEC §5).
    const project = options.norrisSuffix ? null : await this.#parts.project();
    const client = withFallback(
      withRetryAfter(models.client(modelName), status),
      fallbackName ? models.client(fallbackName) : undefined,
      () => this.routing.cloudFallback,
      status,
    );
    const result = await runRequest(
      {
        context: this.context,
        model: client,
        tools: this.#parts.tools,
        gate: options.gate ?? this.#parts.gate,
        observer,
        recorder: this.#parts.recorder,
        system: () =>
          composeSystemMessage({
            basePrompt: DEFAULT_SYSTEM_PROMPT,
            memory: options.norrisSuffix ? null : this.#parts.background(),
            project,
            summary: this.context.summary,
            norrisSuffix: options.norrisSuffix ?? null,
          }),
        maxDepth: options.maxDepth ?? config.mcp.max_tool_depth,
        quietDepthLimit: options.maxDepth !== undefined,
        unattended: this.#parts.unattended ?? false,
        maxToolCalls: config.broker.max_tool_calls,
      },
      text === null ? null : mergeUserTurn(taken, text),
      signal,
    );
    if (result.outcome !== 'failed' && result.text.trim() !== '') this.#lastReply = result.text;
    switch (result.outcome) {
      case 'failed':
        if (result.userTurnRemoved) this.pending.restore(taken);
        observer({ type: 'error', message: `${failureText(result.error)}${failureHint(result.error, modelName, config)}` });
        break;
      case 'cancelled':
        observer({ type: 'status', message: 'cancelled' });
        break;
      case 'done':
      case 'depth-limit':
        observer({ type: 'answered' });
        break;
    }
    return result;
  }

  /** Empties the conversation and the pending buffer (memory and project context survive). */
  reset(): void {
    this.context.reset();
    this.pending.clear();
    this.#parts.recorder?.reset();
  }

  /**
   * Each CMD: line, in order, through the approval gate; approved ones run as typed lines. A
   * command the permissions deny is not run, and the model hears so with the next request.
   */
  async #offerCommands(text: string, signal: AbortSignal): Promise<void> {
    const proposed = extractCmdLines(text);
    if (proposed.length > 0) this.#proposed = proposed;
    for (const command of proposed) {
      if (signal.aborted) return;
      await this.offer(command, signal);
    }
  }

  /**
   * The text of the last reply that had any (`:copy`), as the model wrote it: markdown source,
   * not sanitized. Before this session asked anything (after `--resume`), the conversation's last
   * reply, without the `[interrupted]` or cut-off mark. null when there is none.
   */
  get lastReply(): string | null {
    if (this.#lastReply !== null) return this.#lastReply;
    const turns = this.context.turns;
    for (let i = turns.length - 1; i >= 0; i--) {
      const turn = turns[i]!;
      if (turn.role !== 'assistant') continue;
      let text = turn.content;
      for (const mark of ['[interrupted]', CUT_MARK]) if (text.endsWith(mark)) text = text.slice(0, -mark.length).replace(/\n$/, '');
      if (text.trim() !== '') return text;
    }
    return null;
  }

  /** The `CMD:` lines of the last reply that proposed any (`:last`). */
  get proposed(): readonly string[] {
    return this.#proposed;
  }

  /** One proposed command through the gate; runs it (perhaps edited) when approved (`:run N` too). */
  async offer(command: string, signal: AbortSignal): Promise<void> {
    const { gate, commands, observer } = this.#parts;
    if (!commands) return;
    const { decision, approved, by, command: toRun } = await gate.command(command, signal);
    if (signal.aborted) return;
    if (decision.verdict === 'deny') {
      observer({ type: 'status', message: decision.reason });
      this.pending.note(`[aish] CMD not run, ${decision.reason}: ${toRun}`);
      return;
    }
    if (by === 'no-terminal') {
      // Why it asks, as a terminal's question says it: what reads the log sees why it did not run.
      const why = reasonToShow(decision);
      if (why !== null) observer({ type: 'status', message: why });
      observer({ type: 'status', message: `execute '${command}'? [y/N] n (input is not a terminal)` });
    }
    if (!approved) {
      observer({ type: 'status', message: `skipped: ${command}` });
      this.pending.note(`[aish] CMD not run, ${by === 'no-terminal' ? 'nobody could confirm it (input is not a terminal)' : 'declined by the user'}: ${command}`);
      return;
    }
    await commands.run(toRun, signal);
  }

  /** Summaries on eviction come from `context.summarizer_model` (resolved by the config: `fast` when it exists, else the default preset). */
  #summarizer() {
    const { config, models } = this.#parts;
    return createSummarizer(async (messages, limits) => {
      const name = config.context.summarizer_model ?? config.default_model;
      if (!config.models[name]) return '';
      return models.askOnce(name, messages, { ...limits, purpose: 'summary' });
    });
  }

  /** One short question outside the conversation, counted in this session's ledger under `purpose`. */
  askOnce(name: string, messages: ChatMessage[], limits: AskOnceLimits): Promise<string> {
    return this.#parts.models.askOnce(name, messages, limits);
  }
}

/** A failure as the person reads it: a known error's message, anything else as an internal error. */
function failureText(err: unknown): string {
  return err instanceof AishError ? err.message : `internal error: ${errorMessage(err)}`;
}

/** For a server that cannot be reached: which preset and URL, and what to do about it. */
function failureHint(err: unknown, modelName: string, config: Config): string {
  if (!(err instanceof BrokerError) || err.kind !== 'transport' || err.status !== undefined) return '';
  const model = config.models[modelName];
  if (!model) return '';
  // It answered, then went silent: it is up, but busy or stuck; suggesting it is down would mislead.
  const seconds = formatSeconds(model.timeout_ms);
  if (err.stalled) return ` (${modelName} at ${model.endpoint} answered, then sent nothing for ${seconds}; models.${modelName}.timeout_ms sets the limit)`;
  // It took the connection: it runs, but is busy (loading a model, a long prompt) or stuck.
  if (err.unanswered) return ` (${modelName} at ${model.endpoint} accepted the connection but did not answer within ${seconds}; models.${modelName}.timeout_ms sets the limit)`;
  const where = config.presets_from_file ? `models.${modelName} in the config file sets it` : 'OPENAI_BASE_URL or a config file changes them';
  return ` (${modelName} at ${model.endpoint}: is the server running? :models lists presets; ${where})`;
}

/** `60 s`, or `300 ms` below a second. */
function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
