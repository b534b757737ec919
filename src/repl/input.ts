// The REPL's side of the keyboard: the lines it reads (logical lines: a trailing `\` continues
// one), the lines waiting to run next (typed while a command ran, composed with `:edit`), the
// questions asked in the middle of a line, and the end of input. It exists before every other part
// of a session, which are given its questions; the line reader behind it is opened when the loop
// starts (`open`), and until then a question has nobody to answer it.

import { errorMessage } from '../errors.js';
import type { Io } from '../io.js';
import { formatQuestion } from '../render/question.js';
import { neutralize } from '../render/sanitize.js';
import { loadWidths } from '../render/text-width.js';
import type { KeyQuestion } from '../safety/confirm.js';
import type { BackgroundLines } from './background-lines.js';
import { appendInputHistory, loadInputHistory } from './input-history.js';
import { PipedLineReader, type Completer, type LineReader } from './line-reader.js';
import { TerminalLineReader, type RouteSign } from './terminal-reader.js';
import { parseInputrc } from '../line/inputrc.js';
import { readSmallFile } from '../undo/tree.js';

export interface ReaderSetup {
  /** The input history file; undefined keeps no input history. */
  historyFile: string | undefined;
  historySize: number;
  /** Applied to input history lines before they are written. */
  redact: (text: string) => string;
  status: (message: string) => void;
  /** Server log lines: held while the person types at the prompt or answers a question. */
  background?: BackgroundLines | undefined;
  completer: Completer;
  /** Ctrl-C pressed while a question was asked. */
  onInterrupt: () => void;
  /** Ctrl-X Ctrl-E: the editor on the line; null when nothing is to be run. */
  edit: (initial: string) => Promise<string | null>;
  /** Where the line as it stands goes: the prompt's last sign. */
  sign?: (line: string) => RouteSign;
  /** Whether the shell would read more lines after `text` (a continuation prompt then). */
  incomplete?: (text: string) => Promise<boolean>;
  /** The editing mode the session's shell is in, for the next line; undefined: ~/.inputrc's, else emacs. */
  mode?: () => 'emacs' | 'vi' | undefined;
  /** readline's init file (`$INPUTRC`, else ~/.inputrc): its editing-mode, completion-ignore-case and bell-style. */
  inputrcFile?: string | undefined;
  /** Colour on (the suggestion is dimmed). */
  color?: boolean;
}

export class ReplInput {
  readonly #io: Io;
  #status: (message: string) => void = () => {};
  #background: BackgroundLines | undefined;
  #reader: LineReader | null = null;
  #terminal: TerminalLineReader | null = null;
  #ended = false;
  #exitCode = 0;
  /** Lines to run next, as if typed (`:edit`). */
  readonly #next: string[] = [];
  /** Lines typed while a shell command ran that it did not read (see `typedAhead`). */
  readonly #typedAhead: string[] = [];
  /** Text put on the next input line for editing. */
  #prefill: string | null = null;
  #historySave: Promise<void> = Promise.resolve();
  #historyWarned = false;

  constructor(io: Io) {
    this.#io = io;
  }

  /** Opens the line reader: on a terminal with the input history, Tab and Ctrl-X Ctrl-E. */
  async open(setup: ReaderSetup): Promise<void> {
    this.#status = setup.status;
    this.#background = setup.background;
    if (!this.#io.isTTY) {
      this.#reader = new PipedLineReader(this.#io);
      return;
    }
    const { historyFile: file, historySize: size } = setup;
    let history: string[] = [];
    if (file) {
      try {
        history = await loadInputHistory(file, size);
      } catch (err) {
        this.#status(`input history not loaded: ${errorMessage(err)}`);
      }
    }
    const inputrc = parseInputrc((setup.inputrcFile && readSmallFile(setup.inputrcFile)) || '');
    this.#reader = this.#terminal = new TerminalLineReader(this.#io, {
      history,
      historySize: size,
      completer: setup.completer,
      onHistory: (entries) => {
        const entry = entries[0];
        // A line typed with a leading space is not kept (the shells' `ignorespace`).
        if (!file || entry === undefined || entry.startsWith(' ')) return;
        const line = setup.redact(entry);
        this.#historySave = this.#historySave
          .then(() => appendInputHistory(file, line, size))
          .catch((err) => {
            if (this.#historyWarned) return;
            this.#historyWarned = true;
            this.#status(`input history not saved: ${errorMessage(err)}`);
          });
      },
      onInterrupt: setup.onInterrupt,
      edit: setup.edit,
      ...(setup.sign ? { sign: setup.sign } : {}),
      ...(setup.incomplete ? { incomplete: setup.incomplete } : {}),
      mode: () => setup.mode?.() ?? inputrc.editingMode ?? 'emacs',
      bell: inputrc.bellStyle ?? 'audible',
      ...(setup.color !== undefined ? { color: setup.color } : {}),
    });
    if (this.#ended) this.#reader.close();
  }

  /** Draws the line being typed again (an answer about its route came). */
  refresh(): void {
    this.#terminal?.refresh();
  }

  /** aish was stopped and continued: the terminal is set up again for the line being typed. */
  continued(): void {
    this.#terminal?.continued();
  }

  /** Whether the last line read was entered with Alt-Enter (to go the other way than its route). */
  get flipped(): boolean {
    return this.#reader?.flipped ?? false;
  }

  /** Closes the reader: no more lines, no more questions. */
  close(): void {
    this.#ended = true;
    this.#reader?.close();
  }

  /** The input history's last write. */
  saved(): Promise<void> {
    return this.#historySave;
  }

  /** No more lines are read: the loop ends after the current line, with `exitCode` when given. */
  quit(exitCode?: number): void {
    if (exitCode !== undefined) this.#exitCode = exitCode;
    this.#ended = true;
    this.#reader?.close();
  }

  get ended(): boolean {
    return this.#ended;
  }

  get exitCode(): number {
    return this.#exitCode;
  }

  /**
   * The next line to process: one to run next, else one typed ahead (a line for the model among
   * those becomes the next prefill: `forModel` tells), else one read after `prompt()`. null at the
   * end of input.
   */
  async nextLine(prompt: () => string, forModel: (line: string) => Promise<boolean>): Promise<string | null> {
    const reader = this.#reader;
    if (!reader || this.#ended) return null;
    const line = this.#next.shift() ?? (await this.#nextTypedAhead(forModel)) ?? (await this.#readLogicalLine(reader, prompt));
    // Keys typed while the line is processed wait in the terminal.
    if (line !== null) reader.suspend();
    return line;
  }

  /** Keeps `line` in the input history as if typed (a line composed with `:edit`). */
  remember(line: string): void {
    this.#reader?.remember(line);
  }

  /** Runs `line` next, as if typed (`:edit`). */
  runNext(line: string): void {
    this.#next.push(line);
  }

  /**
   * Lines typed while a command ran that it did not read. As in a terminal, they run next, in
   * order; but a line for the model (a question, or an answer to a prompt that never came) is put
   * back on the input line, to leave the machine only with Enter.
   */
  typedAhead(lines: readonly string[]): void {
    this.#typedAhead.push(...lines);
  }

  async #nextTypedAhead(forModel: (line: string) => Promise<boolean>): Promise<string | null> {
    while (this.#typedAhead.length > 0) {
      const line = this.#typedAhead.shift()!;
      if (!(await forModel(line))) return line;
      this.#prefill = line;
      this.#status('typed while the command ran: kept on the line, sent to the model only with Enter');
      this.#typedAhead.length = 0;
    }
    return null;
  }

  async #readLogicalLine(reader: LineReader, prompt: () => string): Promise<string | null> {
    const parts: string[] = [];
    let shown = this.#io.isTTY ? this.#promptLastLine(prompt()) : '';
    for (;;) {
      this.#background?.atPrompt(true);
      const prefill = this.#prefill ?? undefined;
      this.#prefill = null;
      const line = await reader.read(shown, prefill).finally(() => this.#background?.atPrompt(false));
      if (line === null) return parts.length ? parts.join('\n') : null;
      parts.push(line);
      // A trailing backslash continues the line (an even run of backslashes is literal).
      const trailing = /\\+$/.exec(line)?.[0].length ?? 0;
      if (trailing % 2 === 0) return parts.join('\n');
      shown = this.#io.isTTY ? '... ' : '';
    }
  }

  /**
   * A prompt of several lines (the shell's own, `shell.prompt_from_shell`: starship's has two):
   * the line editor lays out one row of prompt, so the lines above the last are written here,
   * once, and the last is the editor's. Its colours are carried over to the last line.
   */
  #promptLastLine(prompt: string): string {
    const nl = prompt.lastIndexOf('\n');
    if (nl === -1) return prompt;
    const above = prompt.slice(0, nl);
    // eslint-disable-next-line no-control-regex
    const colours = (above.match(/\x1b\[[0-9;:]*m/g) ?? []).join('');
    this.#io.output.write(`\r\x1b[J${above.replace(/\n/g, '\r\n')}\x1b[0m\r\n`);
    return colours + prompt.slice(nl + 1);
  }

  /**
   * Asks the person for a line of free text in the middle of a line (an edited command, a form
   * field; questions with a fixed set of answers use `askKey`); null when nobody can answer.
   * Every question passes the sanitizer here: they quote commands and tool names from outside.
   */
  ask(question: string, prefill?: string, complete?: (typed: string) => Promise<string[]>): Promise<string | null> {
    // Text put on the line is typed into readline: control characters there would act as keys.
    const reader = this.#reader;
    if (!reader) return Promise.resolve(null);
    this.#background?.atPrompt(true);
    const completer = complete && (async (line: string): Promise<[string[], string]> => [await complete(line), line]);
    return reader
      .ask(neutralize(question), prefill === undefined ? undefined : neutralize(prefill).replace(/\n/g, ' '), completer)
      .finally(() => this.#background?.atPrompt(false));
  }

  askLine(question: string, complete?: (typed: string) => Promise<string[]>): Promise<string | null> {
    return this.ask(question, undefined, complete);
  }

  /**
   * Asks a question answered by one key (confirmations, HALT); null when nobody can answer. The
   * command or arguments it quotes are shown whole and readable (render/question.ts), and every
   * part passes the sanitizer.
   */
  async askKey(question: KeyQuestion): Promise<string | null> {
    const reader = this.#reader;
    if (!reader) return null;
    // Wide characters (CJK, emoji) wrap by the columns they take.
    await loadWidths();
    const text = formatQuestion(question, { columns: this.#io.columns(), rows: this.#io.rows?.() ?? 24 });
    this.#background?.atPrompt(true);
    return reader.askKey(text, question.keys, question.fallback).finally(() => this.#background?.atPrompt(false));
  }

  /** Hands the keyboard to a command running in the session's shell (see LineReader.passKeys). */
  passKeys(onKeys: (data: string) => void): () => void {
    return this.#reader ? this.#reader.passKeys(onKeys) : () => {};
  }

  /** Runs `work` (a command Norris decided on) with the terminal given back to it. */
  hold<T>(work: () => Promise<T>): Promise<T> {
    return this.#reader ? this.#reader.hold(work) : work();
  }

  /** Lines typed during long work (Norris) go to `onLine` until the returned function is called. */
  listen(onLine: (line: string) => void): () => void {
    return this.#reader?.listen(onLine) ?? (() => {});
  }
}
