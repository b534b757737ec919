// The command life's timers (command-life.ts) on the real clock: the machine asks for one by its
// id and hears of it as an event; setting one again replaces it. None keeps aish running.

import type { TimerId } from './command-life.js';

export class LifeTimers {
  readonly #timers = new Map<TimerId, NodeJS.Timeout>();
  readonly #fire: (id: TimerId) => void;

  constructor(fire: (id: TimerId) => void) {
    this.#fire = fire;
  }

  schedule(id: TimerId, ms: number): void {
    this.cancel(id);
    const timer = setTimeout(() => {
      this.#timers.delete(id);
      this.#fire(id);
    }, ms);
    timer.unref();
    this.#timers.set(id, timer);
  }

  cancel(id: TimerId): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  /** No timer fires any more (the session is closed). */
  clear(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}

/** `work`'s answer, or null once `ms` have passed (`expired` tells work still waiting that it did). */
export function orNullAfter<T>(ms: number, work: (expired: () => boolean) => Promise<T | null>): Promise<T | null> {
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      expired = true;
      resolve(null);
    }, ms);
    timer.unref();
  });
  return Promise.race([work(() => expired), late]).finally(() => clearTimeout(timer));
}

/** Resolves after `ms`, keeping no process alive. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
