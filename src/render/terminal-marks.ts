// What aish tells the terminal it runs in, beside what it draws (docs/usage.md "Terminal
// integration"): OSC 133 marks around its prompt and each command's block (prompt start, input
// start, output start, end with the exit status), OSC 7 with the directory when it changes, and
// the window title (OSC 2): the directory at the prompt, the command while it runs. The bytes are
// made here and written by whoever draws at that moment (the line editor, the renderer), so they
// land in order with the rest. Inside tmux the same plain sequences are written: tmux reads OSC 133
// and OSC 7 itself (3.4 and 3.3), and a passthrough envelope would reach the outer terminal only
// with `allow-passthrough`, and mark its screen, not the pane's.

import path from 'node:path';
import { neutralize } from './sanitize.js';
import { cutToWidth } from './text-width.js';

const OSC = '\x1b]';
const BEL = '\x07';

/** The most columns of a title: a window's title bar or a tab shows less anyway. */
export const TITLE_MAX_COLUMNS = 60;

/** OSC 133 `A`: a prompt starts. */
export const PROMPT_START = `${OSC}133;A${BEL}`;
/** OSC 133 `B`: the prompt ends, what is typed after it is the command. */
export const INPUT_START = `${OSC}133;B${BEL}`;
/** OSC 133 `C`: the command runs, its output starts. */
export const OUTPUT_START = `${OSC}133;C${BEL}`;

/** OSC 133 `D` with the command's exit status. */
export function commandEnd(status: number): string {
  return `${OSC}133;D;${Math.trunc(status)}${BEL}`;
}

/** OSC 7: `file://<host>/<path>`, every byte of host and path outside the URL's unreserved set percent-encoded. */
export function directoryReport(host: string, cwd: string): string {
  const encoded = cwd.split('/').map(encodeURIComponent).join('/');
  return `${OSC}7;file://${encodeURIComponent(host)}${encoded}${BEL}`;
}

/** Text made fit for a title: one line, no control characters, at most `TITLE_MAX_COLUMNS` columns. */
export function titleText(text: string): string {
  return cutToWidth(neutralize(text.replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim()), TITLE_MAX_COLUMNS);
}

/** OSC 2: the window title. */
export function windowTitle(text: string): string {
  return `${OSC}2;${titleText(text)}${BEL}`;
}

export interface TerminalMarksOptions {
  /** Set the window title too (`terminal.title`). */
  title: boolean;
  /** This machine's name, for OSC 7. */
  host: string;
  /** The home folder, shown as `~` in a title. */
  home: string | undefined;
}

/** The marks of one session: it remembers the directory last reported, so OSC 7 goes only when it changes. */
export class TerminalMarks {
  readonly #opts: TerminalMarksOptions;
  #reported: string | null = null;

  constructor(opts: TerminalMarksOptions) {
    this.#opts = opts;
  }

  /** Glued to the prompt's first and last character by the line editor: they take no column. */
  readonly promptStart = PROMPT_START;
  readonly promptEnd = INPUT_START;

  /** Before a prompt: the directory when it changed (and the first time), the title to it. */
  atPrompt(cwd: string): string {
    let out = '';
    if (cwd !== this.#reported) {
      this.#reported = cwd;
      out += directoryReport(this.#opts.host, cwd);
    }
    if (this.#opts.title) out += windowTitle(this.#shortDir(cwd));
    return out;
  }

  /** Before a command's frame: its output starts; the title is the command. */
  commandStart(command: string): string {
    return OUTPUT_START + (this.#opts.title ? windowTitle(command) : '');
  }

  /** After a command's frame. */
  commandEnd(status: number): string {
    return commandEnd(status);
  }

  #shortDir(cwd: string): string {
    const home = this.#opts.home;
    if (home && (cwd === home || cwd.startsWith(home + path.sep))) return `~${cwd.slice(home.length)}`;
    return cwd;
  }
}
