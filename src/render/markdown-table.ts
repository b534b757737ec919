// Markdown tables for the terminal. A table is a header row, a delimiter row (`|---|:--:|--:|`)
// and body rows, every row starting with `|`. The renderer holds a table's rows until it ends
// (a line that is not a row, a blank line, the end of the reply) and hands them here: columns are
// aligned by display width (string-width: CJK and emoji take two columns), the delimiter's colons
// set left, centre or right alignment, cells keep their inline markdown (bold, code, links...),
// and the header is bold. A table wider than the terminal becomes one record per row instead:
// `header: value` lines, values wrapped with a hanging indent, a blank line between records.

import { InlineParser, type Sink } from './markdown-inline.js';
import { BOLD, DIM, type Paint } from './markdown-style.js';
import { Wrapper, type Out } from './markdown-wrap.js';
import { displayWidth } from './text-width.js';

export type Align = 'left' | 'center' | 'right';

/**
 * The cells of a row (`| a | b |`, the leading and trailing pipes optional here), trimmed. An
 * escaped pipe `\|` stays in its cell, as typed: the inline parser shows it as `|`.
 */
export function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  const cells: string[] = [];
  let cell = '';
  let endedWithPipe = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    endedWithPipe = false;
    if (c === '\\' && i + 1 < s.length) {
      cell += c + s[++i]!;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
      endedWithPipe = true;
    } else cell += c;
  }
  if (!endedWithPipe || cell.trim() !== '') cells.push(cell.trim());
  return cells;
}

/** The alignments of a delimiter row with `columns` cells; null when the line is not one. */
export function parseDelimiter(line: string, columns: number): Align[] | null {
  const cells = splitRow(line);
  if (cells.length !== columns) return null;
  const aligns: Align[] = [];
  for (const cell of cells) {
    const m = /^(:?)-+(:?)$/.exec(cell);
    if (!m) return null;
    aligns.push(m[1] && m[2] ? 'center' : m[2] ? 'right' : 'left');
  }
  return aligns;
}

/** A table as held by the renderer: the header cells, the alignments and the body rows' source lines. */
export interface HeldTable {
  header: string[];
  aligns: Align[];
  rows: string[];
  /** Columns of indentation of the header row. */
  indent: number;
}

/** The table drawn for a terminal `width` columns wide: a box, or records when the box is wider. */
export function renderTable(table: HeldTable, width: number, paint: Paint): string {
  const columns = table.header.length;
  const head = table.header.map((src) => renderCell(src, BOLD, paint));
  const body = table.rows.map((line) => {
    const cells = splitRow(line);
    return Array.from({ length: columns }, (_, i) => renderCell(cells[i] ?? '', 0, paint));
  });
  const widths = head.map((h, i) => Math.max(1, h.width, ...body.map((row) => row[i]!.width)));
  const boxWidth = table.indent + 1 + widths.reduce((sum, w) => sum + w + 3, 0);
  if (boxWidth <= width) return drawBox(head, body, widths, table, paint);
  return drawRecords(head, table, width, paint);
}

interface Cell {
  styled: string;
  width: number;
}

/** Collects a cell's inline markdown as one styled string; runs of spaces become one. */
class CellSink implements Sink {
  styled = '';
  plain = '';
  #space = false;

  constructor(private readonly paint: Paint) {}

  text(s: string, mask: number): void {
    if (this.#space && this.plain !== '') {
      this.styled += ' ';
      this.plain += ' ';
    }
    this.#space = false;
    this.styled += this.paint(mask, s);
    this.plain += s;
  }

  space(): void {
    this.#space = true;
  }
}

function renderCell(src: string, mask: number, paint: Paint): Cell {
  const sink = new CellSink(paint);
  const parser = new InlineParser(sink, mask);
  parser.feed(src);
  parser.end();
  const plain = sink.plain;
  return { styled: sink.styled, width: displayWidth(plain) };
}

function drawBox(head: Cell[], body: Cell[][], widths: number[], table: HeldTable, paint: Paint): string {
  const pad = ' '.repeat(table.indent);
  const rule = (left: string, mid: string, right: string) => `${pad}${paint(DIM, left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right)}\n`;
  const bar = paint(DIM, '│');
  const row = (cells: Cell[]) => `${pad}${bar}${cells.map((c, i) => ` ${aligned(c, widths[i]!, table.aligns[i]!)} ${bar}`).join('')}\n`;
  let out = rule('┌', '┬', '┐') + row(head) + rule('├', '┼', '┤');
  for (const cells of body) out += row(cells);
  return out + rule('└', '┴', '┘');
}

function aligned(cell: Cell, width: number, align: Align): string {
  const room = width - cell.width;
  if (room <= 0) return cell.styled;
  if (align === 'right') return ' '.repeat(room) + cell.styled;
  if (align === 'center') return ' '.repeat(room >> 1) + cell.styled + ' '.repeat(room - (room >> 1));
  return cell.styled + ' '.repeat(room);
}

/** One record per body row: `header: value`, the value wrapped under a two-column hang. */
function drawRecords(head: Cell[], table: HeldTable, width: number, paint: Paint): string {
  const out: Out = { s: '' };
  const pad = ' '.repeat(table.indent);
  if (table.rows.length === 0) return `${pad}${head.map((h) => h.styled).join(paint(DIM, ' │ '))}\n`;
  const wrapper = new Wrapper(out, paint, width);
  table.rows.forEach((line, k) => {
    if (k > 0) out.s += '\n';
    const cells = splitRow(line);
    head.forEach((h, i) => {
      wrapper.begin(`${pad}${h.styled}: `, table.indent + h.width + 2, `${pad}  `, table.indent + 2, ' ');
      const parser = new InlineParser(wrapper, 0);
      parser.feed(cells[i] ?? '');
      parser.end();
      wrapper.endLine();
    });
  });
  return out.s;
}
