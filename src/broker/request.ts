// Builds the HTTP request for one chat-completions call from a model preset (SPEC §5): URL by the
// endpoint rule, headers, and the JSON body. Pure; every config problem surfaces here as
// `broker: ...`, before any network I/O.

import type { ModelConfig } from '../config/schema.js';
import { chatCompletionsUrl } from './endpoint.js';
import { configError } from './errors.js';
import type { ChatMessage, ToolDefinition } from './types.js';

export const DEFAULT_TEMPERATURE = 0.2;
export const DEFAULT_TIMEOUT_MS = 60_000;

/** What `chatStream` sends: the URL, headers (lower-case names) and the serialised body. */
export interface ChatRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface ChatRequestOptions {
  env: Record<string, string | undefined>;
  /** Applied to the serialized body: secrets become `[redacted:NAME]` before anything is sent. */
  redact?: (text: string) => string;
  tools?: ToolDefinition[];
  extraBody?: Record<string, unknown>;
}

/**
 * The request for `messages` to `model`. The body is `{model, messages, stream: true,
 * temperature, max_tokens?, tools?, tool_choice?}` plus `extraBody`; `tools` is left out when
 * empty, and the preset's `tool_choice` goes only with tools.
 * `Authorization: Bearer` is sent only when `key_env` names a non-empty variable; the preset's
 * own headers come last and replace any of the same name. Throws `broker: ...`.
 */
export function buildChatRequest(model: ModelConfig, messages: ChatMessage[], opts: ChatRequestOptions): ChatRequest {
  if (!model.endpoint) throw configError('model preset has no endpoint');
  if (!model.model) throw configError('model preset has no model name');
  const url = chatCompletionsUrl(model.endpoint);
  const body = JSON.stringify(buildBody(model, messages, opts));
  return { url, headers: buildHeaders(model, opts.env), body: opts.redact ? opts.redact(body) : body };
}

function buildBody(model: ModelConfig, messages: ChatMessage[], opts: ChatRequestOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: model.model,
    messages,
    stream: true,
    temperature: model.temperature ?? DEFAULT_TEMPERATURE,
  };
  if (model.max_tokens !== undefined) body.max_tokens = model.max_tokens;
  if (opts.tools && opts.tools.length > 0) {
    body.tools = opts.tools;
    // Only with tools: a tool_choice without tools is an error on OpenAI-compatible servers.
    if (model.tool_choice !== undefined) body.tool_choice = model.tool_choice;
  }
  return { ...body, ...opts.extraBody };
}

/** The preset's headers (its key, its own headers) with `accept`; throws `broker: ...` for one that cannot be sent. */
export function buildHeaders(model: ModelConfig, env: Record<string, string | undefined>, accept = 'text/event-stream'): Record<string, string> {
  const headers = new Headers({ 'content-type': 'application/json', accept });
  const key = model.key_env ? env[model.key_env]?.trim() : undefined;
  if (key) setHeader(headers, 'authorization', `Bearer ${key}`, `the value of ${model.key_env}`);
  for (const [name, value] of Object.entries(model.headers ?? {})) setHeader(headers, name, value, `header "${name}"`);
  return Object.fromEntries(headers);
}

function setHeader(headers: Headers, name: string, value: string, what: string): void {
  try {
    headers.set(name, value);
  } catch {
    throw configError(`${what} cannot be sent as an HTTP header`);
  }
}
