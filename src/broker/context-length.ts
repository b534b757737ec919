// How many tokens a preset's server holds, asked of the server itself: llama.cpp's `GET /props`,
// the model list of vLLM and OpenRouter (`GET /v1/models`), Ollama's `POST /api/show`. All three
// are asked at once within one short timeout; the first in that order to say wins. Never rejects:
// a server that says nothing, answers badly or is slow gives null, and the caller keeps its default.

import type { ModelConfig } from '../config/schema.js';
import { isRecord } from '../is-record.js';
import { chatCompletionsUrl } from './endpoint.js';
import { buildHeaders } from './request.js';

/** How long the three questions may take together. */
export const CONTEXT_LENGTH_TIMEOUT_MS = 3000;

/** The most of one answer read: OpenRouter's model list is about a megabyte. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The URLs a preset's endpoint is asked at: beside its `/v1` (the model list) and at its root. */
export function contextLengthUrls(endpoint: string): { props: string; models: string; show: string } {
  const v1 = new URL(chatCompletionsUrl(endpoint).replace(/\/chat\/completions(?=\?|$)/, ''));
  v1.search = '';
  const base = v1.toString().replace(/\/+$/, '');
  const root = base.replace(/\/v1$/, '');
  return { props: `${root}/props`, models: `${base}/models`, show: `${root}/api/show` };
}

/** llama.cpp's `/props`: the context of one slot (`default_generation_settings.n_ctx`), else `n_ctx`. */
export function fromLlamaProps(body: unknown): number | null {
  if (!isRecord(body)) return null;
  const settings = body.default_generation_settings;
  return positive(isRecord(settings) ? settings.n_ctx : undefined) ?? positive(body.n_ctx);
}

/** A `/v1/models` list: the entry of `model` with vLLM's `max_model_len` or OpenRouter's `context_length`. */
export function fromModelList(body: unknown, model: string): number | null {
  const data = isRecord(body) ? body.data : undefined;
  if (!Array.isArray(data)) return null;
  const entry: unknown = data.find((m) => isRecord(m) && (m.id === model || m.canonical_slug === model));
  if (!isRecord(entry)) return null;
  const top = entry.top_provider;
  return positive(entry.max_model_len) ?? positive(entry.context_length) ?? positive(isRecord(top) ? top.context_length : undefined);
}

/**
 * Ollama's `/api/show`: `num_ctx` when the model's parameters set it (what the server then uses),
 * else `<architecture>.context_length` of `model_info` (what the model was trained for).
 */
export function fromOllamaShow(body: unknown): number | null {
  if (!isRecord(body)) return null;
  const params = typeof body.parameters === 'string' ? /^\s*num_ctx\s+(\d+)\s*$/m.exec(body.parameters) : null;
  const numCtx = params ? positive(Number(params[1])) : null;
  if (numCtx) return numCtx;
  const info = body.model_info;
  if (!isRecord(info)) return null;
  const arch = info['general.architecture'];
  if (typeof arch === 'string') {
    const length = positive(info[`${arch}.context_length`]);
    if (length) return length;
  }
  const key = Object.keys(info).find((k) => k.endsWith('.context_length'));
  return key ? positive(info[key]) : null;
}

/** More than this is not believed: a server that says so would have the conversation never evicted. */
const MAX_CONTEXT_LENGTH = 10_000_000;

function positive(x: unknown): number | null {
  return typeof x === 'number' && Number.isInteger(x) && x > 0 && x <= MAX_CONTEXT_LENGTH ? x : null;
}

/**
 * The context length `model`'s server says, or null. Never rejects; `signal` and the timeout
 * end the questions early.
 */
export async function askContextLength(
  model: ModelConfig,
  env: Record<string, string | undefined>,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<number | null> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? CONTEXT_LENGTH_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    const urls = contextLengthUrls(model.endpoint);
    const headers = buildHeaders(model, env, 'application/json');
    const { request } = await import('undici');
    const ask = async (url: string, body?: object): Promise<unknown> => {
      try {
        const res = await request(url, { method: body ? 'POST' : 'GET', headers, signal, ...(body ? { body: JSON.stringify(body) } : {}) });
        // A body dropped unread reports its abort as an error: nobody is waiting for it.
        res.body.on('error', () => {});
        if (res.statusCode !== 200) {
          res.body.destroy();
          return null;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            res.body.destroy();
            return null;
          }
          chunks.push(chunk);
        }
        return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      } catch {
        return null;
      }
    };
    const [props, models, show] = await Promise.all([ask(urls.props), ask(urls.models), ask(urls.show, { model: model.model })]);
    return fromLlamaProps(props) ?? fromModelList(models, model.model) ?? fromOllamaShow(show);
  } catch {
    return null;
  }
}
