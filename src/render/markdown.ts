// Markdown for a colour terminal, rendered while a reply streams. Append-only: every byte is
// written once, after what is already on screen, and nothing is ever redrawn or erased. The output
// depends only on the text, never on how it was split into chunks; with colour off it is the text.
//
// What waits for what: a line's first few characters are held until its kind is known (`CMD: `,
// heading, list item, quote, fence, rule); then prose streams word by word, each word written when
// the whitespace after it arrives (greedy wrapping only needs that), except that an inline span
// (`**…**`, `*…*`, `` `…` ``, `~~…~~`, `[…](…)`) is held from its opener until it closes, the
// line ends, or it grows past HOLD_LIMIT characters (then the opener was literal). `CMD: ` lines
// stream word by word, bold cyan, unwrapped, in and out of code fences. Fence lines (kept, dim),
// code lines (indented two columns, never wrapped, coloured per line by highlight.ts, so a
// construct spanning lines such as a block comment is coloured only on its first line) and rule
// candidates are written when the line is complete. A line that starts with `|` is held until the
// next line says whether it heads a table (a delimiter row follows); a table's rows are held until
// the table ends, then drawn with aligned columns (markdown-table.ts). Nothing else is held for
// tables. Every styled piece carries its own SGR open and close codes, so nothing is left open
// between pushes. A source line break is always a line break: lines of a paragraph are not joined
// and re-flowed.
//
// This file ties the parts together: markdown-line-start.ts decides a line's kind, markdown-inline.ts
// parses spans, markdown-wrap.ts wraps words, markdown-table.ts lays out tables, markdown-style.ts
// paints them.

import type { ChalkInstance } from 'chalk';
import { CMD_PREFIX } from '../cmd-contract.js';
import { highlighterFor, type LineHighlighter } from './highlight.js';
import { InlineParser } from './markdown-inline.js';
import { LineStart, type LineKind } from './markdown-line-start.js';
import { BOLD, createPainter, DIM, UNDERLINE, type Paint } from './markdown-style.js';
import { parseDelimiter, renderTable, splitRow, type HeldTable } from './markdown-table.js';
import { loadWidths } from './text-width.js';
import { Wrapper, type Out } from './markdown-wrap.js';

export { textWidth } from './markdown-wrap.js';

/** A long table is drawn this many body rows at a time, so it does not wait for its end. */
const TABLE_ROWS_HELD = 100;

export interface MarkdownOptions {
  /** The colour policy; at level 0 the renderer passes text through unchanged. */
  style: ChalkInstance;
  /** Columns to wrap prose at (the terminal width when the reply started). */
  width: number;
}

/**
 * Streaming markdown → terminal text. Feed it neutralised text (no ESC) with `push`, in chunks of
 * any size; write what it returns. Never returns cursor movement or erase sequences, and the
 * concatenated output is the same however the input was chunked. With colour off (chalk level 0)
 * `push` returns its input unchanged and `flush` returns nothing.
 */
export class MarkdownRenderer {
  readonly #style: ChalkInstance;
  readonly #passThrough: boolean;
  readonly #width: number;
  readonly #out: Out = { s: '' };
  readonly #paint: Paint;
  readonly #wrapper: Wrapper;
  readonly #start = new LineStart();

  /** What the rest of the current line is. */
  #phase: 'start' | 'inline' | 'cmd' | 'raw' | 'whole' | 'row' = 'start';
  #lineUsed = false;
  // Bodies.
  #inline: InlineParser | null = null;
  #cmdRun = '';
  #line = '';
  #fence: { ch: string; len: number; indent: number; highlight: LineHighlighter | null } | null = null;
  /** A complete `|` line that may head a table: written as typed unless a delimiter row follows. */
  #headCandidate: { line: string; indentText: string; indent: number; cells: string[] } | null = null;
  /** The table whose rows are being held; `shown` once a part of it was drawn. */
  #table: (HeldTable & { shown: boolean }) | null = null;

  constructor(opts: MarkdownOptions) {
    this.#style = opts.style;
    this.#passThrough = opts.style.level === 0;
    this.#width = Math.max(10, Math.floor(opts.width));
    this.#paint = createPainter(this.#style);
    this.#wrapper = new Wrapper(this.#out, this.#paint, this.#width);
  }

  /** Renders the next piece of the reply; returns what to append to the terminal. */
  push(text: string): string {
    if (this.#passThrough) return text;
    let i = 0;
    while (i < text.length) {
      if (this.#phase === 'start') {
        const c = text[i]!;
        if (c === '\n') this.#endLine();
        else this.#startChar(c);
        i++;
        continue;
      }
      const nl = text.indexOf('\n', i);
      const end = nl === -1 ? text.length : nl;
      if (end > i) {
        this.#lineUsed = true;
        const piece = i === 0 && end === text.length ? text : text.slice(i, end);
        if (this.#phase === 'inline') this.#inline!.feed(piece);
        else this.#body(piece);
      }
      if (nl === -1) break;
      this.#endLine();
      i = nl + 1;
    }
    const out = this.#out.s;
    this.#out.s = '';
    return out;
  }

  /** Completes an unfinished last line (as if it ended) and a held table; open code fences stay open. */
  flush(): string {
    if (this.#passThrough) return '';
    const out = this.#lineUsed ? this.push('\n') : '';
    if (this.#headCandidate === null && this.#table === null) return out;
    this.#endTable();
    const rest = this.#out.s;
    this.#out.s = '';
    return out + rest;
  }

  #cmd(s: string): string {
    return this.#style.bold.cyan(s);
  }

  // ---- line start ------------------------------------------------------------------------

  #startChar(c: string): void {
    this.#lineUsed = true;
    const kind = this.#start.feed(c);
    if (kind) this.#begin(kind);
  }

  /** Starts the body of a line whose kind is now known. */
  #begin(kind: LineKind): void {
    if (kind.type !== 'row' && (this.#table !== null || this.#headCandidate !== null)) this.#endTable();
    switch (kind.type) {
      case 'cmd':
        return this.#beginCmd();
      case 'paragraph':
        return this.#beginParagraph(kind.text);
      case 'heading':
        return this.#beginHeading(kind.level);
      case 'item':
        return this.#beginItem(kind.ordinal, kind.rest);
      case 'quote':
        return this.#beginQuote(kind.depth, kind.first);
      case 'raw':
        return this.#beginRaw(kind.text);
      case 'whole':
        return this.#beginWhole(kind.text);
      case 'row':
        this.#phase = 'row';
        this.#line = kind.text;
        return;
      case 'rule':
        return this.#rule();
    }
  }

  // ---- blocks ----------------------------------------------------------------------------

  #beginParagraph(text: string): void {
    const indent = this.#start.indent;
    const pad = ' '.repeat(indent);
    this.#beginInline(pad, indent, pad, indent, 0, text);
  }

  #beginHeading(level: number): void {
    const indent = this.#start.indent;
    const pad = ' '.repeat(indent);
    this.#beginInline(pad, indent, pad, indent, level === 1 ? BOLD | UNDERLINE : BOLD, '');
  }

  /** `ordinal` is `1.`/`1)` as typed, or '' for a bullet. */
  #beginItem(ordinal: string, rest: string): void {
    const indent = this.#start.indent;
    const marker = ordinal !== '' ? ordinal : indent < 2 ? '•' : '◦';
    const width = indent + marker.length + 1;
    const hang = ' '.repeat(width);
    this.#beginInline(`${' '.repeat(indent)}${marker} `, width, hang, width, 0, rest);
  }

  #beginQuote(depth: number, first: string): void {
    const indent = this.#start.indent;
    const bars = this.#paint(DIM, '│ '.repeat(depth));
    const prefix = `${' '.repeat(indent)}${bars}`;
    const width = indent + 2 * depth;
    this.#beginInline(prefix, width, prefix, width, DIM, first);
  }

  #beginInline(prefix: string, prefixWidth: number, hang: string, hangWidth: number, mask: number, text: string): void {
    this.#phase = 'inline';
    this.#wrapper.begin(prefix, prefixWidth, hang, hangWidth, mask & UNDERLINE ? this.#paint(mask, ' ') : ' ');
    this.#inline = new InlineParser(this.#wrapper, mask);
    if (text !== '') this.#inline.feed(text);
  }

  #beginCmd(): void {
    this.#phase = 'cmd';
    this.#cmdRun = CMD_PREFIX;
  }

  #beginRaw(text: string): void {
    this.#phase = 'raw';
    this.#out.s += this.#start.indentText + text;
  }

  #beginWhole(text: string): void {
    this.#phase = 'whole';
    this.#line = this.#start.indentText + text;
  }

  #rule(): void {
    const indent = this.#start.indent;
    this.#out.s += ' '.repeat(indent) + this.#paint(DIM, '─'.repeat(Math.max(3, this.#width - indent)));
  }

  /** Text of the current line after its kind is known, up to (not including) a newline. */
  #body(s: string): void {
    switch (this.#phase) {
      case 'inline':
        this.#inline!.feed(s);
        return;
      case 'raw':
        this.#out.s += s;
        return;
      case 'whole':
      case 'row':
        this.#line += s;
        return;
      case 'cmd':
        // Written a word (and the whitespace after it) at a time, so chunking never shows.
        for (const c of s) {
          const space = c === ' ' || c === '\t';
          const run = this.#cmdRun;
          if (!space && run !== '' && (run.endsWith(' ') || run.endsWith('\t'))) {
            this.#out.s += this.#cmd(run);
            this.#cmdRun = c;
          } else this.#cmdRun = run + c;
        }
        return;
    }
  }

  #endLine(): void {
    if (this.#phase === 'start') {
      const kind = this.#start.decideAtEnd();
      if (kind) this.#begin(kind);
    }
    switch (this.#phase) {
      case 'start':
        if (this.#table !== null || this.#headCandidate !== null) this.#endTable();
        this.#out.s += '\n';
        break;
      case 'inline':
        this.#inline!.end();
        this.#wrapper.endLine();
        this.#inline = null;
        break;
      case 'cmd':
        this.#out.s += `${this.#cmd(this.#cmdRun)}\n`;
        this.#cmdRun = '';
        break;
      case 'raw':
        this.#out.s += '\n';
        break;
      case 'whole':
        this.#wholeLine(this.#line);
        this.#line = '';
        break;
      case 'row':
        this.#rowLine(this.#line);
        this.#line = '';
        break;
    }
    this.#phase = this.#fence ? 'whole' : 'start';
    this.#lineUsed = false;
    this.#start.reset();
  }

  /** A complete line starting with `|`: a body row, a delimiter row under a held head, or a head. */
  #rowLine(line: string): void {
    const table = this.#table;
    if (table) {
      table.rows.push(line);
      if (table.rows.length >= TABLE_ROWS_HELD) {
        this.#out.s += renderTable(table, this.#width, this.#paint);
        table.rows = [];
        table.shown = true;
      }
      return;
    }
    const head = this.#headCandidate;
    if (head) {
      const aligns = parseDelimiter(line, head.cells.length);
      this.#headCandidate = null;
      if (aligns) {
        this.#table = { header: head.cells, aligns, rows: [], indent: head.indent, shown: false };
        return;
      }
      this.#out.s += `${head.indentText}${head.line}\n`;
    }
    void loadWidths();
    this.#headCandidate = { line, indentText: this.#start.indentText, indent: this.#start.indent, cells: splitRow(line) };
  }

  /** The held table ends: drawn (or a lone head written as typed). */
  #endTable(): void {
    const head = this.#headCandidate;
    if (head) this.#out.s += `${head.indentText}${head.line}\n`;
    const table = this.#table;
    if (table && !(table.shown && table.rows.length === 0)) this.#out.s += renderTable(table, this.#width, this.#paint);
    this.#headCandidate = null;
    this.#table = null;
  }

  /** A complete fence line or code line, or a line that only looked like a fence. */
  #wholeLine(line: string): void {
    const fence = this.#fence;
    if (fence) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === fence.ch && close[1]!.length >= fence.len) {
        this.#fence = null;
        this.#out.s += `${this.#paint(DIM, line)}\n`;
      } else if (line.startsWith(CMD_PREFIX)) {
        this.#out.s += `${this.#cmd(line)}\n`;
      } else {
        let strip = 0;
        while (strip < fence.indent && line[strip] === ' ') strip++;
        const code = line.slice(strip);
        const shown = code === '' ? '' : `${' '.repeat(fence.indent + 2)}${fence.highlight ? fence.highlight(code) : code}`;
        this.#out.s += `${shown}\n`;
      }
      return;
    }
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(line);
    if (!open || (open[2]![0] === '`' && open[3]!.includes('`'))) {
      this.#beginParagraph(line.slice(this.#start.indentText.length));
      this.#inline!.end();
      this.#wrapper.endLine();
      this.#inline = null;
      return;
    }
    const lang = /^[\s{.]*([^\s{}.,;]*)/.exec(open[3]!)?.[1] ?? '';
    this.#fence = {
      ch: open[2]![0]!,
      len: open[2]!.length,
      indent: this.#start.indent,
      highlight: lang === '' ? null : highlighterFor(lang, this.#style),
    };
    this.#out.s += `${this.#paint(DIM, line)}\n`;
  }
}
