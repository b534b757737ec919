// Refetching one list of one server on its list_changed notices (issue 32): at most one fetch in
// flight and one queued. A notice fetches at once unless a fetch is in flight or started less than
// QUIET_MS ago: then it queues one fetch, and the notices while one is queued are absorbed. The
// queued fetch waits for the notices to pause, so a server announcing a change every millisecond
// is asked about once a second, not once per notice, and the last fetch starts after the last
// notice: the list ends as the server published it last.

/** The pause in the notices after which the queued fetch starts; also the shortest gap between two fetches. */
export const QUIET_MS = 100;
/** The longest a queued fetch waits while the notices keep coming. */
export const MAX_WAIT_MS = 1000;

export interface ListRefetchOptions {
  /** Told when a fetch rejected; the queue goes on. */
  onError: (err: unknown) => void;
  /** Told after each fetch that resolved. */
  onFetched?: () => void;
  /** False once the session is gone: a queued fetch is then dropped. */
  active?: () => boolean;
}

/** One list's fetches. `request` never rejects and never throws; `ready` never rejects. */
export class ListRefetch {
  #fetch: () => Promise<void>;
  #opts: ListRefetchOptions;
  #running: Promise<void> | undefined;
  #queued = false;
  #queuedAt = 0;
  #lastNotice = 0;
  #lastStart = -Infinity;

  constructor(fetch: () => Promise<void>, opts: ListRefetchOptions) {
    this.#fetch = fetch;
    this.#opts = opts;
  }

  /** A notice: fetches now, or queues one fetch (absorbed when one is queued already). */
  request(): void {
    const now = performance.now();
    this.#lastNotice = now;
    if (!this.#queued && (this.#running || now - this.#lastStart < QUIET_MS)) {
      this.#queued = true;
      this.#queuedAt = now;
    }
    this.#running ??= this.#drain();
  }

  /** Resolves when no fetch is in flight or queued. */
  async ready(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    try {
      do {
        if (this.#queued) {
          await this.#pause();
          if (!this.#active()) break;
        }
        this.#queued = false;
        this.#lastStart = performance.now();
        try {
          // Called a microtask later: a fetch that threw at once would end the drain before `request` kept it.
          await Promise.resolve().then(() => this.#fetch());
          this.#opts.onFetched?.();
        } catch (err) {
          this.#opts.onError(err);
        }
      } while (this.#queued);
    } finally {
      // Here, not in a .finally() of the caller: a notice in between would find a drain that is over.
      this.#queued = false;
      this.#running = undefined;
    }
  }

  /** Waits until the notices paused for QUIET_MS, or the queued fetch waited MAX_WAIT_MS. */
  async #pause(): Promise<void> {
    for (;;) {
      const wait = Math.min(this.#lastNotice + QUIET_MS, this.#queuedAt + MAX_WAIT_MS) - performance.now();
      if (wait <= 0 || !this.#active()) return;
      // Unreferenced: a queued refetch is no reason to keep aish running.
      await new Promise<void>((resolve) => setTimeout(resolve, wait).unref());
    }
  }

  #active(): boolean {
    return this.#opts.active?.() ?? true;
  }
}
