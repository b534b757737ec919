// The small interfaces the tool loop works through: a model it can ask, tools it can call, a gate
// that decides, and an observer that shows and records what happens. Nothing here does I/O.

import type { BrokerEvent, ChatMessage, ChatResult, ToolCall, ToolDefinition } from '../broker/types.js';
import type { Turn } from '../context/turns.js';

/** One streamed model request, already bound to a preset and its environment. */
export interface ModelClient {
  readonly name: string;
  stream(messages: ChatMessage[], onEvent: (e: BrokerEvent) => void, opts: { tools?: ToolDefinition[]; signal: AbortSignal }): Promise<ChatResult>;
}

/** How a tool call ended. `content` goes to the model, `display` to the person. */
export interface ToolOutcome {
  status: 'ok' | 'error' | 'denied' | 'cancelled';
  content: string;
  display?: string;
  isError?: boolean;
  notices?: string[];
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  title?: string;
}

/** The tools the model may call (MCP sessions, later built-ins). */
export interface ToolHost {
  definitions(): ToolDefinition[];
  /** JSON Schema errors for these arguments; [] when valid or when the tool is unknown. */
  validate(name: string, args: Record<string, unknown>): string[];
  annotations(name: string): ToolAnnotations | undefined;
  /** Never rejects. */
  call(name: string, args: Record<string, unknown>, opts: { signal: AbortSignal }): Promise<ToolOutcome>;
}

export interface GateDecision {
  approved: boolean;
  /** Who decided: the auto_approve policy, the person, an earlier "always", or nobody (no terminal). */
  by: 'policy' | 'user' | 'always' | 'no-terminal';
}

export interface ToolGate {
  decide(name: string, args: Record<string, unknown>, annotations: ToolAnnotations | undefined, signal: AbortSignal): Promise<GateDecision>;
}

export interface ToolAudit {
  name: string;
  arguments: string;
  decision: 'approved' | 'declined' | 'invalid';
  by: GateDecision['by'] | 'aish';
  duration_ms: number;
  outcome: ToolOutcome['status'];
}

/** What the person sees and what the session log records. */
export interface TurnObserver {
  /** A model request starts (depth 0 for the first of a user request). */
  requestStart(depth: number, model: string): void;
  event(e: BrokerEvent): void;
  /** The streamed reply is over (finished, failed or cancelled). */
  requestEnd(): void;
  toolBegin(call: ToolCall, args: Record<string, unknown> | undefined): void;
  toolEnd(call: ToolCall, outcome: ToolOutcome): void;
  status(message: string): void;
  /** A turn is final: write it to the session log. */
  persist(turn: Turn): void;
  audit(record: ToolAudit): void;
}
