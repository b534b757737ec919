// Everything a person sees goes through here: status lines, errors, exec frames and, later, model
// text and tool frames. Producers emit; the renderer decides colour, width and where it goes.
// Status lines go to the error stream so `aish -p ... > file` keeps only the reply; so do the
// exec and tool frames when output is not a terminal, so `… | aish > file` keeps only what the
// commands and the model printed.

import type { ChalkInstance } from 'chalk';
import { outputIsTerminal, type Io } from '../io.js';
import type { ExecEnd, ExecView } from '../shell/shell-runner.js';
import { TextBuffer } from '../text-buffer.js';
import { neutralize } from './sanitize.js';
import { Spinner } from './spinner.js';
import type { TerminalMarks } from './terminal-marks.js';
import { cutToWidth, displayWidth } from './text-width.js';

/** How a command's frame is drawn (`shell.frame`): both rules, one line when it tells something, or none. */
export type FrameStyle = 'full' | 'compact' | 'none';

/** A compact frame shows its line for a command that ran longer than this. */
const COMPACT_SLOW_MS = 1000;

export interface RendererOptions {
  /** `shell.frame`; default full. */
  frame?: FrameStyle;
  /** The terminal's marks (OSC 133, 7, 2), written beside frames on a terminal only; null: none. */
  marks?: TerminalMarks | null;
  /** Milliseconds from some fixed point: how long a command ran. */
  now?: () => number;
}

/** Sequences that print nothing: CSI, OSC (BEL or ST), a character set chosen, other two-byte escapes. */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCES = /\x1b\[[0-9;?<=>]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()*+][0-9A-Za-z]|\x1b[^[\]()*+]/g;

export class Renderer implements ExecView {
  /** Whether the last thing written to output ended a line. */
  #atLineStart = true;
  /**
   * Reply text `stream` holds until the next microtask (or `flush`), and what was written after it.
   * A TextBuffer, not an array: on a terminal each rendered delta is a rope of small strings, and a
   * network read's thousands of them outlive a scavenge or two; joined into blocks they are flat.
   */
  readonly #batch = new TextBuffer();
  /** Whether output is a terminal: frames go with it there, to the error stream on a pipe. */
  readonly #toTerminal: boolean;
  readonly #frameStyle: FrameStyle;
  readonly #now: () => number;
  /** When the running command's frame began. */
  #execStarted = 0;
  /** The terminal's marks, when output is a terminal and they are on. */
  readonly marks: TerminalMarks | null;

  /**
   * `redact` is applied to status, error and context lines, informational text and tool frames
   * (secrets become `[redacted:NAME]`); reply text streams as is (the model never saw a secret).
   */
  constructor(
    readonly io: Io,
    readonly style: ChalkInstance,
    readonly redact: (text: string) => string = (text) => text,
    options: RendererOptions = {},
  ) {
    this.#toTerminal = outputIsTerminal(io);
    this.#frameStyle = options.frame ?? 'full';
    this.#now = options.now ?? (() => performance.now());
    this.marks = this.#toTerminal ? (options.marks ?? null) : null;
  }

  /** Text from outside, made fit to print: redacted, then sanitized. */
  #clean(text: string): string {
    return neutralize(this.redact(text));
  }

  /** Whether output is a terminal (input may be a pipe): what is laid out for its width. */
  get outputIsTerminal(): boolean {
    return this.#toTerminal;
  }

  get colorEnabled(): boolean {
    return this.style.level > 0;
  }

  /** Writes text to output as is. */
  write(text: string): void {
    if (text.length === 0) return;
    // While `stream` holds reply text, what follows it joins the batch, so the order holds.
    if (this.#batch.length > 0) this.#batch.push(text);
    else this.io.output.write(text);
    this.#atLineStart = text.endsWith('\n');
  }

  /**
   * Writes streamed reply text. The hundreds of deltas one network read carries reach the output
   * as one string in one write, not a write (or a stream's buffered chunk) each: they are held
   * until the current job and its microtasks are done, so the person sees the text as soon as it
   * would have been seen anyway. Other writes through the renderer join the batch, so the order
   * holds; anything that writes elsewhere (the error stream, a spinner) calls `flush` first.
   */
  stream(text: string): void {
    if (text.length === 0) return;
    if (this.#batch.length === 0) queueMicrotask(() => this.flush());
    this.#batch.push(text);
    this.#atLineStart = text.endsWith('\n');
  }

  /** Sends what `stream` holds back to output now. */
  flush(): void {
    if (this.#batch.length === 0) return;
    const text = this.#batch.toString();
    this.#batch.clear();
    this.io.output.write(text);
  }

  /**
   * The terminal wrote at the cursor by itself (its echo of Ctrl-C, `^C`): the line is open, so
   * the next frame or status line starts on a new one instead of after the `^C`.
   */
  terminalEchoed(): void {
    const held = this.#batch.length > 0;
    this.flush();
    // Held reply text went out after the echo, and its end says where the line is.
    if (!held) this.#atLineStart = false;
  }

  /** Ends the current output line if one is open. */
  endLine(): void {
    if (!this.#atLineStart) this.write('\n');
  }

  /** A dim `[aish] ...` line on the error stream. */
  status(message: string): void {
    this.#statusLine(`[aish] ${this.#clean(message)}`, (s) => this.style.dim(s));
  }

  /** A red `[aish] ...` line: something failed, aish goes on. */
  error(message: string): void {
    this.#statusLine(`[aish] ${this.#clean(message)}`, (s) => this.style.red(s));
  }

  /** A `[context] ...` line about the conversation's budget. */
  context(message: string): void {
    this.#statusLine(`[context] ${this.#clean(message)}`, (s) => this.style.dim(s));
  }

  #statusLine(line: string, paint: (s: string) => string): void {
    this.endLine();
    this.flush();
    this.io.errors.write(`${paint(line)}\n`);
  }

  /**
   * Lines of a frame (ending in a newline), after the output's open line is ended: on output
   * beside what they frame on a terminal, else on the error stream, output keeping plain lines.
   */
  #frame(lines: string): void {
    this.endLine();
    if (this.#toTerminal) return this.write(lines);
    this.flush();
    this.io.errors.write(lines);
  }

  /** A spinner with `label` on a terminal (nothing on a pipe); returns the function that stops it. */
  busy(label: string): () => void {
    this.flush();
    const spinner = new Spinner(this.io, (s) => this.style.dim(s));
    spinner.start(label);
    return () => spinner.stop();
  }

  /**
   * Informational lines (help, lists, tool descriptions, history) on output. The text is
   * sanitized first; `paint` (aish's own styling) is applied after.
   */
  info(text: string, paint: (s: string) => string = (s) => s): void {
    this.endLine();
    const safe = this.#clean(text);
    this.write(`${paint(safe.endsWith('\n') ? safe.slice(0, -1) : safe)}\n`);
  }

  /** The top rule of an exec frame, naming the command (a full frame only); the terminal learns a block starts. */
  execBegin(command: string): void {
    this.#execStarted = this.#now();
    if (this.marks) {
      this.endLine();
      this.#mark(this.marks.commandStart(this.redact(command)));
    }
    if (this.#frameStyle === 'full') this.#frame(`${this.style.dim(this.#rule('╭─ ', oneLine(command)))}\n`);
  }

  /** Live output of the running command, unchanged. Escape sequences alone (fish ends a quiet
   * command with `\e[?2004l\e[30m\e(B\e[m`) move no cursor: the line stays as open or ended as
   * it was, so the frame's bottom rule does not follow an empty line. */
  execOutput(text: string): void {
    // Such a chunk starts with ESC; the rest (most output) is not scanned on this path.
    if (text.charCodeAt(0) === 0x1b && text.replace(ESCAPE_SEQUENCES, '') === '') this.#mark(text);
    else this.write(text);
  }

  /**
   * The bottom rule with the exit code: red when non-zero, `128+N (SIGX)` for a signal. A compact
   * frame has one dim line instead, only for a status other than 0 or a command that ran longer
   * than a second, with how long it ran; no frame has none. The terminal learns the block ended.
   */
  execEnd(end: ExecEnd): void {
    let label: string;
    if (end.error) label = neutralize(end.error);
    else if (end.signal) label = `exit ${end.exitCode} (${end.signal})`;
    else label = `exit ${end.exitCode}`;
    const ms = this.#now() - this.#execStarted;
    if (this.#frameStyle === 'full') {
      const rule = this.#rule('╰─ ', label);
      this.#frame(`${end.exitCode === 0 ? this.style.dim(rule) : this.style.red(rule)}\n`);
    } else if (this.#frameStyle === 'compact' && (end.exitCode !== 0 || end.error || ms > COMPACT_SLOW_MS)) {
      this.#frame(`${this.style.dim(`╰─ ${label} · ${seconds(ms)}`)}\n`);
    }
    if (this.marks) {
      this.endLine();
      this.#mark(this.marks.commandEnd(end.exitCode));
    }
  }

  /** Writes a terminal's mark: it takes no column, so the line is as open or ended as before. */
  #mark(bytes: string): void {
    const atLineStart = this.#atLineStart;
    this.write(bytes);
    this.#atLineStart = atLineStart;
  }

  /** The opening line of a tool frame: indented and dim, parallel to the exec frame. */
  toolBegin(name: string, args: string): void {
    const line = this.#rule('  ╭─ ', `tool ${this.#clean(name)} ${oneLine(this.redact(args))}`);
    this.#frame(`${this.style.dim(line)}\n`);
  }

  /** Body lines of a tool frame (the result as the person sees it), dim. */
  toolBody(text: string): void {
    if (text === '') return;
    const lines = this.#clean(text).replace(/\n+$/, '').split('\n');
    this.#frame(`${lines.map((l) => this.style.dim(`  │ ${l}`)).join('\n')}\n`);
  }

  /** The closing line of a tool frame; red when the call failed. */
  toolEnd(label: string, ok: boolean): void {
    const line = this.#rule('  ╰─ ', neutralize(label));
    this.#frame(`${ok ? this.style.dim(line) : this.style.red(line)}\n`);
  }

  /** A rule as wide as the terminal, measured in its columns: a CJK or emoji label takes two each. */
  #rule(corner: string, label: string): string {
    const width = Math.max(20, Math.min(this.io.columns(), 200));
    const text = `${corner}${cutToWidth(label, width - corner.length - 4)} `;
    return text + '─'.repeat(Math.max(3, width - displayWidth(text)));
  }
}

/** `0.4s`, `12.3s`, `2m05s`: how long a command ran. */
function seconds(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function oneLine(command: string): string {
  return neutralize(command.replace(/\\\n/g, ' ').replace(/\n/g, ' ⏎ '));
}
