// `:norris <goal>` on the REPL's line: while it runs, lines the person types reach it (on a
// terminal): `:halt` halts it, and anything else is passed to its next step as a note.

import type { NorrisMode } from '../norris/mode.js';

export interface NorrisLineParts {
  norris: Pick<NorrisMode, 'run'>;
  /** Lines typed while work runs go to `onLine` until the returned function is called. */
  listen: (onLine: (line: string) => void) => () => void;
  /** A note for the next request (`PendingOutput.note`). */
  note: (text: string) => void;
  /** Before the first step: the tree's first snapshot is started. */
  prepare: () => void;
  model: () => string;
  status: (message: string) => void;
}

/** Runs Norris toward `goal` until it ends; Ctrl-C (`signal`) or a typed `:halt` halts it. */
export async function runNorrisLine(goal: string, parts: NorrisLineParts, signal: AbortSignal): Promise<void> {
  const halt = new AbortController();
  const onAbort = () => halt.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) halt.abort();
  const stop = parts.listen((line) => {
    const text = line.trim();
    if (text === '') return;
    if (text === ':halt') {
      parts.status('halting Norris');
      halt.abort();
      return;
    }
    parts.note(`[note from the user while you work] ${text}`);
    parts.status("noted for Norris's next step (:halt stops it)");
  });
  parts.prepare();
  try {
    await parts.norris.run(goal, parts.model(), halt.signal);
  } finally {
    stop();
    signal.removeEventListener('abort', onAbort);
  }
}
