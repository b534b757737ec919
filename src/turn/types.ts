// The small interfaces the turn core works through (besides the broker's ModelClient and the
// safety gate): the tools it can call and the typed events it reports. Nothing here does I/O; the
// terminal, the session log and the tests plug in behind these.

import type { ToolCall, ToolDefinition, TokenUsage } from '../broker/types.js';
import type { ToolAnnotations, ToolOutcome, ToolProgress } from '../tool-call.js';

/** What the next request is about, for a host that offers only some of its tools (the budget). */
export interface ToolHint {
  /** The person's words of this request. */
  words: string;
  /** Tools called earlier in this conversation, oldest first. */
  used: readonly string[];
}

/** The tools the model may call (built-ins, MCP sessions). */
export interface ToolCallOptions {
  signal: AbortSignal;
  /** Progress reports of a long call, when the tool sends any. */
  onProgress?: (progress: ToolProgress) => void;
}

export interface ToolHost {
  /** The tools to offer in the next request. */
  definitions(hint?: ToolHint): ToolDefinition[];
  /** Whether a tool by this wire name is offered now. */
  has(name: string): boolean;
  /** JSON Schema errors for these arguments; [] when valid or when the tool is unknown. */
  validate(name: string, args: Record<string, unknown>): string[];
  annotations(name: string): ToolAnnotations | undefined;
  /** Never rejects. */
  call(name: string, args: Record<string, unknown>, opts: ToolCallOptions): Promise<ToolOutcome>;
}

/** `:tools enable|disable <target>` as kept with the session: a group, a tool or an `alias__*` pattern. */
export interface ToolRule {
  op: 'enable' | 'disable';
  target: string;
}

/** One tool as `:tools` lists it. */
export interface ToolRow {
  name: string;
  /** The first `mcp.groups` entry naming it. */
  group: string | undefined;
  enabled: boolean;
}

/** The runtime switches of a session's tools (`:tools`), behind the ToolHost the core uses. */
export interface ToolControls {
  /** Every tool there is, switched on or off, in offer order. */
  rows(): ToolRow[];
  /** Switches a target; the tools it touches now, or why it names nothing. */
  apply(rule: ToolRule): { touched: string[] } | { problem: string };
  /** The switches so far, oldest first (what the session log keeps). */
  rules(): readonly ToolRule[];
  /** Replaces the switches (a resumed session). */
  restore(rules: readonly ToolRule[]): void;
  /** What the next request would carry: how many tools and about how many tokens of schema. */
  nextRequest(hint: ToolHint): { tools: number; tokens: number };
  /** The group names of `mcp.groups`. */
  groups(): string[];
}

/**
 * What happens in a turn, in order, for whoever shows it: the terminal view, one-shot's view, a
 * test's recorder. Events carry raw text from outside; whoever draws them sanitizes.
 */
export type TurnEvent =
  /** A model request starts (depth 0 for the first of a user request). */
  | { type: 'request-start'; depth: number; model: string }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  /** The model started a tool call; its arguments are still streaming. */
  | { type: 'tool-call-preparing'; name: string }
  | { type: 'usage'; usage: TokenUsage }
  /** The streamed reply is over (finished, failed or cancelled). */
  | { type: 'request-end' }
  /** A tool call passed its checks (and the gate) and runs; args undefined when not parseable. */
  | { type: 'tool-begin'; call: ToolCall; args: Record<string, unknown> | undefined }
  /** A running call reported progress. */
  | { type: 'tool-progress'; call: ToolCall; progress: ToolProgress }
  | { type: 'tool-end'; call: ToolCall; outcome: ToolOutcome; durationMs: number }
  /** A call that passed its checks but did not run: declined at the gate, or cancelled before it. */
  | { type: 'tool-declined'; call: ToolCall; args: Record<string, unknown>; outcome: ToolOutcome }
  /** A `[aish] ...` line. */
  | { type: 'status'; message: string }
  /** Someone is about to be asked something (a server's question): the spinner gives up its line. */
  | { type: 'hold' }
  /** A line that came in the background (a server's log message), drawn without breaking the reply. */
  | { type: 'notice'; message: string }
  /** A `[context] ...` line (evictions). */
  | { type: 'context'; message: string }
  /** A request failed; the message is the one line the person sees. */
  | { type: 'error'; message: string }
  /** A request reached its end with a reply (the stats line, if shown, goes here). */
  | { type: 'answered' };

export type TurnObserver = (event: TurnEvent) => void;
