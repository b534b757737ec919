// Key to echo at the idle prompt, on a pseudo-terminal: aish (no config file, an empty input
// history) against bash's own readline (`bash --norc --noprofile -i`) in the same run, one key at
// a time with a pause after each, the two sessions taking turns key by key so a burst of load
// meets both. And the time to show a suggestion: aish with an input history file of 10 000 lines
// whose oldest loaded line is the one typed, each key timed until the line and the dimmed rest of
// that line are on the screen, against bash echoing the same keys in the same run.
//
// The echo is read from a model of the cursor's row: aish draws the whole line again after each
// key (`\r\x1b[J`, the prompt, the text, the dimmed suggestion, a move back), bash writes the one
// character, so a key is echoed when the row before the cursor is a prompt and the text typed so
// far, and shown with its suggestion when the dimmed cells after the cursor are the rest.

import { spawn, type IPty } from '@lydell/node-pty';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchHistory, TARGET_LINE } from './line-editor.js';
import { benchHome, type BenchHome } from './startup.js';

const aish = path.join(process.cwd(), 'dist', 'aish.js');

/** A pause after each key's echo: each key is measured alone, not in a burst. */
const PAUSE_MS = 40;
/** After the first prompt: the session's shell starts 100 ms after it; the start settles. */
const SETTLE_MS = 1500;
const COLUMNS = 200;

/** Lines typed at the prompt, each cleared by Ctrl-C when typed: shell lines and a question. */
const LINES = ['git status --short', 'ls -la /tmp', 'what is the capital of france', 'echo hello world', 'grep -rn TODO src', 'cd ..'];

/** A temp HOME as the other benches make it (`benchHome`), with no config file unless one is given,
 * and `inputHistory` (oldest first) as its input history file. */
function ptyHome(config?: unknown, inputHistory?: readonly string[]): BenchHome {
  const where = benchHome(config);
  if (inputHistory) {
    const dir = path.join(where.env.XDG_STATE_HOME!, 'aish');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(dir, 'input_history'), `${inputHistory.join('\n')}\n`, { mode: 0o600 });
  }
  return where;
}

interface Cell {
  ch: string;
  dim: boolean;
}

/** The row the cursor is on, as a terminal would show it: enough of one for a line that fits. */
class CursorRow {
  #cells: Cell[] = [];
  #col = 0;
  #dim = false;
  /** The start of an escape sequence split between two reads. */
  #pending = '';

  feed(data: string): void {
    const s = this.#pending + data;
    this.#pending = '';
    for (let i = 0; i < s.length; ) {
      const c = s[i]!;
      if (c === '\x1b') {
        const rest = s.slice(i);
        const m = /^\x1b(?:\[([0-9;?]*)[ -/]*([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/.exec(rest);
        if (!m) {
          if (/^\x1b(?:\[[0-9;?]*[ -/]*|\][^\x07\x1b]*\x1b?)?$/.test(rest)) this.#pending = rest;
          else i++;
          if (this.#pending) return;
          continue;
        }
        if (m[2]) this.#csi(m[1] ?? '', m[2]);
        i += m[0].length;
        continue;
      }
      if (c === '\r') this.#col = 0;
      else if (c === '\n') {
        this.#cells = [];
        this.#col = 0;
      } else if (c === '\b') this.#col = Math.max(0, this.#col - 1);
      else if (c >= ' ' && c !== '\x7f') {
        while (this.#cells.length < this.#col) this.#cells.push({ ch: ' ', dim: false });
        this.#cells[this.#col++] = { ch: c, dim: this.#dim };
      }
      i++;
    }
  }

  #csi(params: string, final: string): void {
    const n = Number.parseInt(params, 10);
    switch (final) {
      case 'J':
      case 'K':
        if (params === '' || params === '0') this.#cells.length = Math.min(this.#cells.length, this.#col);
        return;
      case 'G':
        this.#col = (n || 1) - 1;
        return;
      case 'C':
        this.#col += n || 1;
        return;
      case 'D':
        this.#col = Math.max(0, this.#col - (n || 1));
        return;
      case 'm':
        for (const p of params.split(';')) {
          if (p === '2') this.#dim = true;
          else if (p === '22' || p === '0' || p === '') this.#dim = false;
        }
        return;
    }
  }

  /** The text before the cursor. */
  get before(): string {
    return this.#cells
      .slice(0, this.#col)
      .map((c) => c.ch)
      .join('');
  }

  /** The dimmed text after the cursor (a suggestion). */
  get dimAfter(): string {
    return this.#cells
      .slice(this.#col)
      .filter((c) => c.dim)
      .map((c) => c.ch)
      .join('');
  }
}

/** The cursor's row shows a prompt (`]> `, `]$ `, `$ `...) and `typed` after it. */
const echoed = (typed: string) => (row: CursorRow) => {
  const before = row.before;
  return before.endsWith(typed) && /[>$?:] $/.test(before.slice(0, before.length - typed.length));
};

/** The same, and the dimmed rest of `line` after the cursor. */
const suggested = (typed: string, line: string) => (row: CursorRow) => echoed(typed)(row) && row.dimAfter === line.slice(typed.length);

class PtyTarget {
  readonly row = new CursorRow();
  readonly #term: IPty;
  #raw = '';
  #exited = '';
  /** Called after each read with the time it arrived (before it is parsed here). */
  #check: ((at: bigint) => void) | null = null;

  constructor(
    readonly name: string,
    file: string,
    args: string[],
    where: { cwd: string; env: Record<string, string> },
  ) {
    this.#term = spawn(file, args, { name: 'xterm-256color', cols: COLUMNS, rows: 30, cwd: where.cwd, env: where.env });
    this.#term.onExit((e) => {
      this.#exited = `exited (code ${e.exitCode}${e.signal ? `, signal ${e.signal}` : ''})`;
    });
    this.#term.onData((d) => {
      const at = process.hrtime.bigint();
      this.#raw = (this.#raw + d).slice(-2000);
      this.row.feed(d);
      this.#check?.(at);
    });
  }

  /** Resolves with the time (hrtime) the output that made `done` true arrived. */
  until(done: (row: CursorRow) => boolean, timeoutMs = 5000): Promise<bigint> {
    return new Promise((resolve, reject) => {
      if (done(this.row)) return resolve(process.hrtime.bigint());
      const timer = setTimeout(() => {
        this.#check = null;
        reject(new Error(`${this.name}: not shown within ${timeoutMs} ms${this.#exited ? `; ${this.#exited}` : ''}; output: ${JSON.stringify(this.#raw)}`));
      }, timeoutMs);
      this.#check = (at) => {
        if (!done(this.row)) return;
        clearTimeout(timer);
        this.#check = null;
        resolve(at);
      };
    });
  }

  /** Writes `keys` and resolves with the milliseconds until `done` holds. */
  async time(keys: string, done: (row: CursorRow) => boolean): Promise<number> {
    const shown = this.until(done);
    const t0 = process.hrtime.bigint();
    this.#term.write(keys);
    return Number((await shown) - t0) / 1e6;
  }

  /** Ctrl-C: the line is dropped and a new prompt drawn. */
  async clear(): Promise<void> {
    this.#term.write('\x03');
    await this.until(echoed(''));
    await sleep(PAUSE_MS * 2);
  }

  kill(): Promise<void> {
    if (this.#exited) return Promise.resolve();
    return new Promise((resolve) => {
      this.#term.onExit(() => resolve());
      this.#term.kill('SIGKILL');
    });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const startAish = (name: string, where: BenchHome) => new PtyTarget(name, process.execPath, [aish], where);
const startBash = (where: BenchHome) => new PtyTarget('bash', 'bash', ['--norc', '--noprofile', '-i'], { cwd: where.cwd, env: { ...where.env, PS1: '$ ', HISTFILE: '/dev/null' } });

async function ready(targets: PtyTarget[]): Promise<void> {
  await Promise.all(targets.map((t) => t.until(echoed(''), 15_000)));
  await sleep(SETTLE_MS);
}

export interface EchoFigures {
  /** Milliseconds, key by key. */
  aish: number[];
  bash: number[];
}

/** `keys` printable keys typed into aish and bash, in turns; a line typed is cleared by Ctrl-C. */
export async function benchKeyEcho(keys = 200): Promise<EchoFigures> {
  const targets = [startAish('aish', ptyHome()), startBash(ptyHome())];
  const samples = targets.map(() => [] as number[]);
  try {
    await ready(targets);
    let typed = 0;
    for (let l = 0; typed < keys; l++) {
      const line = LINES[l % LINES.length]!;
      for (let i = 1; i <= line.length && typed < keys; i++, typed++) {
        for (const [t, target] of targets.entries()) {
          samples[t]!.push(await target.time(line[i - 1]!, echoed(line.slice(0, i))));
          await sleep(PAUSE_MS);
        }
      }
      for (const target of targets) await target.clear();
    }
  } finally {
    await Promise.all(targets.map((t) => t.kill()));
  }
  return { aish: samples[0]!, bash: samples[1]! };
}

export interface SuggestionFigures {
  /** Milliseconds to the suggestion, key by key: the default input history size (1000 of the file's lines loaded). */
  aishDefault: number[];
  /** With `history.input_history_size: 10000`: every line of the file loaded. */
  aishAll: number[];
  /** bash echoing the same keys. */
  bash: number[];
  typed: string;
  fileLines: number;
}

/**
 * The first `prefix` characters of `TARGET_LINE`, typed one at a time, `rounds` times: each key
 * timed until the dimmed rest of the line shows. The file holds `fileLines` lines; the target is
 * the oldest line loaded, so every key's search goes past every other loaded line.
 */
export async function benchSuggestion(rounds = 40, prefix = 5, fileLines = 10_000): Promise<SuggestionFigures> {
  const lines = benchHistory(fileLines); // oldest first, the target first
  // With the default size (1000) the newest 1000 lines are loaded: the target is put as the oldest of them.
  const defaultFile = [...lines.slice(1, fileLines - 999), TARGET_LINE, ...lines.slice(fileLines - 999)];
  const targets = [
    startAish('aish, default', ptyHome(undefined, defaultFile)),
    startAish('aish, 10 000 loaded', ptyHome({ history: { input_history_size: fileLines } }, lines)),
    startBash(ptyHome()),
  ];
  const samples = targets.map(() => [] as number[]);
  const typed = TARGET_LINE.slice(0, prefix);
  try {
    await ready(targets);
    for (let round = 0; round < rounds; round++) {
      for (let i = 1; i <= prefix; i++) {
        for (const [t, target] of targets.entries()) {
          const done = target.name === 'bash' ? echoed(typed.slice(0, i)) : suggested(typed.slice(0, i), TARGET_LINE);
          samples[t]!.push(await target.time(typed[i - 1]!, done));
          await sleep(PAUSE_MS);
        }
      }
      for (const target of targets) await target.clear();
    }
  } finally {
    await Promise.all(targets.map((t) => t.kill()));
  }
  return { aishDefault: samples[0]!, aishAll: samples[1]!, bash: samples[2]!, typed, fileLines };
}
