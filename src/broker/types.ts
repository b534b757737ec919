// The broker's vocabulary: chat messages and tool definitions in the OpenAI wire shape, the events
// a streamed reply produces, and the result it settles into. Plain data; no behaviour here.

import type { TextBuffer } from '../text-buffer.js';

/** A tool call as the assistant message of the conversation carries it back to the model. */
export interface AssistantToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One message of a chat-completions request (OpenAI shape). */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: AssistantToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string; name?: string };

/** A tool offered to the model: a name and a JSON Schema, nothing MCP-specific. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** A finished tool call. `arguments` is the raw JSON text the model produced; `""` becomes `"{}"`. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Token counts as the server reported them; any of them may be missing. */
export interface TokenUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/**
 * What a streamed reply produces, in arrival order. `text` and `reasoning` are fragments; a
 * `tool_call` event marks the start of a call (for a "calling ..." line; the arguments arrive in
 * the result), `index` counting the calls started in this reply from 0.
 */
export type BrokerEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; index: number; name?: string }
  | { type: 'usage'; usage: TokenUsage }
  | { type: 'warning'; message: string }
  /** Said once per reply about a backend's quirk; `chatStream` passes it on only under `AISH_DEBUG`. */
  | { type: 'debug'; message: string };

/** A reply that ended normally. `receivedDelta` says whether any text or tool-call data arrived. */
export interface ChatResult {
  /** The assistant text (reasoning excluded). */
  text: string;
  /** Calls the model made, in order; present whatever `finishReason` says. */
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage?: TokenUsage;
  receivedDelta: boolean;
  /** Present (true) when the stream ended with neither `finish_reason` nor `[DONE]`: cut off. */
  cut?: boolean;
  /** Present when aish stopped reading at `maxReplyChars`: the chars kept (text and call arguments). */
  capped?: number;
}

/**
 * One streamed model request, already bound to a preset and its environment (what the turn core
 * asks). `opts.text`, when given, collects the reply's text as `chatStream` does: emptied when a
 * request starts (a retry or fallback starts it again), then every text fragment as it is emitted.
 */
export interface ModelClient {
  readonly name: string;
  stream(messages: ChatMessage[], onEvent: (e: BrokerEvent) => void, opts: { tools?: ToolDefinition[]; signal: AbortSignal; text?: TextBuffer }): Promise<ChatResult>;
}
