// Waiting for a state the test cannot be told about (a process gone, a file written by another
// process): the state is read again every 50 ms until it holds, and a generous limit turns a wait
// that never ends into a failure naming what was awaited. Never a sleep in place of a check.

import { existsSync } from 'node:fs';

/** Resolves once `holds()` is true; rejects with `what()` after `timeoutMs`. */
export async function until(holds: () => boolean, what: () => string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves once `file` exists (another process wrote it); rejects after a generous wait. */
export function fileAppears(file: string): Promise<void> {
  return until(() => existsSync(file), () => `no file ${file}`);
}
