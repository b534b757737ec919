// Cloud fallback (SPEC §9, seed 002 §5): when a request to the local preset fails with an
// eligible transport error before any delta arrived, it is sent once more, unchanged, to
// `routing.fallback_model`, with one status line saying so. One hop; never for api:, broker:,
// decode:, 400, 401 or 403.

import { BrokerError, isFallbackEligible } from '../broker/errors.js';
import type { ModelClient } from '../broker/types.js';

/** The reason part of the status line: the error after its `transport: ` prefix. */
export function fallbackReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^transport: /, '');
}

/**
 * A client that tries `primary` and, on an eligible failure with no delta received, `fallback`.
 * `enabled` is read per request so `:fallback on|off` applies at once.
 */
export function withFallback(primary: ModelClient, fallback: ModelClient | undefined, enabled: () => boolean, status: (message: string) => void): ModelClient {
  if (!fallback || fallback.name === primary.name) return primary;
  return {
    name: primary.name,
    async stream(messages, onEvent, opts) {
      try {
        return await primary.stream(messages, onEvent, opts);
      } catch (err) {
        if (opts.signal.aborted || !enabled() || !isFallbackEligible(err)) throw err;
        if (err instanceof BrokerError && err.receivedDelta) throw err;
        status(`local ${primary.name} failed (${fallbackReason(err)}); retrying via ${fallback.name}`);
        return fallback.stream(messages, onEvent, opts);
      }
    },
  };
}
