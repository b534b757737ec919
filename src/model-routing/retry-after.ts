// Honouring `Retry-After`: a 429 or 503 that says when to come back is retried once, after that
// wait, when nothing of the reply had arrived yet; the status line says so. A wait longer than
// MAX_RETRY_AFTER_MS is not worth sitting through at a prompt: the error is shown instead.

import { BrokerError } from '../broker/errors.js';
import type { ModelClient } from '../broker/types.js';

export const MAX_RETRY_AFTER_MS = 30_000;

/** A client that retries `client` once when the server asks to come back within the limit. */
export function withRetryAfter(client: ModelClient, status: (message: string) => void): ModelClient {
  return {
    name: client.name,
    async stream(messages, onEvent, opts) {
      try {
        return await client.stream(messages, onEvent, opts);
      } catch (err) {
        const wait = err instanceof BrokerError && !err.receivedDelta && (err.status === 429 || err.status === 503) ? err.retryAfterMs : undefined;
        if (wait === undefined || wait > MAX_RETRY_AFTER_MS || opts.signal.aborted) throw err;
        status(`${client.name}: HTTP ${(err as BrokerError).status}; retrying once in ${Math.ceil(wait / 1000)} s (Retry-After)`);
        await sleep(wait, opts.signal);
        return client.stream(messages, onEvent, opts);
      }
    },
  };
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
