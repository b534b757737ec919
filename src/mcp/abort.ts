// Abort and timeout helpers of the MCP connect path: a deadline signal for one connect attempt,
// and a race that gives up on work when its signal aborts. Abort reasons are `Reason` errors whose
// message is already the one-line text a failure shows; listeners are removed when done.

/** An error whose message is already the one-line reason. */
export class Reason extends Error {}

/** The attempt ran out of time: `no answer within <ms> ms`. */
export class TimedOut extends Reason {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms (connect_timeout_ms sets the limit)`);
  }
}

/**
 * A signal for one connect attempt: it aborts with `no answer within <ms> ms` after `timeoutMs`,
 * or with `cancelled` when `outer` aborts later. `dispose` clears the timer and the listener.
 */
export function connectDeadline(outer: AbortSignal | undefined, timeoutMs: number): { signal: AbortSignal; dispose: () => void } {
  const attempt = new AbortController();
  const timer = setTimeout(() => attempt.abort(new TimedOut(timeoutMs)), timeoutMs);
  const onAbort = () => attempt.abort(new Reason('cancelled'));
  outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: attempt.signal,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/** Rejects with the signal's reason when it aborts first; `cleanup` runs on abort. */
export async function raceAbort<T>(work: Promise<T>, signal: AbortSignal, cleanup: () => Promise<void>): Promise<T> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } catch (err) {
    if (signal.aborted) {
      work.catch(() => {});
      await cleanup().catch(() => {});
    }
    throw err;
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
