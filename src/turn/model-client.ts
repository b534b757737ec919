// Model presets as the turn core sees them: a ModelClient bound to a preset's endpoint, key and
// options, streaming through the broker, and one-question access for summaries; and the check of
// the preset a session starts on.

import { askOnceResult } from '../broker/ask-once.js';
import { askContextLength } from '../broker/context-length.js';
import { BrokerError, refusesTools } from '../broker/errors.js';
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
  /** How many tokens the preset's server holds, when it says (docs/usage.md "The context"); never rejects. */
  contextLength?(name: string): Promise<number | null>;
}

/**
 * The presets of `config`, through the broker; every body sent passes `redact`, every request is
 * counted. `status` says once that a preset's model takes no tools.
 */
export function presetModels(config: Config, env: Record<string, string | undefined>, redact: (text: string) => string, status: (message: string) => void = () => {}): ModelAccess {
  // Presets whose server refused `stream_options` (a 400 naming it), remembered for the session.
  const refused: Refusals = { streamOptions: new Set<string>(), tools: new Set<string>(), status };
  const usage = new UsageLedger(config);
  return {
    usage,
    client: (name) => usage.counting(presetClient(config, env, name, redact, refused)),
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
    contextLength: (name) => {
      const model = config.models[name];
      return model ? askContextLength(model, env) : Promise.resolve(null);
    },
  };
}

/** What presets' servers refused this session, so they are not asked for it again. */
export interface Refusals {
  /** `stream_options` (a 400 naming it). */
  streamOptions: Set<string>;
  /** `tools` (the model takes none: `refusesTools`). */
  tools: Set<string>;
  /** Says once per preset that its model takes no tools. */
  status: (message: string) => void;
}

/**
 * The client for preset `name`; throws UsageError for an unknown preset. Token usage is always
 * asked for (`stream_options.include_usage`); a server that refuses the field with a 400 naming it
 * is asked again without it, once, and not asked for it again this session. A server whose model
 * takes no tools is asked again without them, said once, and not sent them again this session:
 * `CMD:` lines still work.
 */
export function presetClient(
  config: Config,
  env: Record<string, string | undefined>,
  name: string,
  redact: (text: string) => string,
  refused: Refusals = { streamOptions: new Set(), tools: new Set(), status: () => {} },
): ModelClient {
  const model = config.models[name];
  if (!model) throw new UsageError(`no preset named "${name}"`);
  const send = (messages: ChatMessage[], onEvent: Parameters<ModelClient['stream']>[1], opts: Parameters<ModelClient['stream']>[2]) => {
    const withUsage = !refused.streamOptions.has(name);
    const withTools = refused.tools.has(name) ? { tools: [] } : {};
    return chatStream(model, messages, onEvent, {
      env,
      redact,
      maxReplyChars: config.broker.max_reply_chars,
      ...opts,
      ...withTools,
      ...(withUsage ? { extraBody: { stream_options: { include_usage: true } } } : {}),
    });
  };
  return {
    name,
    async stream(messages, onEvent, opts) {
      // Each refusal is learnt once: at most two requests more, then the server's own way.
      for (let attempt = 0; ; attempt++) {
        try {
          return await send(messages, onEvent, opts);
        } catch (err) {
          if (attempt >= 2 || !(err instanceof BrokerError) || err.receivedDelta) throw err;
          if (err.status === 400 && /stream_options|include_usage/i.test(err.message) && !refused.streamOptions.has(name)) {
            refused.streamOptions.add(name);
            continue;
          }
          if ((opts.tools?.length ?? 0) > 0 && !refused.tools.has(name) && refusesTools(err)) {
            refused.tools.add(name);
            refused.status(`${name}: the model takes no tools; asking without them`);
            continue;
          }
          throw err;
        }
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
