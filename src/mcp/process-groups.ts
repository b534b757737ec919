// The process groups of the stdio MCP servers aish started and has not seen gone: the last resort
// at exit. A server normally ends through its transport's close (EOF, SIGTERM, SIGKILL, with
// grace between); when aish must exit before that finished (the one-second backstop of a
// shutdown), `endNow` sends every group still listed SIGTERM and then SIGKILL, synchronously.

/** Process group ids (the leaders' pids), one set per aish process, owned by its entry point. */
export class ProcessGroups {
  readonly #ids = new Set<number>();

  /** A server was started as the leader of group `id`. */
  add(id: number): void {
    this.#ids.add(id);
  }

  /** Group `id` is gone (or was sent SIGKILL): nothing to end at exit. */
  delete(id: number): void {
    this.#ids.delete(id);
  }

  /** The groups still listed. */
  get size(): number {
    return this.#ids.size;
  }

  /**
   * SIGTERM to every group listed, then SIGKILL to each: nothing in them outlives aish, even a
   * server that ignores SIGTERM. Synchronous (callable in the last moment before the exit), never throws.
   */
  endNow(): void {
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      for (const id of this.#ids) {
        try {
          process.kill(-id, signal);
        } catch {
          // Gone already.
        }
      }
    }
    this.#ids.clear();
  }
}
