// How the line being edited is drawn: the prompt, the text (each further logical line after a
// continuation prompt), the suggestion dimmed after the cursor, cut into rows of the terminal's
// width by the columns each character takes (CJK and emoji two, marks none), and the escapes that
// replace what was drawn before by what is to be drawn now. A row that wraps is filled to the
// margin (a wide character that does not fit leaves a blank) and wrapped by the terminal; a cursor
// at the margin is moved to the next row by CR LF. Pure: the reader writes what this returns.

import { graphemes } from './text.js';

export interface ViewInput {
  /** The prompt, possibly styled (SGR escapes take no column). */
  prompt: string;
  /** Before each further logical line of the text. */
  continuation: string;
  text: string;
  cursor: number;
  /** Shown dimmed after the cursor (at the end of the text only). */
  suggestion: string;
  columns: number;
  /** Columns a grapheme takes. */
  width: (grapheme: string) => number;
  /** Styles the suggestion (dim); identity under NO_COLOR still shows it, as plain text. */
  dim?: (text: string) => string;
}

export interface Layout {
  /** What draws it: its rows, wrapped by the terminal or ended by CR LF. */
  text: string;
  rows: number;
  /** Where the cursor goes: a row of `rows` and a column. */
  cursorRow: number;
  cursorColumn: number;
  /** The column after the last row's last character: where drawing leaves the terminal's cursor. */
  endColumn: number;
}

interface Cell {
  text: string;
  width: number;
}

/** Escape sequences in a prompt: they take no column and stay glued to the text after them. */
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/y;

/** The cells of a styled string (a prompt): escapes join the next character's cell. */
function styledCells(text: string, width: (g: string) => number): Cell[] {
  const cells: Cell[] = [];
  let pending = '';
  let plain = '';
  const flush = () => {
    for (const g of graphemes(plain)) {
      cells.push({ text: pending + g, width: g === '\t' ? 1 : width(g) });
      pending = '';
    }
    plain = '';
  };
  for (let i = 0; i < text.length; ) {
    ESCAPE.lastIndex = i;
    const m = ESCAPE.exec(text);
    if (m) {
      flush();
      pending += m[0];
      i += m[0].length;
      continue;
    }
    plain += text[i];
    i++;
  }
  flush();
  if (pending) cells.push({ text: pending, width: 0 });
  return cells;
}

/** A character of the text as it is drawn: control characters as `^X`, never raw. */
function textCell(g: string, width: (g: string) => number): Cell {
  const code = g.codePointAt(0)!;
  if (code < 0x20 || code === 0x7f) return { text: `^${String.fromCharCode(code === 0x7f ? 63 : code + 64)}`, width: 2 };
  if (code >= 0x80 && code < 0xa0) return { text: `\\x${code.toString(16)}`, width: 4 };
  // Bidi controls would reorder what is drawn after them.
  if (/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(g)) return { text: `<U+${code.toString(16).toUpperCase()}>`, width: 8 };
  return { text: g, width: Math.max(0, width(g)) };
}

/** The rows of the line and where the cursor goes. */
export function layout(v: ViewInput): Layout {
  const columns = Math.max(2, v.columns);
  // Each row's text, its width, and whether the text goes on in the next row (a wrap, not a newline).
  const rows: { cells: string[]; width: number; wraps: boolean }[] = [{ cells: [], width: 0, wraps: false }];
  let cursorRow = 0;
  let cursorColumn = 0;
  const newRow = (wraps: boolean) => {
    rows.at(-1)!.wraps = wraps;
    rows.push({ cells: [], width: 0, wraps: false });
  };
  const place = (cell: Cell) => {
    if (rows.at(-1)!.width + cell.width > columns && rows.at(-1)!.width > 0) newRow(true);
    const row = rows.at(-1)!;
    row.cells.push(cell.text);
    row.width += cell.width;
  };
  const markCursor = () => {
    // At the right margin the cursor belongs at the start of the next row.
    if (rows.at(-1)!.width >= columns) newRow(false);
    cursorRow = rows.length - 1;
    cursorColumn = rows.at(-1)!.width;
  };
  // A prompt of several lines (starship's, a theme's) starts rows of its own.
  v.prompt.split(/\r?\n/).forEach((part, i) => {
    if (i > 0) newRow(false);
    for (const cell of styledCells(part, v.width)) place(cell);
  });
  const continuation = styledCells(v.continuation, v.width);
  let at = 0;
  for (const g of graphemes(v.text)) {
    if (at === v.cursor) markCursor();
    if (g === '\n' || g === '\r\n') {
      newRow(false);
      for (const cell of continuation) place(cell);
    } else {
      place(textCell(g, v.width));
    }
    at += g.length;
  }
  if (at <= v.cursor) markCursor();
  if (v.suggestion && v.cursor >= v.text.length) {
    // One style for each row's run of the suggestion, not one for each character.
    const dim = v.dim ?? ((t: string) => `\x1b[2m${t}\x1b[22m`);
    let run: string[] = [];
    let runRow = rows.at(-1)!;
    const flush = () => {
      if (run.length > 0) runRow.cells.push(dim(run.join('')));
      run = [];
    };
    for (const g of graphemes(v.suggestion)) {
      const cell = textCell(g, v.width);
      if (rows.at(-1)!.width + cell.width > columns && rows.at(-1)!.width > 0) {
        flush();
        newRow(true);
      }
      runRow = rows.at(-1)!;
      run.push(cell.text);
      runRow.width += cell.width;
    }
    flush();
  }
  // A row that wraps is filled to the margin and left to the terminal's own wrap, as a terminal
  // shows long text (a copy of the screen gets one line); a newline ends its row.
  let text = '';
  rows.forEach((row, i) => {
    text += row.cells.join('');
    if (i === rows.length - 1) return;
    text += row.wraps ? ' '.repeat(Math.max(0, columns - row.width)) : '\r\n';
  });
  return { text, rows: rows.length, cursorRow, cursorColumn, endColumn: rows.at(-1)!.width };
}

/**
 * Draws layouts one over the other: remembers where the cursor was left in the last one, so the
 * next starts by going back to its first row. Pure apart from that memory.
 */
export class LineView {
  /** The cursor's row in the last drawing (counted from its first row), or null: nothing drawn. */
  #cursorRow: number | null = null;

  /** Whether a line is drawn (and not yet left). */
  get drawn(): boolean {
    return this.#cursorRow !== null;
  }

  /** The escapes that replace the last drawing by `next`. */
  draw(next: Layout): string {
    let out = this.#toTop();
    out += '\x1b[J';
    out += next.text;
    const up = next.rows - 1 - next.cursorRow;
    // Left where drawing ends (the cursor at the end of the line): no move at all.
    if (up > 0 || next.cursorColumn !== next.endColumn) {
      if (up > 0) out += `\x1b[${up}A`;
      out += `\x1b[${next.cursorColumn + 1}G`;
    }
    this.#cursorRow = next.cursorRow;
    return out;
  }

  /** Moves below the drawing (its rows stay on the screen) and forgets it: `rows` is its row count. */
  leave(rows: number): string {
    if (this.#cursorRow === null) return '';
    const down = rows - 1 - this.#cursorRow;
    this.#cursorRow = null;
    return `${down > 0 ? `\x1b[${down}B` : ''}\r\n`;
  }

  /** Erases the drawing and forgets it (the cursor ends where its first row began). */
  erase(): string {
    if (this.#cursorRow === null) return '';
    const out = `${this.#toTop()}\x1b[J`;
    this.#cursorRow = null;
    return out;
  }

  /** Forgets the drawing without touching the screen (the screen was cleared, or written over). */
  forget(): void {
    this.#cursorRow = null;
  }

  #toTop(): string {
    if (this.#cursorRow === null) return '\r';
    return `${this.#cursorRow > 0 ? `\x1b[${this.#cursorRow}A` : ''}\r`;
  }
}
