// `:norris` on the REPL's line: lines typed while it runs become notes, `:halt` halts it (its
// signal, not the line's), Ctrl-C on the line halts it too, and the listening ends with the run.

import { expect, it } from 'vitest';
import { runNorrisLine, type NorrisLineParts } from '../../src/repl/norris-line.js';

function parts() {
  const said: string[] = [];
  const notes: string[] = [];
  let onLine: ((line: string) => void) | null = null;
  let stopped = 0;
  let signalSeen: AbortSignal | null = null;
  const ended = { resolve: () => {} };
  const p: NorrisLineParts = {
    norris: {
      run: (_goal, model, signal) => {
        signalSeen = signal;
        said.push(`run on ${model}`);
        return new Promise((resolve) => {
          ended.resolve = () => resolve('done');
          signal.addEventListener('abort', () => resolve('halted'), { once: true });
        });
      },
    },
    listen: (listener) => {
      onLine = listener;
      return () => {
        stopped++;
        onLine = null;
      };
    },
    note: (text) => notes.push(text),
    prepare: () => said.push('prepared'),
    model: () => 'deep',
    status: (m) => said.push(m),
  };
  return { p, said, notes, type: (line: string) => onLine?.(line), stopped: () => stopped, signal: () => signalSeen!, ended };
}

it('passes typed lines on as notes and halts on :halt without aborting the line', async () => {
  const t = parts();
  const line = new AbortController();
  const run = runNorrisLine('fix it', t.p, line.signal);
  t.type('   ');
  t.type('use the other branch');
  t.type(':halt');
  await run;
  expect(t.notes).toEqual(['[note from the user while you work] use the other branch']);
  expect(t.said).toEqual(['prepared', 'run on deep', "noted for Norris's next step (:halt stops it)", 'halting Norris']);
  expect(t.signal().aborted).toBe(true);
  expect(line.signal.aborted).toBe(false);
  expect(t.stopped()).toBe(1);
});

it('halts when the line is cancelled (Ctrl-C), and stops listening when the run ends by itself', async () => {
  const cancelled = parts();
  const line = new AbortController();
  const run = runNorrisLine('goal', cancelled.p, line.signal);
  line.abort();
  await run;
  expect(cancelled.signal().aborted).toBe(true);
  expect(cancelled.stopped()).toBe(1);

  const finished = parts();
  const done = runNorrisLine('goal', finished.p, new AbortController().signal);
  finished.ended.resolve();
  await done;
  expect(finished.signal().aborted).toBe(false);
  expect(finished.stopped()).toBe(1);
});
