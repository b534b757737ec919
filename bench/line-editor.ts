// The line editor's own time per key, in process: what aish's terminal reader runs for each key
// (`editKey`, `suggestionFor`, `layout`) with an input history of 10 000 varied lines, against a
// bare `startsWith` scan of the same history for the same text measured key by key in the same
// loop (the least a suggestion from history can cost without an index). Typing a 60-character
// line that no entry starts with (every key scans the whole history), and Up through the history
// by prefix. Percentiles over every key of every round, after a warm-up round.

import { editKey, initialState, suggestionFor, type EditorState, type KeyInput } from '../src/line/editor.js';
import { layout } from '../src/line/view.js';
import { displayWidth } from '../src/render/text-width.js';
import { percentile } from './stats.js';

/** What starts the oldest entry of `benchHistory`, and no other. */
export const TARGET_LINE = 'kubectl rollout status deployment/bench-target --watch';

const WORDS = ['build', 'deploy', 'cache', 'parser', 'router', 'session', 'render', 'config', 'worker', 'index', 'socket', 'upload', 'report', 'backup', 'ledger'];
const TEMPLATES: ((w: string, i: number) => string)[] = [
  (w, i) => `git commit -m "fix ${w} issue ${i}"`,
  (w, i) => `git checkout -b feature/${w}-${i}`,
  (w, i) => `ls -la ${w}/${i}`,
  (w, i) => `cd ~/projects/${w}${i}`,
  (w, i) => `grep -rn "${w}" src/${w}${i} --include=*.ts`,
  (w, i) => `npm run ${w} -- --case ${i}`,
  (w, i) => `what does the ${w} error ${i} in this log mean`,
  (w, i) => `docker run --rm -it ${w}:${i} sh`,
  (w, i) => `echo ${w} ${i} >> notes.txt`,
  (w, i) => `ssh ${w}${i}.example.net`,
  (w, i) => `cat /var/log/${w}-${i}.log | tail -n 50`,
  (w, i) => `python3 -m ${w} --seed ${i}`,
  (w, i) => `find . -name '*${w}*' -newer ${w}${i}.stamp`,
];

/**
 * `size` distinct lines, oldest first (the input history file's order): shell lines and questions
 * of 15 to 60 characters, the oldest being `TARGET_LINE`. None starts with `k` or `r` but that one.
 */
export function benchHistory(size: number): string[] {
  const lines = [TARGET_LINE];
  for (let i = 1; lines.length < size; i++) lines.push(TEMPLATES[i % TEMPLATES.length]!(WORDS[(i * 7) % WORDS.length]!, i));
  return lines;
}

/** A 60-character line no entry of `benchHistory` starts with. */
export const NEW_LINE = 'rsync -avz --delete build/ deploy@web1.example.org:/srv/www/';

const PROMPT = '\x1b[1m[aish:fast]\x1b[22m> ';
const COLUMNS = 100;

const key = (ch: string): KeyInput => ({ s: ch, key: { name: /^[a-z]$/.test(ch) ? ch : undefined, sequence: ch } });
const UP: KeyInput = { s: undefined, key: { name: 'up', sequence: '\x1b[A' } };
const now = () => process.hrtime.bigint();
const us = (t0: bigint, t1: bigint) => Number(t1 - t0) / 1e3;

let sink = 0;

/** What the reader does for a key: the editor's step, the suggestion, the layout drawn. */
function perKey(state: EditorState, input: KeyInput): EditorState {
  const step = editKey(state, input);
  // The end of the history: the state is kept as it was, as the reader keeps it.
  if (step.effects.some((e) => e.type === 'bell')) return state;
  const next = step.state;
  const suggestion = suggestionFor(next);
  const shown = layout({ prompt: PROMPT, continuation: '... ', text: next.text, cursor: next.cursor, suggestion, columns: COLUMNS, width: displayWidth });
  sink += shown.rows;
  return next;
}

/** The bare scan the suggestion makes: the newest entry longer than `text` that starts with it. */
function bareScan(history: readonly string[], text: string): void {
  for (const entry of history) {
    if (entry.length > text.length && entry.startsWith(text)) {
      sink += entry.length;
      return;
    }
  }
}

export interface Percentiles {
  p50: number;
  p99: number;
  keys: number;
}

const summary = (xs: number[]): Percentiles => ({ p50: percentile(xs, 0.5), p99: percentile(xs, 0.99), keys: xs.length });

export interface EditorFigures {
  historyLines: number;
  /** Microseconds a key, typing `NEW_LINE`. */
  typing: Percentiles;
  /** The bare scan for the same text, key by key. */
  typingScan: Percentiles;
  /** Up from an empty line, through every entry. */
  upAll: Percentiles;
  /** Up from `git c`, through every entry starting so. */
  upPrefix: Percentiles;
  /** Up from `kube`: one key finds the oldest entry, past every other. */
  upOldest: Percentiles;
  /** The bare scan past every entry (what `upOldest` has to do). */
  upOldestScan: Percentiles;
}

export function benchLineEditor(rounds = 20, historyLines = 10_000): EditorFigures {
  const history = benchHistory(historyLines).reverse(); // the editor's order: newest first
  const typing: number[] = [];
  const typingScan: number[] = [];
  const upAll: number[] = [];
  const upPrefix: number[] = [];
  const upOldest: number[] = [];
  const upOldestScan: number[] = [];
  for (let round = -1; round < rounds; round++) {
    const keep = round >= 0;
    // Typing a line no entry starts with, one key at a time; the bare scan right after each key.
    let state = initialState({ history });
    for (const ch of NEW_LINE) {
      const t0 = now();
      state = perKey(state, key(ch));
      const t1 = now();
      bareScan(history, state.text);
      const t2 = now();
      if (keep) {
        typing.push(us(t0, t1));
        typingScan.push(us(t1, t2));
      }
    }
    if (state.text !== NEW_LINE || suggestionFor(state) !== '') throw new Error(`typed ${JSON.stringify(state.text)}`);
    // Up from an empty line until the end of the history (the bell).
    state = initialState({ history });
    for (let i = 0; i < history.length; i++) {
      const t0 = now();
      state = perKey(state, UP);
      if (keep) upAll.push(us(t0, now()));
    }
    if (state.historyIndex !== history.length - 1) throw new Error(`Up stopped at ${state.historyIndex}`);
    // Up from `git c`, through the entries starting so.
    state = initialState({ history, text: 'git c' });
    for (;;) {
      const t0 = now();
      const next = perKey(state, UP);
      const t1 = now();
      if (next === state) break;
      state = next;
      if (keep) upPrefix.push(us(t0, t1));
    }
    // Up from `kube`: the oldest entry, past all the others; the bare scan of the same.
    for (let i = 0; i < 10; i++) {
      state = initialState({ history, text: 'kube' });
      const t0 = now();
      state = perKey(state, UP);
      const t1 = now();
      bareScan(history, 'kube');
      const t2 = now();
      if (state.text !== TARGET_LINE) throw new Error(`Up from kube gave ${JSON.stringify(state.text)}`);
      if (keep) {
        upOldest.push(us(t0, t1));
        upOldestScan.push(us(t1, t2));
      }
    }
  }
  if (sink === 0) console.log('');
  return {
    historyLines,
    typing: summary(typing),
    typingScan: summary(typingScan),
    upAll: summary(upAll),
    upPrefix: summary(upPrefix),
    upOldest: summary(upOldest),
    upOldestScan: summary(upOldestScan),
  };
}
