// Model presets as the turn core sees them: a ModelClient bound to a preset's endpoint, key and
// options, streaming through the broker, and one-question access for summaries; and the check of
// the preset a session starts on.

import { askOnce } from '../broker/ask-once.js';
import { chatStream } from '../broker/stream.js';
import type { ChatMessage, ModelClient } from '../broker/types.js';
import type { Config } from '../config/schema.js';
import { UsageError } from '../errors.js';

/** How the turn core reaches models by preset name: streamed requests, and one short question. */
export interface ModelAccess {
  /** The client for a preset; throws UsageError for an unknown one. */
  client(name: string): ModelClient;
  /** One buffered question outside the conversation (summaries); rejects like the broker. */
  askOnce(name: string, messages: ChatMessage[], limits: { maxTokens: number; timeoutMs: number }): Promise<string>;
}

/** The presets of `config`, through the broker; every body sent passes `redact`. */
export function presetModels(config: Config, env: Record<string, string | undefined>, redact: (text: string) => string): ModelAccess {
  return {
    client: (name) => presetClient(config, env, name, redact),
    askOnce: (name, messages, limits) => {
      const model = config.models[name];
      if (!model) throw new UsageError(`no preset named "${name}"`);
      return askOnce(model, messages, { env, redact, ...limits });
    },
  };
}

/** The client for preset `name`; throws UsageError for an unknown preset. */
export function presetClient(config: Config, env: Record<string, string | undefined>, name: string, redact: (text: string) => string): ModelClient {
  const model = config.models[name];
  if (!model) throw new UsageError(`no preset named "${name}"`);
  // Usage figures are asked for only when they are shown (`ui.show_stats`).
  const extra = config.ui.show_stats ? { extraBody: { stream_options: { include_usage: true } } } : {};
  return {
    name,
    stream: (messages, onEvent, opts) => chatStream(model, messages, onEvent, { env, redact, ...opts, ...extra }),
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
