// Listings laid out for the terminal's width. Two columns (`:help`, `:models`): the left column is
// as wide as its ordinary entries, a left entry too long for it goes on a line of its own, and the
// right column wraps within the width, its continuation lines aligned under it. A table
// (`:mcp list`): the widest columns narrow first, and a cell too wide wraps under itself.

import { textWidth } from './markdown-wrap.js';

/** `text` broken at spaces into lines of at most `width` columns; a longer word keeps its own line. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  for (const word of text.split(/ +/).filter((w) => w !== '')) {
    const w = textWidth(word);
    if (line !== '' && lineWidth + 1 + w > width) {
      lines.push(line);
      line = '';
      lineWidth = 0;
    }
    lineWidth += line === '' ? w : 1 + w;
    line += line === '' ? word : ` ${word}`;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

export interface ColumnsOptions {
  /** Spaces before the left column. */
  indent?: number;
  /** Spaces between the columns. */
  gap?: number;
}

/**
 * Rows of `[left, right]` as lines at most `width` columns wide (where the words allow). The left
 * column takes at most 40% of the width; a left entry wider than that is written alone, wrapped
 * with a deeper hanging indent, and its right text starts on the next line at the column.
 */
export function twoColumns(rows: readonly (readonly [string, string])[], width: number, options: ColumnsOptions = {}): string[] {
  const indent = options.indent ?? 2;
  const gap = options.gap ?? 2;
  const usable = Math.max(30, width);
  const leftCap = Math.max(12, Math.floor((usable - indent - gap) * 0.4));
  const fitting = rows.map(([left]) => textWidth(left)).filter((w) => w <= leftCap);
  const column = indent + (fitting.length > 0 ? Math.max(...fitting) : 0) + gap;
  const room = Math.max(20, usable - column);
  const pad = (n: number) => ' '.repeat(n);
  const lines: string[] = [];
  for (const [left, right] of rows) {
    const leftWidth = textWidth(left);
    const body = right === '' ? [] : wrapWords(right, room);
    if (leftWidth > leftCap) {
      wrapWords(left, usable - indent - 4).forEach((part, i) => lines.push(pad(i === 0 ? indent : indent + 4) + part));
      for (const part of body) lines.push(pad(column) + part);
      continue;
    }
    const [first = '', ...rest] = body;
    lines.push(`${pad(indent)}${left}${first === '' ? '' : pad(column - indent - leftWidth) + first}`);
    for (const part of rest) lines.push(pad(column) + part);
  }
  return lines;
}

/** The narrowest a table's column is made to fit the width (a column narrower by nature stays so). */
const MIN_COLUMN = 8;

/**
 * Rows of cells as aligned columns, `gap` spaces apart, the last column not padded. Each column is
 * as wide as its widest cell; while the lines would be wider than `width`, the widest column is
 * narrowed (not below 8), and a cell wider than its column wraps at spaces (a longer word at its
 * characters) and goes on under itself. `width` Infinity: one line per row.
 */
export function alignColumns(rows: readonly (readonly string[])[], width = Infinity, gap = 2): string[] {
  const count = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: count }, (_, i) => Math.max(0, ...rows.map((r) => textWidth(r[i] ?? ''))));
  let total = widths.reduce((a, b) => a + b, 0) + gap * (count - 1);
  while (total > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= MIN_COLUMN) break;
    widths[widest]!--;
    total--;
  }
  const lines: string[] = [];
  for (const row of rows) {
    const cells = widths.map((w, i) => wrapCell(row[i] ?? '', w));
    const height = Math.max(...cells.map((c) => c.length));
    for (let k = 0; k < height; k++) {
      const parts = cells.map((c, i) => (i === count - 1 ? (c[k] ?? '') : (c[k] ?? '') + ' '.repeat(widths[i]! - textWidth(c[k] ?? ''))));
      lines.push(parts.join(' '.repeat(gap)).trimEnd());
    }
  }
  return lines;
}

/** A cell's lines at most `width` columns wide: broken at spaces, a longer word at graphemes. */
function wrapCell(text: string, width: number): string[] {
  if (textWidth(text) <= width) return [text];
  return wrapWords(text, width).flatMap((line) => {
    if (textWidth(line) <= width) return [line];
    const pieces: string[] = [];
    let piece = '';
    for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(line)) {
      if (piece !== '' && textWidth(piece + segment) > width) {
        pieces.push(piece);
        piece = '';
      }
      piece += segment;
    }
    return [...pieces, piece];
  });
}
