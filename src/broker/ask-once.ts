// The one way to ask a model a short question outside the conversation: summaries, memory
// proposals, Norris's second opinion. The reply is buffered (no live events), its length capped and
// the whole call bounded by a timeout, so a slow or silent server costs at most that long.

import type { ModelConfig } from '../config/schema.js';
import { timeoutError } from './errors.js';
import { chat } from './stream.js';
import type { ChatMessage, ChatResult } from './types.js';

/** How long a short question may take when the caller does not say (seed 002 §6: 30 s). */
export const ASK_ONCE_TIMEOUT_MS = 30_000;

export interface AskOnceOptions {
  /** Where `key_env` is looked up. */
  env: Record<string, string | undefined>;
  /** The reply's `max_tokens`. */
  maxTokens: number;
  /** Bounds the whole call, not only the gaps between chunks (default 30 s). */
  timeoutMs?: number;
  /** Cancels the call; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Applied to the serialized body before it is sent (secrets become `[redacted:NAME]`). */
  redact?: (text: string) => string;
}

/**
 * Sends `messages` to `model` once and resolves with the reply's text, trimmed. Rejects with a
 * BrokerError like `chatStream` (running out of time is `transport: Timeout was reached`), or with
 * the caller's signal's reason when cancelled.
 */
export async function askOnce(model: ModelConfig, messages: ChatMessage[], opts: AskOnceOptions): Promise<string> {
  return (await askOnceResult(model, messages, opts)).text;
}

/** `askOnce` with the whole result (its usage, for the ledger); the text trimmed. */
export async function askOnceResult(model: ModelConfig, messages: ChatMessage[], opts: AskOnceOptions): Promise<ChatResult> {
  const timeoutMs = opts.timeoutMs ?? ASK_ONCE_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    const result = await chat({ ...model, max_tokens: opts.maxTokens, timeout_ms: Math.min(model.timeout_ms ?? timeoutMs, timeoutMs) }, messages, {
      env: opts.env,
      signal,
      ...(opts.redact ? { redact: opts.redact } : {}),
    });
    return { ...result, text: result.text.trim() };
  } catch (err) {
    if (timeout.aborted && !opts.signal?.aborted) throw timeoutError();
    throw err;
  }
}
