// Model presets as the turn core sees them: a ModelClient bound to a preset's endpoint, key and
// options, streaming through the broker, and one-question access for summaries; and the check of
// the preset a session starts on.

import { askOnceResult } from '../broker/ask-once.js';
import { BrokerError } from '../broker/errors.js';
import { chatStream } from '../broker/stream.js';
import type { ChatMessage, ModelClient } from '../broker/types.js';
import type { Config } from '../config/schema.js';
import { UsageError } from '../errors.js';
import { UsageLedger, type UsagePurpose } from './usage.js';

/** The limits of one short question, and what it is for (the ledger counts it under that). */
export interface AskOnceLimits {
  maxTokens: number;
  timeoutMs: number;
  signal?: AbortSignal;
  purpose: UsagePurpose;
}

/**
 * How every part reaches models by preset name: streamed requests, and one short question. Every
 * request either makes is counted in `usage`, the session's one ledger (`:cost`).
 */
export interface ModelAccess {
  /** The client for a preset; throws UsageError for an unknown one. */
  client(name: string): ModelClient;
  /** One buffered question outside the conversation (summaries, memory, a second opinion, sampling); rejects like the broker. */
  askOnce(name: string, messages: ChatMessage[], limits: AskOnceLimits): Promise<string>;
  readonly usage: UsageLedger;
}

/** The presets of `config`, through the broker; every body sent passes `redact`, every request is counted. */
export function presetModels(config: Config, env: Record<string, string | undefined>, redact: (text: string) => string): ModelAccess {
  // Presets whose server refused `stream_options` (a 400 naming it), remembered for the session.
  const noStreamOptions = new Set<string>();
  const usage = new UsageLedger(config);
  return {
    usage,
    client: (name) => usage.counting(presetClient(config, env, name, redact, noStreamOptions)),
    askOnce: async (name, messages, { purpose, ...limits }) => {
      const model = config.models[name];
      if (!model) throw new UsageError(`no preset named "${name}"`);
      const result = await askOnceResult(model, messages, { env, redact, ...limits }).catch((err: unknown) => {
        // Its error can travel on (an MCP server's sampling request gets it): redacted like its body.
        if (err instanceof Error) err.message = redact(err.message);
        throw err;
      });
      usage.record(name, messages, result, purpose);
      return result.text;
    },
  };
}

/**
 * The client for preset `name`; throws UsageError for an unknown preset. Token usage is always
 * asked for (`stream_options.include_usage`); a server that refuses the field with a 400 naming it
 * is asked again without it, once, and not asked for it again this session (`refused`).
 */
export function presetClient(
  config: Config,
  env: Record<string, string | undefined>,
  name: string,
  redact: (text: string) => string,
  refused: Set<string> = new Set(),
): ModelClient {
  const model = config.models[name];
  if (!model) throw new UsageError(`no preset named "${name}"`);
  const send = (withUsage: boolean, messages: ChatMessage[], onEvent: Parameters<ModelClient['stream']>[1], opts: Parameters<ModelClient['stream']>[2]) =>
    chatStream(model, messages, onEvent, { env, redact, maxReplyChars: config.broker.max_reply_chars, ...opts, ...(withUsage ? { extraBody: { stream_options: { include_usage: true } } } : {}) });
  return {
    name,
    async stream(messages, onEvent, opts) {
      if (refused.has(name)) return send(false, messages, onEvent, opts);
      try {
        return await send(true, messages, onEvent, opts);
      } catch (err) {
        if (!(err instanceof BrokerError) || err.status !== 400 || err.receivedDelta || !/stream_options|include_usage/i.test(err.message)) throw err;
        refused.add(name);
        return send(false, messages, onEvent, opts);
      }
    },
  };
}

/** The preset a session starts on (`--model`, else `default_model`); a UsageError names the presets there are. */
export function startingModel(config: Config, requested: string | undefined): string {
  const model = requested ?? config.default_model;
  if (!config.models[model]) {
    throw new UsageError(`--model: no preset named "${model}" (presets: ${Object.keys(config.models).join(', ')})`);
  }
  return model;
}
