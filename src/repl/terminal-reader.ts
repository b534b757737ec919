// The line reader on a terminal: aish's own line editor (src/line/) on Node's keypress decoding.
// Every key goes through the editor in the order typed, a burst and a paste included, and the
// line is drawn again from the editor's state after each read, so the screen shows exactly the
// line that will run. Around the editor: the prompt with its route sign (what the line as it
// stands goes to), the suggestion from history, Tab, Ctrl-R, Ctrl-X Ctrl-E, lines the shell says
// are incomplete (a continuation prompt, one entry in the history), one-key questions, keys
// handed to a running command, and lines typed ahead while aish was busy.

import { emitKeypressEvents } from 'node:readline';
import type { Io } from '../io.js';
import { editKey, initialState, insertCompletion, newLine, setText, suggestionFor, type EditorState, type Effect, type KeyInput, type KeyName } from '../line/editor.js';
import { layout, LineView } from '../line/view.js';
import { answerOf, keysHint, type Key } from '../render/answer-keys.js';
import { neutralize } from '../render/sanitize.js';
import { cutToWidth, displayWidth } from '../render/text-width.js';
import { HistorySearch } from './history-search.js';
import type { Completer, Completion, LineReader } from './line-reader.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from './paste-mode.js';

/** What the prompt's last sign says of the line as it stands. */
export type RouteSign = '>' | '$' | '?' | ':';

export interface TerminalReaderOptions {
  /** The input history, newest first. */
  history: string[];
  historySize: number;
  completer: Completer;
  /** Called with the history (newest first) each time a line joins it. */
  onHistory: (newestFirst: string[]) => void;
  /** Ctrl-C pressed while a question was asked. */
  onInterrupt: () => void;
  /** Ctrl-X Ctrl-E: composes `initial` in the editor; null when nothing is to be run. */
  edit?: (initial: string) => Promise<string | null>;
  /** Where the line as it stands goes (the route sign); answers it does not have yet come through `refresh`. */
  sign?: (line: string) => RouteSign;
  /** Whether the shell would read more lines after `text` (an open quote, `for … do`, a here-document). */
  incomplete?: (text: string) => Promise<boolean>;
  /** vi or emacs keys; `mode()` is asked before each line (`set -o vi` typed in the session counts). */
  mode?: () => 'emacs' | 'vi';
  /** Whether to colour: the suggestion is shown dimmed, and not at all without colour (NO_COLOR). */
  color?: boolean;
  /** ~/.inputrc's bell-style: what a key that cannot act does (the end of the history...). */
  bell?: 'none' | 'visible' | 'audible';
  /**
   * Suggestions from the model (`suggest.model`): asked after `idleMs` without a key, for a line
   * with no suggestion from history; the next key cancels the request. `ask` resolves to the text
   * to show after the line, or null.
   */
  suggestModel?: { idleMs: number; ask: (line: string, signal: AbortSignal) => Promise<string | null> };
}

/** A model's suggestion shown after the line: italic and dim, unlike history's dim. */
const MODEL_STYLE = (t: string) => `\x1b[2;3m${t}\x1b[22;23m`;

/** A line being read: who waits for it, and how it is shown. */
interface Reading {
  prompt: string;
  /** A question's answer: no route sign, not kept in history, its own completer. */
  asking: boolean;
  completer: Completer | null;
  resolve: (line: Entered | null) => void;
}

/** A line as entered: Alt-Enter sends it the other way. */
interface Entered {
  text: string;
  flipped: boolean;
}

/** A one-key question being asked: the keys of one read (a burst) are judged together. */
interface KeyQuestionState {
  question: string;
  keys: string;
  fallback: string;
  resolve: (key: string | null) => void;
  burst: { s: string | undefined; key: Key | undefined; pasted: boolean }[] | null;
}

const CONTINUATION = '... ';

export class TerminalLineReader implements LineReader {
  readonly #io: Io;
  readonly #opts: TerminalReaderOptions;
  readonly #history: string[];
  #state: EditorState;
  readonly #view = new LineView();
  /** Rows of the last drawing, for leaving it. */
  #rows = 0;
  #reading: Reading | null = null;
  #closed = false;
  /** Where lines typed during long work go (see `listen`). */
  #listener: ((line: string) => void) | null = null;
  /** Lines entered while no one was reading (typed ahead in the same read): the next lines read. */
  readonly #typeahead: Entered[] = [];
  #flipped = false;
  /** Keys that came while the reader waited on something (Tab's answer, the shell on Enter). */
  readonly #queue: KeyInput[] = [];
  #busy = false;
  /** The Ctrl-R search in progress, with the line to come back to. */
  #search: { search: HistorySearch; text: string; cursor: number } | null = null;
  #lastQuery = '';
  #editing = false;
  #passing = false;
  #keyQuestion: KeyQuestionState | null = null;
  /** Inside a bracketed paste (for one-key questions). */
  #inPaste = false;
  /** A redraw is due at the end of this read. */
  #dirty = false;
  /** The model's suggestion for the line `for`, its request in flight, and the idle timer before it. */
  #modelSuggestion: { for: string; rest: string } | null = null;
  #modelAsk: { timer: NodeJS.Timeout | null; controller: AbortController } | null = null;
  readonly #onKeypress: (s: string | undefined, key: KeyName | undefined) => void;
  readonly #stopResize: (() => void) | null;

  constructor(io: Io, opts: TerminalReaderOptions) {
    this.#io = io;
    this.#opts = opts;
    this.#history = opts.history;
    this.#state = initialState({ history: this.#history, mode: opts.mode?.() ?? 'emacs' });
    emitKeypressEvents(io.input);
    this.#onKeypress = (s, key) => this.#keypress(s, key ?? { sequence: s, name: s });
    io.input.on('keypress', this.#onKeypress);
    io.input.on('end', () => this.close());
    // A new width wraps the line otherwise: it is drawn again for it.
    this.#stopResize = io.onResize?.(() => this.refresh()) ?? null;
  }

  // ---- keys ----

  #keypress(s: string | undefined, key: KeyName): void {
    if (this.#passing || this.#closed) return;
    if (key.name === 'paste-start') this.#inPaste = true;
    else if (key.name === 'paste-end') this.#inPaste = false;
    if (this.#keyQuestion) {
      this.#questionKey(this.#keyQuestion, s, key as Key);
      return;
    }
    if (this.#editing) return;
    if (this.#busy) {
      this.#queue.push({ s, key });
      return;
    }
    const before = this.#state.text;
    this.#apply({ s, key });
    this.#redrawSoon();
    this.#scheduleModelSuggestion(before !== this.#state.text || this.#modelSuggestion !== null);
  }

  /** Any key cancels the model's suggestion in flight; a changed line starts the idle wait again. */
  #scheduleModelSuggestion(changed: boolean): void {
    const suggest = this.#opts.suggestModel;
    if (!suggest || this.#opts.color === false) return;
    if (this.#modelAsk) {
      if (this.#modelAsk.timer) clearTimeout(this.#modelAsk.timer);
      this.#modelAsk.controller.abort();
      this.#modelAsk = null;
    }
    if (!changed) return;
    const state = this.#state;
    const reading = this.#reading;
    if (!reading || reading.asking || this.#search || state.text.trim() === '' || state.text.includes('\n') || state.cursor !== state.text.length) return;
    if (suggestionFor(state) !== '') return;
    const controller = new AbortController();
    const text = state.text;
    const timer = setTimeout(() => {
      if (this.#modelAsk) this.#modelAsk.timer = null;
      void suggest
        .ask(text, controller.signal)
        .catch(() => null)
        .then((rest) => {
          if (controller.signal.aborted || !rest || this.#state.text !== text || this.#reading !== reading) return;
          this.#modelSuggestion = { for: text, rest };
          this.refresh();
        });
    }, suggest.idleMs);
    timer.unref?.();
    this.#modelAsk = { timer, controller };
  }

  /** The model's suggestion for the line as it stands, if it is still for it. */
  #modelRest(state: EditorState): string {
    const m = this.#modelSuggestion;
    return m && m.for === state.text && state.cursor === state.text.length ? m.rest : '';
  }

  /** One key through the search or the editor, then what it asks for. */
  #apply(input: KeyInput): void {
    if (this.#search) {
      this.#searchKey(input);
      return;
    }
    // Right, End or C-f at the end take the model's suggestion, M-f one word of it (as history's).
    const rest = this.#modelRest(this.#state);
    this.#modelSuggestion = null;
    const { key } = input;
    if (rest && !key.shift && ((!key.ctrl && !key.meta && (key.name === 'right' || key.name === 'end')) || (key.ctrl && !key.meta && (key.name === 'f' || key.name === 'e')) || (key.meta && !key.ctrl && key.name === 'f'))) {
      const take = key.meta ? rest.slice(0, /^\W*\w*/.exec(rest)![0].length || rest.length) : rest;
      this.#state = setText(this.#state, this.#state.text + take);
      this.#dirty = true;
      return;
    }
    const { state, effects } = editKey(this.#state, input);
    this.#state = state;
    this.#dirty = true;
    for (const effect of effects) this.#effect(effect, input);
  }

  #effect(effect: Effect, input: KeyInput): void {
    switch (effect.type) {
      case 'submit':
        this.#submit(effect.text, effect.flipped);
        return;
      case 'eof':
        if (this.#reading?.asking) {
          this.#leave();
          this.#finish(null);
          return;
        }
        this.#leave();
        this.close();
        return;
      case 'interrupt':
        this.#interrupt();
        return;
      case 'clear-screen':
        this.#io.output.write('\x1b[H\x1b[2J');
        this.#view.forget();
        this.#dirty = true;
        return;
      case 'complete':
        void this.#complete();
        return;
      case 'edit':
        if (this.#reading && !this.#reading.asking && this.#opts.edit) void this.#edit(this.#opts.edit);
        return;
      case 'search':
        this.#startSearch();
        return;
      case 'bell':
        if (this.#opts.bell === 'audible') this.#io.output.write('\x07');
        return;
    }
    void input;
  }

  /** Applies the keys that waited, until one makes the reader wait again. */
  #drain(): void {
    while (!this.#busy && !this.#passing && !this.#editing && !this.#keyQuestion && !this.#closed && this.#queue.length > 0) this.#apply(this.#queue.shift()!);
    this.#redraw();
  }

  // ---- lines ----

  /** Enter (Alt-Enter: `flipped`). A shell line the shell finds incomplete gets another line. */
  #submit(text: string, flipped: boolean): void {
    const reading = this.#reading;
    const check = this.#opts.incomplete;
    if (check && !reading?.asking && !flipped && text.trim() !== '') {
      this.#busy = true;
      void check(text)
        .catch(() => false)
        .then((more) => {
          this.#busy = false;
          if (more && !this.#closed) {
            this.#state = { ...setText(this.#state, `${text}\n`), last: { type: 'none' } };
            this.#dirty = true;
          } else {
            this.#enter(text, flipped);
          }
          this.#drain();
        });
      return;
    }
    this.#enter(text, flipped);
  }

  /** The line is entered: left on the screen as it was, kept in the history, delivered. */
  #enter(text: string, flipped: boolean): void {
    const reading = this.#reading;
    this.#modelSuggestion = null;
    this.#scheduleModelSuggestion(false);
    this.#redraw(false);
    this.#leave();
    if (!reading?.asking) this.#addHistory(text);
    this.#state = newLine(this.#state, { history: this.#history });
    this.#finish({ text, flipped });
  }

  /** Resolves the line being read (or keeps it for the next read when nobody reads). */
  #finish(line: Entered | null): void {
    const reading = this.#reading;
    this.#reading = null;
    if (reading) {
      reading.resolve(line);
      return;
    }
    if (line === null) return;
    if (this.#listener) this.#listener(line.text);
    else this.#typeahead.push(line);
  }

  /** Ctrl-C: cancels a question or long work; at an idle prompt clears the line, as a shell does. */
  #interrupt(): void {
    const reading = this.#reading;
    this.#search = null;
    if (reading?.asking || this.#listener) {
      this.#redraw(false);
      this.#leaveWith('^C');
      this.#state = newLine(this.#state, { history: this.#history });
      this.#finish(null);
      this.#opts.onInterrupt();
      return;
    }
    // Ctrl-C in the same read as the Enter before it: it is for the line just entered. Lines typed
    // ahead go, as a terminal drops them on Ctrl-C.
    if (!reading) {
      this.#io.output.write('^C\r\n');
      this.#typeahead.length = 0;
      this.#state = newLine(this.#state, { history: this.#history });
      setImmediate(() => this.#opts.onInterrupt());
      return;
    }
    this.#redraw(false);
    this.#leaveWith('^C');
    this.#state = newLine(this.#state, { history: this.#history });
    this.#dirty = true;
  }

  #addHistory(text: string): void {
    // A line typed with a leading space is not kept (the shells' `ignorespace`), nor an empty one.
    if (text.trim() === '' || text.startsWith(' ')) return;
    const at = this.#history.indexOf(text);
    if (at !== -1) this.#history.splice(at, 1);
    this.#history.unshift(text);
    if (this.#history.length > this.#opts.historySize) this.#history.length = this.#opts.historySize;
    this.#opts.onHistory(this.#history);
  }

  remember(line: string): void {
    if (line.trim() === '' || line.includes('\n')) return;
    this.#addHistory(line);
  }

  // ---- drawing ----

  #redrawSoon(): void {
    // Keys of one read come one after the other in the same tick: drawn once, after the last.
    if (this.#dirty) queueMicrotask(() => this.#redraw());
  }

  /** Draws the line if it changed (or `force`), unless nobody is reading. */
  #redraw(onlyIfDirty = true): void {
    if (onlyIfDirty && !this.#dirty) return;
    this.#dirty = false;
    const reading = this.#reading;
    if (!reading || this.#closed || this.#passing || this.#editing || this.#keyQuestion) return;
    const search = this.#search?.search;
    const state = this.#state;
    const prompt = search ? search.prompt : reading.asking ? reading.prompt : this.#signed(reading.prompt, state.text);
    const text = search ? search.line : state.text;
    const cursor = search ? search.cursor : state.cursor;
    const shown = layout({
      prompt,
      continuation: CONTINUATION,
      text,
      cursor,
      // Without colour a suggestion would look typed: the screen must show only what runs.
      suggestion: search || reading.asking || this.#opts.color === false ? '' : suggestionFor(state) || this.#modelRest(state),
      ...(!search && !suggestionFor(state) && this.#modelRest(state) ? { dim: MODEL_STYLE } : {}),
      columns: this.#io.columns(),
      width: displayWidth,
    });
    this.#rows = shown.rows;
    this.#io.output.write(this.#view.draw(shown));
  }

  /** The prompt with its last sign saying where `text` goes (`]>` empty, `]$` shell, `]?` model, `]:` meta). */
  #signed(prompt: string, text: string): string {
    const sign = this.#opts.sign;
    // Long work's read has no prompt, and no sign either.
    if (!sign || prompt === '') return prompt;
    const mark = sign(text);
    const m = /([>$?:%#])(\s*(?:\x1b\[[0-9;]*m)*\s*)$/.exec(prompt);
    if (m) return prompt.slice(0, m.index) + mark + m[2];
    return `${prompt}${mark} `;
  }

  /** Leaves the drawn line on the screen and moves below it. */
  #leave(): void {
    this.#io.output.write(this.#view.leave(this.#rows));
  }

  /** Leaves the drawn line with `mark` after it (`^C`), as a terminal echoes the key. */
  #leaveWith(mark: string): void {
    if (!this.#view.drawn) {
      this.#io.output.write(`${mark}\r\n`);
      return;
    }
    // The cursor goes to the end of the text first, so the mark follows it.
    const state = this.#state;
    this.#state = { ...state, cursor: state.text.length };
    this.#dirty = true;
    this.#redraw();
    this.#state = state;
    this.#io.output.write(`\x1b[0K${mark}`);
    this.#leave();
  }

  /**
   * The shell's editing mode may have changed (`set -o vi` ran, or the shell said so only now):
   * the line being typed takes it at once.
   */
  modeChanged(): void {
    const mode = this.#opts.mode?.();
    if (!mode || !this.#reading || this.#reading.asking) return;
    const now = this.#state.mode === 'emacs' ? 'emacs' : 'vi';
    if (mode === now) return;
    this.#state = { ...this.#state, mode: mode === 'vi' ? 'vi-insert' : 'emacs' };
  }

  /** Draws the line again (an answer about the route came, the terminal was resized or continued). */
  refresh(): void {
    this.#dirty = true;
    this.#redraw();
  }

  // ---- Tab ----

  async #complete(): Promise<void> {
    const reading = this.#reading;
    const complete = reading?.completer ?? this.#opts.completer;
    const before = this.#state.text.slice(0, this.#state.cursor);
    this.#busy = true;
    let result: Completion = [[], before];
    try {
      result = await complete(before);
    } catch {
      // No answer: nothing is completed.
    }
    this.#busy = false;
    if (this.#closed || this.#reading !== reading || !reading) {
      this.#drain();
      return;
    }
    const [candidates, replaced, descriptions] = result;
    if (candidates.length === 1) {
      this.#state = insertCompletion(this.#state, replaced, candidates[0]!);
    } else if (candidates.length > 1) {
      const common = commonPrefix(candidates);
      if (common.length > replaced.length) this.#state = insertCompletion(this.#state, replaced, common);
      else this.#list(candidates, descriptions);
    }
    this.#dirty = true;
    this.#drain();
  }

  /**
   * Shows Tab's candidates in columns below the line, then the line again; with what the shell
   * says of them (fish's descriptions), one a row, the description after it in parentheses, made
   * safe and cut to the terminal's width.
   */
  #list(candidates: readonly string[], descriptions?: Readonly<Record<string, string>>): void {
    this.#redraw(false);
    this.#leave();
    const width = Math.max(...candidates.map((c) => displayWidth(c))) + 2;
    if (descriptions && candidates.some((c) => descriptions[c])) {
      const columns = this.#io.columns();
      const rows = candidates.map((c) => {
        const said = descriptions[c] ? `(${neutralize(descriptions[c]).replace(/[\n\t]/g, ' ')})` : '';
        return cutToWidth(`${c}${' '.repeat(Math.max(0, width - displayWidth(c)))}${said}`, columns - 1).trimEnd();
      });
      this.#io.output.write(`${rows.join('\r\n')}\r\n`);
      this.#dirty = true;
      return;
    }
    const perRow = Math.max(1, Math.floor(this.#io.columns() / width));
    const rows: string[] = [];
    for (let i = 0; i < candidates.length; i += perRow) {
      rows.push(
        candidates
          .slice(i, i + perRow)
          .map((c) => c + ' '.repeat(Math.max(0, width - displayWidth(c))))
          .join('')
          .trimEnd(),
      );
    }
    this.#io.output.write(`${rows.join('\r\n')}\r\n`);
    this.#dirty = true;
  }

  // ---- Ctrl-R ----

  #startSearch(): void {
    const { text, cursor } = this.#state;
    const search = new HistorySearch([...this.#history], { line: text, cursor }, this.#lastQuery);
    this.#search = { search, text, cursor };
    this.#dirty = true;
  }

  #searchKey(input: KeyInput): void {
    const current = this.#search!;
    const { search } = current;
    const step = search.key(input.s, input.key);
    this.#dirty = true;
    if (step.type === 'show') return;
    this.#search = null;
    if (search.query !== '') this.#lastQuery = search.query;
    if (step.type === 'cancel') {
      this.#state = { ...this.#state, text: current.text, cursor: current.cursor };
      return;
    }
    this.#state = setText(this.#state, search.line, search.cursor);
    if (step.forward) this.#apply(input);
  }

  // ---- the editor (Ctrl-X Ctrl-E) ----

  async #edit(edit: (initial: string) => Promise<string | null>): Promise<void> {
    const reading = this.#reading!;
    const { text, cursor } = this.#state;
    this.#redraw(false);
    this.#leave();
    this.#editing = true;
    this.#setRaw(false);
    this.#io.output.write(BRACKETED_PASTE_OFF);
    let composed: string | null = null;
    try {
      composed = await edit(text);
    } catch {
      composed = null;
    } finally {
      this.#editing = false;
    }
    if (this.#closed || this.#reading !== reading) return;
    this.#setRaw(true);
    this.#io.output.write(BRACKETED_PASTE_ON);
    this.#io.input.resume();
    if (composed === null) {
      this.#state = { ...this.#state, text, cursor };
      this.refresh();
      return;
    }
    // What comes back is entered as typed; several lines are one input, shown with `... `.
    this.#state = setText(this.#state, composed.replace(/\n+$/, ''));
    this.#dirty = true;
    this.#enter(this.#state.text, false);
    this.#drain();
  }

  // ---- LineReader ----

  get flipped(): boolean {
    return this.#flipped;
  }

  async read(prompt: string, prefill?: string): Promise<string | null> {
    const line = this.#typeahead.shift() ?? (await this.#read({ prompt, asking: false, completer: null }, prefill));
    this.#flipped = line?.flipped ?? false;
    return line?.text ?? null;
  }

  #read(how: Omit<Reading, 'resolve'>, prefill?: string): Promise<Entered | null> {
    if (this.#closed) return Promise.resolve(null);
    const mode = this.#opts.mode?.();
    return new Promise((resolve) => {
      this.#reading = { ...how, resolve };
      // Keys typed ahead of this read are on the line already; a prefill replaces them.
      const typed = this.#state.text;
      this.#state = newLine(this.#state, { history: this.#history, text: prefill ?? typed, ...(mode ? { mode } : {}) });
      this.#setRaw(true);
      this.#io.output.write(BRACKETED_PASTE_ON);
      this.#io.input.resume();
      this.#view.forget();
      // Long work's silent read draws nothing until a key is typed: the work's output goes on.
      this.#dirty = how.prompt !== '' || this.#state.text !== '';
      this.#redraw();
      this.#drain();
    });
  }

  async ask(question: string, prefill?: string, complete?: Completer): Promise<string | null> {
    const saved = this.#state;
    try {
      return (await this.#read({ prompt: question, asking: true, completer: complete ?? null }, prefill ?? ''))?.text ?? null;
    } finally {
      // The line typed before the question (long work's) is not lost to it.
      this.#state = newLine(this.#state, { history: this.#history, text: saved.text });
      this.suspend();
      this.#startListening();
    }
  }

  askKey(question: string, keys: string, fallback: string): Promise<string | null> {
    if (this.#closed) return Promise.resolve(null);
    return new Promise<string | null>((resolve) => {
      this.#keyQuestion = { question, keys, fallback, resolve, burst: null };
      this.#setRaw(true);
      // A paste is marked, so pasted text is never taken for keys typed.
      this.#io.output.write(BRACKETED_PASTE_ON + question);
      this.#io.input.resume();
    }).finally(() => {
      this.#keyQuestion = null;
      this.suspend();
      this.#startListening();
    });
  }

  /**
   * A key while a one-key question is asked. Ctrl-C cancels at once; the other keys of one read
   * (Node's keypress decoding emits them together) are judged together once the read is done.
   */
  #questionKey(q: KeyQuestionState, s: string | undefined, key: Key | undefined): void {
    const ctrl = Boolean(key?.ctrl && !key.meta);
    if (ctrl && (key?.name === 'c' || key?.name === 'd')) {
      this.#io.output.write(key.name === 'c' ? '^C\r\n' : '\r\n');
      q.resolve(null);
      if (key.name === 'c') this.#opts.onInterrupt();
      return;
    }
    const pasted = this.#inPaste || key?.name === 'paste-start' || key?.name === 'paste-end';
    if (q.burst === null) {
      q.burst = [];
      setImmediate(() => this.#endBurst(q));
    }
    q.burst.push({ s, key, pasted });
  }

  #endBurst(q: KeyQuestionState): void {
    const burst = q.burst ?? [];
    q.burst = null;
    if (this.#keyQuestion !== q) return;
    // The end of a paste arrives in its own read: the paste was answered (asked again) already.
    if (burst.length > 0 && burst.every((k) => k.key?.name === 'paste-end')) return;
    const answer = answerOf(burst, q.keys, q.fallback);
    if (answer === null) {
      const last = q.question.split('\n').at(-1) ?? '';
      this.#io.output.write(`\r\n${keysHint(q.keys, q.fallback)}\r\n${last}`);
      return;
    }
    this.#io.output.write(`${answer}\r\n`);
    q.resolve(answer);
  }

  listen(onLine: (line: string) => void): () => void {
    this.#listener = onLine;
    this.#startListening();
    return () => {
      this.#listener = null;
      const reading = this.#reading;
      if (reading && !reading.asking) {
        // The line typed during the work stays, for the next prompt.
        this.#io.output.write(this.#view.erase());
        this.#reading = null;
        reading.resolve(null);
      }
      this.suspend();
    };
  }

  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.suspend();
    try {
      return await work();
    } finally {
      this.#startListening();
    }
  }

  /** During long work: keys are read without a prompt, each line going to the listener. */
  #startListening(): void {
    if (this.#closed || !this.#listener || this.#reading) return;
    const listener = this.#listener;
    void this.#read({ prompt: '', asking: false, completer: null }).then((line) => {
      if (line !== null && this.#listener === listener) listener(line.text);
      if (this.#listener === listener) this.#startListening();
    });
  }

  passKeys(onKeys: (data: string) => void): () => void {
    if (this.#closed) return () => {};
    const input = this.#io.input;
    const onData = (data: Buffer | string) => onKeys(typeof data === 'string' ? data : data.toString('utf8'));
    this.#passing = true;
    this.#setRaw(true);
    input.on('data', onData);
    input.resume();
    return () => {
      input.removeListener('data', onData);
      this.#passing = false;
      if (this.#closed) return;
      input.pause();
      this.#setRaw(false);
    };
  }

  suspend(): void {
    if (this.#closed) return;
    this.#io.input.pause();
    this.#setRaw(false);
    // Programs run next (cat, vim...) must not receive paste markers they did not ask for.
    this.#io.output.write(BRACKETED_PASTE_OFF);
  }

  /** After aish was stopped and continued (SIGCONT): the terminal is set up again and the line drawn. */
  continued(): void {
    if (this.#closed) return;
    // libuv keeps the mode it set and would skip setting raw mode again: the terminal's settings
    // changed behind its back (a job-control shell put them back to cooked), so off, then on.
    const raw = this.#raw;
    this.#setRaw(false);
    if (raw) this.#setRaw(true);
    if (!this.#reading) return;
    this.#io.output.write(BRACKETED_PASTE_ON);
    this.#view.forget();
    this.refresh();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopResize?.();
    this.#scheduleModelSuggestion(false);
    this.#io.output.write(BRACKETED_PASTE_OFF);
    this.#io.input.removeListener('keypress', this.#onKeypress);
    this.#setRaw(false);
    this.#io.input.pause();
    this.#keyQuestion?.resolve(null);
    this.#finish(null);
  }

  /** Whether aish has the terminal in raw mode (a line is read, or keys go to a command). */
  #raw = false;

  #setRaw(on: boolean): void {
    this.#raw = on;
    this.#io.input.setRawMode?.(on);
  }
}

/** The longest start all candidates share. */
function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? '';
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
