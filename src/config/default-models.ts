// The model presets aish starts with when the config file names none: a local OpenAI-compatible
// server (overridable from the environment) and two cloud presets.

import type { ModelConfig } from './schema.js';

/** Where a bare `npm start` looks for a model: llama.cpp's server on its default port. */
export const DEFAULT_LOCAL_ENDPOINT = 'http://127.0.0.1:8080/v1';

/**
 * Presets used when the config file defines no `models`. The local presets follow
 * `AISH_BASE_URL` / `OPENAI_BASE_URL` and `AISH_MODEL` / `OPENAI_MODEL`; a key is sent to a local
 * server only when the base URL came from the environment too.
 */
export function defaultModels(env: Record<string, string | undefined>): Record<string, ModelConfig> {
  const baseFromEnv = env.AISH_BASE_URL || env.OPENAI_BASE_URL;
  const endpoint = baseFromEnv || DEFAULT_LOCAL_ENDPOINT;
  const model = env.AISH_MODEL || env.OPENAI_MODEL || 'local';
  const keyEnv = !baseFromEnv ? undefined : env.AISH_BASE_URL ? 'AISH_API_KEY' : 'OPENAI_API_KEY';
  const local = (name: string): ModelConfig => ({
    endpoint,
    model: name,
    ...(keyEnv ? { key_env: keyEnv } : {}),
    temperature: 0.2,
    timeout_ms: 60_000,
    headers: {},
  });
  return {
    fast: local(model),
    deep: local(env.AISH_DEEP_MODEL || model),
    openai: {
      endpoint: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      key_env: 'OPENAI_API_KEY',
      price_in: 0.15,
      price_out: 0.6,
      temperature: 0.2,
      timeout_ms: 60_000,
      headers: {},
    },
    openrouter: {
      endpoint: 'https://openrouter.ai/api/v1',
      model: 'openai/gpt-4o-mini',
      key_env: 'OPENROUTER_API_KEY',
      price_in: 0.15,
      price_out: 0.6,
      temperature: 0.2,
      timeout_ms: 60_000,
      headers: {},
    },
  };
}
