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
import { appendInputHistory, loadInputHistory, mergeHistories } from './input-history.js';
import { PipedLineReader, type Completer, type LineReader } from './line-reader.js';
import { TerminalLineReader, type RouteSign, type TerminalReaderOptions } from './terminal-reader.js';
import path from 'node:path';
import { parseInputrc, type InputrcSettings } from '../line/inputrc.js';
import { readSmallFile } from '../undo/tree.js';

/** readline's init file as aish honours it: `$INPUTRC`, else ~/.inputrc; none is empty. */
export function loadInputrc(env: Record<string, string | undefined>): InputrcSettings {
  const file = env.INPUTRC || (env.HOME ? path.join(env.HOME, '.inputrc') : undefined);
  return parseInputrc((file && readSmallFile(file)) || '');
}

export interface ReaderSetup {
  /** The input history file; undefined keeps no input history. */
  historyFile: string | undefined;
  historySize: number;
  /** Applied to input history lines before they are written. */
  redact: (text: string) => string;
  /** Resolves once the redactor knows what the lines before exported (the shell's environment read). */
  secretsCurrent?: () => Promise<void>;
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
  /** What readline's init file says (`$INPUTRC`, else ~/.inputrc): editing-mode and bell-style here. */
  inputrc?: InputrcSettings;
  /** Colour on (the suggestion is dimmed). */
  color?: boolean;
  /** Suggestions from a model after a pause in typing (`suggest.model`); undefined asks none. */
  suggestModel?: TerminalReaderOptions['suggestModel'];
  /**
   * What the terminal learns at the prompt (render/terminal-marks.ts): `atPrompt` is written before
   * it, `start` and `end` are glued to it, taking no column; undefined: nothing.
   */
  marks?: { atPrompt: () => string; start: string; end: string } | undefined;
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
  /** The history the line editor holds (the same array: what joins it here, Up reaches). */
  #history: string[] | null = null;
  #historySize = 0;
  /** The shell's own history, when it came before the line editor was opened. */
  #shellHistory: readonly string[] = [];
  #marks: ReaderSetup['marks'];

  constructor(io: Io) {
    this.#io = io;
  }

  /** Opens the line reader: on a terminal with the input history, Tab and Ctrl-X Ctrl-E. */
  async open(setup: ReaderSetup): Promise<void> {
    this.#status = setup.status;
    this.#background = setup.background;
    this.#marks = setup.marks;
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
    history = mergeHistories(history, this.#shellHistory, size);
    this.#history = history;
    this.#historySize = size;
    const inputrc = setup.inputrc ?? {};
    this.#reader = this.#terminal = new TerminalLineReader(this.#io, {
      history,
      historySize: size,
      completer: setup.completer,
      onHistory: (entries) => {
        const entry = entries[0];
        // A line typed with a leading space is not kept (the shells' `ignorespace`).
        if (!file || entry === undefined || entry.startsWith(' ')) return;
        this.#historySave = this.#historySave
          .then(() => setup.secretsCurrent?.())
          .then(() => appendInputHistory(file, setup.redact(entry), size))
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
      ...(setup.suggestModel ? { suggestModel: setup.suggestModel } : {}),
    });
    if (this.#ended) this.#reader.close();
  }

  /**
   * The shell's own history (its `$HISTFILE`, newest first), which comes once the session's shell
   * has started: it joins the history Up and Ctrl-R go through, older than every line of aish's.
   * Only in memory: the input history file is aish's alone.
   */
  addShellHistory(entries: readonly string[]): void {
    const history = this.#history;
    if (!history) {
      this.#shellHistory = entries;
      return;
    }
    // The line editor holds this very array: it is changed in place, aish's own lines first and
    // as they were, so a line being recalled stays where it is.
    history.splice(0, history.length, ...mergeHistories(history, entries, this.#historySize));
  }

  /** Draws the line being typed again (an answer about its route came). */
  refresh(): void {
    this.#terminal?.refresh();
  }

  /** The shell's editing mode may have changed: the line being typed follows it. */
  modeChanged(): void {
    this.#terminal?.modeChanged();
  }

  /** aish was stopped and continued: the terminal is set up again for the line being typed. */
  continued(): void {
    if (this.#terminal) {
      this.#terminal.continued();
      return;
    }
    // Before the line reader is open the first prompt's keys wait in raw mode (front.ts): taken
    // back as the reader does (libuv would skip setting a mode it thinks is set).
    if (this.#io.isTTY && !this.#ended) {
      this.#io.input.setRawMode?.(false);
      this.#io.input.setRawMode?.(true);
    }
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
    const marks = this.#io.isTTY ? this.#marks : undefined;
    if (marks) this.#io.output.write(marks.atPrompt());
    // The marks go on the first line only: a continuation line is more of the same command.
    let shown = this.#io.isTTY ? this.#promptLastLine(prompt(), marks?.start ?? '') + (marks?.end ?? '') : '';
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
  #promptLastLine(prompt: string, start: string): string {
    const nl = prompt.lastIndexOf('\n');
    if (nl === -1) return start + prompt;
    const above = prompt.slice(0, nl);
    // eslint-disable-next-line no-control-regex
    const colours = (above.match(/\x1b\[[0-9;:]*m/g) ?? []).join('');
    this.#io.output.write(`\r\x1b[J${start}${above.replace(/\n/g, '\r\n')}\x1b[0m\r\n`);
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
