// `:norris` on the REPL's line (src/repl/norris-line.ts): a typed `:halt` halts the run without
// cancelling the line, Ctrl-C (the line's signal) halts it too, other lines become notes, and
// nothing listens once the run is over.

import { describe, expect, it } from 'vitest';
import { runNorrisLine, type NorrisLineParts } from '../../src/repl/norris-line.js';

/** A Norris run that waits until its signal is aborted; `type` sends a line as if typed meanwhile. */
function parts() {
  const said: string[] = [];
  const notes: string[] = [];
  let onLine: ((line: string) => void) | null = null;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const runs: Array<{ goal: string; model: string; signal: AbortSignal }> = [];
  const p: NorrisLineParts = {
    norris: {
      run: async (goal, model, signal) => {
        runs.push({ goal, model, signal });
        started();
        await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
        return 'halted';
      },
    },
    listen: (listener) => {
      onLine = listener;
      return () => (onLine = null);
    },
    note: (text) => notes.push(text),
    prepare: () => said.push('prepared'),
    model: () => 'fast',
    status: (message) => said.push(message),
  };
  return { p, said, notes, runs, running, type: (line: string) => onLine?.(line), listening: () => onLine !== null };
}

describe('runNorrisLine', () => {
  it(':halt halts the run and leaves the line’s signal alone; a typed line is a note', async () => {
    const t = parts();
    const line = new AbortController();
    const done = runNorrisLine('tidy', t.p, line.signal);
    await t.running;
    t.type('  ');
    t.type('use staging');
    t.type(':halt');
    await done;
    expect(t.runs).toEqual([{ goal: 'tidy', model: 'fast', signal: expect.objectContaining({ aborted: true }) }]);
    expect(line.signal.aborted).toBe(false);
    expect(t.notes).toEqual(['[note from the user while you work] use staging']);
    expect(t.said).toEqual(['prepared', "noted for Norris's next step (:halt stops it)", 'halting Norris']);
    expect(t.listening()).toBe(false);
  });

  it('Ctrl-C (the line’s signal) halts the run, even one aborted before it started', async () => {
    const t = parts();
    const line = new AbortController();
    const done = runNorrisLine('tidy', t.p, line.signal);
    await t.running;
    line.abort();
    await done;
    expect(t.runs[0]!.signal.aborted).toBe(true);
    expect(t.listening()).toBe(false);

    const u = parts();
    const gone = new AbortController();
    gone.abort();
    await runNorrisLine('tidy', u.p, gone.signal);
    expect(u.runs[0]!.signal.aborted).toBe(true);
  });
});
