// Where input lines come from. On a terminal: node:readline with editing, history, completion and
// Ctrl-C clearing the line, plus two keys readline lacks: Ctrl-R (reverse incremental search,
// history-search.ts) and Ctrl-X Ctrl-E (compose the line in $VISUAL/$EDITOR). The reader takes
// readline's keypress listener off the input and calls it itself, so those keys (and every key
// during a search) never reach readline. From a pipe or file: the lines in order, no prompt, no echo.

import readline from 'node:readline';
import type { Io } from '../io.js';
import { answerOf, keysHint, type Key } from '../render/answer-keys.js';
import { neutralize } from '../render/sanitize.js';
import { HistorySearch } from './history-search.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from './paste-mode.js';
import { createWithOwnKeys, historyOf, leaveLine, setLine, type KeyListener } from './readline-private.js';


export interface LineReader {
  /** The next line; null at end of input (Ctrl-D, EOF). `prefill` is put on the line to edit. */
  read(prompt: string, prefill?: string): Promise<string | null>;
  /**
   * Asks for a line of free text in the middle of processing a line (an edited command, a form
   * field). The answer is not kept in history. null when there is no one to ask (piped input), on Ctrl-C or at end of input.
   * `complete` answers Tab while it is asked (else Tab completes nothing).
   */
  ask(question: string, prefill?: string, complete?: Completer): Promise<string | null>;
  /**
   * Asks a question answered by one key: resolves the first key of `keys` typed alone (or with
   * Enter), Enter alone is `fallback`; a key that is not an answer (or a paste, or several keys at
   * once) asks again. null when there is no one to ask (piped input), on Ctrl-C, Ctrl-D or at end
   * of input.
   */
  askKey(question: string, keys: string, fallback: string): Promise<string | null>;
  /** Called while a line is processed: keys wait in the terminal and Ctrl-C becomes SIGINT. */
  suspend(): void;
  /**
   * While long work runs (Norris): lines typed meanwhile go to `onLine` and Ctrl-C to the
   * interrupt handler; a question still takes the next line. Returns the function that stops it.
   */
  listen(onLine: (line: string) => void): () => void;
  /** Runs `work` with the terminal given back to it (a command runs), then listens again. */
  hold<T>(work: () => Promise<T>): Promise<T>;
  /**
   * While a line is processed: every key, as the terminal sent it, goes to `onKeys` (a command
   * running in the session's shell), with the terminal in raw mode, until the returned function
   * is called.
   */
  passKeys(onKeys: (data: string) => void): () => void;

  /** Puts a line into the input history as if it had been typed (one line only). */
  remember(line: string): void;
  close(): void;
}


/** A one-key question being asked: the keys of one read (a burst) are judged together. */
interface KeyQuestionState {
  question: string;
  keys: string;
  fallback: string;
  resolve: (key: string | null) => void;
  burst: { s: string | undefined; key: Key | undefined; pasted: boolean }[] | null;
}

/** How text composed in the editor is shown once it comes back: the prompt, then `... ` lines. */
export function echoComposed(prompt: string, text: string): string {
  return `${prompt}${neutralize(text).split('\n').join('\n... ')}\n`;
}

/** Tab: [candidates, the text they replace]; readline waits for a promise (keys typed meanwhile wait too). */
export type Completer = (line: string) => [string[], string] | Promise<[string[], string]>;

export interface TerminalReaderOptions {
  history: string[];
  historySize: number;
  completer: Completer;
  onHistory: (newestFirst: string[]) => void;
  /** Ctrl-C pressed while a question was asked. */
  onInterrupt: () => void;
  /**
   * Ctrl-X Ctrl-E: composes `initial` in the editor (the terminal is handed over meanwhile) and
   * resolves to the text, or to null when nothing is to be run (the callee says why).
   */
  edit?: (initial: string) => Promise<string | null>;
}

/** A line reader on a terminal. */
export class TerminalLineReader implements LineReader {
  readonly #rl: readline.Interface;
  readonly #io: Io;
  #waiting: ((line: string | null) => void) | null = null;
  #closed = false;
  #asking = false;
  /** Lines submitted inside a bracketed paste, waiting for the Enter that ends the input. */
  #pasted: string[] = [];
  #inPaste = false;
  /** Where lines typed during long work go (see `listen`). */
  #listener: ((line: string) => void) | null = null;
  /**
   * Lines submitted while no one was reading: typed ahead in the same read as the line before
   * (readline goes through the whole chunk). They are the next lines read, never answers.
   */
  #typeahead: string[] = [];
  readonly #opts: TerminalReaderOptions;
  /** readline's own keypress listener(s), called by `#keypress` for the keys readline should see. */
  readonly #readlineKeys: KeyListener[];
  readonly #onKeypress: KeyListener;
  /** The Ctrl-R search in progress, with the prompt and line to come back to. */
  #search: { search: HistorySearch; prompt: string; line: string; cursor: number } | null = null;
  /** The query of the last search: Ctrl-R on an empty query searches for it again. */
  #lastQuery = '';
  /** Ctrl-X was pressed: Ctrl-E next opens the editor. */
  #ctrlX = false;
  /** The editor has the terminal (Ctrl-X Ctrl-E). */
  #editing = false;
  /** Keys go to a running command (`passKeys`), not to readline. */
  #passing = false;
  /** A one-key question is asked: every key goes to it (`askKey`). */
  #keyQuestion: KeyQuestionState | null = null;
  /** What Tab completes while a line question is asked (`ask`). */
  #askCompleter: Completer | null = null;

  constructor(io: Io, opts: TerminalReaderOptions) {
    this.#io = io;
    this.#opts = opts;
    const created = createWithOwnKeys(io.input, () => readline.createInterface({
      input: io.input,
      output: io.output,
      terminal: true,
      history: opts.history,
      historySize: opts.historySize,
      removeHistoryDuplicates: true,
      // readline's callback form, so an answer may come from the session's shell.
      completer: (line: string, done: (err: Error | null, result?: [string[], string]) => void) => {
        // A question with answers of its own (a prompt's argument) completes those.
        const complete = this.#askCompleter ?? opts.completer;
        Promise.resolve()
          .then(() => complete(line))
          .then(
            (result) => done(null, result),
            () => done(null, [[], line]),
          );
      },
      tabSize: 4,
    }));
    this.#rl = created.rl;
    // Every key comes to `#keypress` first; it hands readline the ones readline should see.
    this.#readlineKeys = created.readlineKeys;
    this.#onKeypress = (s, key) => this.#keypress(s, key);
    io.input.on('keypress', this.#onKeypress);
    this.#rl.on('line', (line) => {
      if (this.#inPaste) {
        this.#pasted.push(line);
        return;
      }
      const whole = [...this.#pasted, line].join('\n');
      this.#pasted = [];
      this.#deliver(whole);
    });
    this.#rl.on('close', () => {
      this.#closed = true;
      io.input.removeListener('keypress', this.#onKeypress);
      this.#keyQuestion?.resolve(null);
      this.#deliver(null);
    });
    // Ctrl-C at an idle prompt clears the line, as in a shell; during a question it cancels.
    this.#rl.on('SIGINT', () => {
      if (this.#asking || this.#listener) {
        io.output.write('^C\n');
        this.#deliver(null);
        opts.onInterrupt();
        return;
      }
      // Ctrl-C in the same read as the Enter before it (typed right after it): it is for the line
      // just entered, whose processing starts now, not for an idle prompt. Lines typed ahead go,
      // as a terminal drops them on Ctrl-C.
      if (this.#waiting === null && !this.#closed) {
        io.output.write('^C\n');
        this.#typeahead.length = 0;
        setImmediate(() => opts.onInterrupt());
        return;
      }
      setLine(this.#rl, '', 0);
      io.output.write('^C\n');
      this.#rl.prompt();
    });
    this.#rl.on('history', (h: string[]) => {
      if (!this.#asking) opts.onHistory(h);
    });
  }

  #toReadline(s: string | undefined, key: Key | undefined): void {
    for (const l of this.#readlineKeys) l.call(this.#io.input, s, key);
  }

  #keypress(s: string | undefined, key: Key | undefined): void {
    // Bracketed paste: newlines inside a paste do not submit; the pasted lines and what follows
    // them up to the next Enter are one input (a pasted traceback is one question).
    if (this.#passing) return;
    if (key?.name === 'paste-start') this.#inPaste = true;
    else if (key?.name === 'paste-end') this.#inPaste = false;
    if (this.#keyQuestion) {
      this.#questionKey(this.#keyQuestion, s, key);
      return;
    }
    if (this.#editing) return;
    if (this.#search) {
      this.#searchKey(s, key ?? {});
      return;
    }
    // The keys of our own work only at the prompt: not in a question, a paste or long work.
    const atPrompt = this.#waiting !== null && !this.#asking && !this.#inPaste && !this.#closed;
    const ctrl = Boolean(key?.ctrl && !key.meta);
    if (this.#ctrlX) {
      this.#ctrlX = false;
      if (ctrl && key?.name === 'e' && atPrompt && this.#opts.edit) {
        void this.#edit(this.#opts.edit);
        return;
      }
      // Ctrl-X then anything else: that key acts alone.
    }
    if (ctrl && atPrompt && key?.name === 'r') {
      this.#startSearch();
      return;
    }
    if (ctrl && atPrompt && key?.name === 'x') {
      this.#ctrlX = true;
      return;
    }
    // Ctrl-N starts a Norris goal: `:norris ` at the start of an empty line.
    if (ctrl && key?.name === 'n' && !this.#asking && this.#rl.line === '') setImmediate(() => this.#rl.write(':norris '));
    this.#toReadline(s, key);
  }

  /** readline's line and cursor. */
  get #state(): { line: string; cursor: number } {
    return { line: this.#rl.line, cursor: this.#rl.cursor };
  }

  /** Redraws the input line: `prompt`, then `line` with the cursor at `cursor`. */
  #show(prompt: string, line: string, cursor: number): void {
    this.#rl.setPrompt(prompt);
    setLine(this.#rl, line, cursor);
    this.#rl.prompt(true);
  }

  #history(): string[] {
    return historyOf(this.#rl);
  }

  #startSearch(): void {
    const { line, cursor } = this.#state;
    const search = new HistorySearch([...this.#history()], { line, cursor }, this.#lastQuery);
    this.#search = { search, prompt: this.#rl.getPrompt(), line, cursor };
    this.#show(search.prompt, search.line, search.cursor);
  }

  #searchKey(s: string | undefined, key: Key): void {
    const current = this.#search!;
    const { search } = current;
    const step = search.key(s, key);
    if (step.type === 'show') {
      this.#show(search.prompt, search.line, search.cursor);
      return;
    }
    this.#search = null;
    if (search.query !== '') this.#lastQuery = search.query;
    if (step.type === 'cancel') {
      this.#show(current.prompt, current.line, current.cursor);
      return;
    }
    this.#show(current.prompt, search.line, search.cursor);
    if (step.forward) this.#toReadline(s, key);
  }

  /**
   * Ctrl-X Ctrl-E: the line (with lines pasted before it) goes to the editor, the terminal is
   * handed over, and what comes back is submitted as typed: one line through readline (so it
   * joins the history), several as one input, shown with `... ` before each further line.
   * Cancelled: the line is back as it was.
   */
  async #edit(edit: (initial: string) => Promise<string | null>): Promise<void> {
    const { line, cursor } = this.#state;
    const pasted = this.#pasted;
    const prompt = this.#rl.getPrompt();
    this.#pasted = [];
    this.#editing = true;
    // Leave the line on screen as it was and start the editor below it.
    leaveLine(this.#rl);
    this.suspend();
    let text: string | null = null;
    try {
      text = await edit([...pasted, line].join('\n'));
    } catch {
      text = null;
    } finally {
      this.#editing = false;
    }
    if (this.#closed || this.#waiting === null) return;
    this.#io.input.setRawMode?.(true);
    this.#io.output.write(BRACKETED_PASTE_ON);
    this.#rl.resume();
    if (text === null) {
      this.#pasted = pasted;
      this.#show(prompt, line, cursor);
      return;
    }
    if (!text.includes('\n')) {
      this.#show(prompt, text, text.length);
      this.#toReadline('\r', { name: 'return', sequence: '\r' });
      return;
    }
    this.#io.output.write(echoComposed(prompt, text));
    this.#deliver(text);
  }

  remember(line: string): void {
    if (line.trim() === '' || line.includes('\n')) return;
    const history = this.#history();
    const at = history.indexOf(line);
    if (at !== -1) history.splice(at, 1);
    history.unshift(line);
    if (history.length > this.#opts.historySize) history.length = this.#opts.historySize;
    this.#opts.onHistory(history);
  }

  #deliver(line: string | null): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    if (waiting) waiting(line);
    else if (line !== null) {
      if (this.#listener) this.#listener(line);
      else this.#typeahead.push(line);
    }
  }

  listen(onLine: (line: string) => void): () => void {
    this.#listener = onLine;
    this.#startListening();
    return () => {
      this.#listener = null;
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

  #startListening(): void {
    if (this.#closed || !this.#listener) return;
    this.#io.input.setRawMode?.(true);
    this.#rl.setPrompt('');
    this.#rl.resume();
  }

  read(prompt: string, prefill?: string): Promise<string | null> {
    if (!this.#asking && this.#typeahead.length > 0) return Promise.resolve(this.#typeahead.shift()!);
    if (this.#closed) return Promise.resolve(null);
    this.#io.input.setRawMode?.(true);
    this.#io.output.write(BRACKETED_PASTE_ON);
    this.#rl.setPrompt(prompt);
    this.#rl.resume();
    this.#rl.prompt();
    if (prefill) this.#rl.write(prefill);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  async ask(question: string, prefill?: string, complete?: Completer): Promise<string | null> {
    this.#asking = true;
    this.#askCompleter = complete ?? null;
    try {
      const answer = await this.read(question, prefill);
      // readline keeps every line in history; a "y" is not worth recalling.
      const history = this.#history();
      if (answer !== null && answer.trim() !== '' && history[0] === answer) history.shift();
      return answer;
    } finally {
      this.#asking = false;
      this.#askCompleter = null;
      this.suspend();
      this.#startListening();
    }
  }

  askKey(question: string, keys: string, fallback: string): Promise<string | null> {
    if (this.#closed) return Promise.resolve(null);
    this.#asking = true;
    return new Promise<string | null>((resolve) => {
      this.#keyQuestion = { question, keys, fallback, resolve, burst: null };
      this.#io.input.setRawMode?.(true);
      // A paste is marked, so pasted text is never taken for keys typed.
      this.#io.output.write(BRACKETED_PASTE_ON + question);
      this.#io.input.resume();
    }).finally(() => {
      this.#keyQuestion = null;
      this.#asking = false;
      this.suspend();
      this.#startListening();
    });
  }

  /**
   * A key while a one-key question is asked. Ctrl-C cancels at once; the other keys of one read
   * (node:readline emits them together) are judged together once the read is done.
   */
  #questionKey(q: KeyQuestionState, s: string | undefined, key: Key | undefined): void {
    const ctrl = Boolean(key?.ctrl && !key.meta);
    if (ctrl && (key?.name === 'c' || key?.name === 'd')) {
      this.#io.output.write(key.name === 'c' ? '^C\n' : '\n');
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
      // Not an answer: ask again, on a new line, with the keys that answer.
      const last = q.question.split('\n').at(-1) ?? '';
      this.#io.output.write(`\n${keysHint(q.keys, q.fallback)}\n${last}`);
      return;
    }
    this.#io.output.write(`${answer}\n`);
    q.resolve(answer);
  }

  passKeys(onKeys: (data: string) => void): () => void {
    if (this.#closed) return () => {};
    const input = this.#io.input;
    const onData = (data: Buffer | string) => onKeys(typeof data === 'string' ? data : data.toString('utf8'));
    this.#passing = true;
    input.setRawMode?.(true);
    input.on('data', onData);
    input.resume();
    return () => {
      input.removeListener('data', onData);
      this.#passing = false;
      if (this.#closed) return;
      input.pause();
      input.setRawMode?.(false);
    };
  }

  suspend(): void {
    if (this.#closed) return;
    this.#rl.pause();
    this.#io.input.setRawMode?.(false);
    // Programs run next (cat, vim...) must not receive paste markers they did not ask for.
    this.#io.output.write(BRACKETED_PASTE_OFF);
  }

  close(): void {
    if (this.#closed) return;
    this.#io.output.write(BRACKETED_PASTE_OFF);
    this.#rl.close();
  }
}

/** Lines from a pipe or file, in order. */
export class PipedLineReader implements LineReader {
  readonly #lines: AsyncIterator<string>;
  readonly #rl: readline.Interface;

  constructor(io: Io) {
    this.#rl = readline.createInterface({ input: io.input, terminal: false, crlfDelay: Infinity });
    this.#lines = this.#rl[Symbol.asyncIterator]();
  }

  async read(): Promise<string | null> {
    const next = await this.#lines.next();
    return next.done ? null : next.value;
  }

  async ask(): Promise<string | null> {
    return null;
  }

  async askKey(): Promise<string | null> {
    return null;
  }

  suspend(): void {}

  /** A pipe's lines are the next inputs, in order: nothing is taken from it during long work. */
  listen(): () => void {
    return () => {};
  }

  hold<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  passKeys(): () => void {
    return () => {};
  }

  remember(): void {}

  close(): void {
    this.#rl.close();
  }
}
