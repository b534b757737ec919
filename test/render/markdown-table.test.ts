import stripAnsi from 'strip-ansi';
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { MarkdownRenderer } from '../../src/render/markdown.js';
import { parseDelimiter, splitRow } from '../../src/render/markdown-table.js';
import { estimateWidth, loadWidths } from '../../src/render/text-width.js';

// string-width loads on the first row that may start a table; here it is there from the start.
beforeAll(() => loadWidths());

describe('the width estimate used until string-width has loaded', () => {
  it.each(['plain', 'naïve café', '日本語', '한국어 text', '👍 ok', 'e\u0301', '全角ＡＢＣ', 'Ελληνικά'])('%j matches string-width', (text) => {
    expect(estimateWidth(text)).toBe(stringWidth(text));
  });
});
import { createStyle } from '../../src/render/style.js';

function render(text: string, opts: { width?: number; chunks?: (text: string) => string[]; level?: 0 | 1 } = {}): string {
  const md = new MarkdownRenderer({ style: createStyle(opts.level ?? 1), width: opts.width ?? 80 });
  let out = '';
  for (const chunk of opts.chunks ? opts.chunks(text) : [text]) out += md.push(chunk);
  return out + md.flush();
}
const plain = (text: string, width?: number) => stripAnsi(render(text, { width }));
const perChar = (text: string) => [...text];

describe('table rows and delimiter rows', () => {
  it.each([
    ['| a | b |', ['a', 'b']],
    ['|a|b', ['a', 'b']],
    ['| a | |', ['a', '']],
    ['| `x \\| y` | z |', ['`x \\| y`', 'z']],
    ['| a \\\\| b |', ['a \\\\', 'b']],
    ['|', ['']],
  ])('%j has the cells %j', (line, cells) => {
    expect(splitRow(line)).toEqual(cells);
  });

  it.each([
    ['|---|:--|--:|:-:|', 4, ['left', 'left', 'right', 'center']],
    ['| --- | :---: |', 2, ['left', 'center']],
    ['|---|---|', 3, null],
    ['| a | --- |', 2, null],
    ['|:|', 1, null],
  ])('%j as a delimiter of %i columns: %j', (line, columns, aligns) => {
    expect(parseDelimiter(line, columns)).toEqual(aligns);
  });
});

const TABLE = '| Name | Qty | Where |\n|:---|---:|:---:|\n| **apple** | 3 | shelf `A` |\n| pear | 12 | — |\n';

describe('tables on a terminal', () => {
  it('draws a box with columns aligned left, right and centre', () => {
    expect(plain(TABLE)).toBe(
      [
        '┌───────┬─────┬─────────┐',
        '│ Name  │ Qty │  Where  │',
        '├───────┼─────┼─────────┤',
        '│ apple │   3 │ shelf A │',
        '│ pear  │  12 │    —    │',
        '└───────┴─────┴─────────┘',
        '',
      ].join('\n'),
    );
  });

  it('keeps inline markdown in cells and the header bold; borders are dim', () => {
    const out = render(TABLE);
    expect(out).toContain('\x1b[1mName\x1b[22m');
    expect(out).toContain('\x1b[1mapple\x1b[22m');
    expect(out).toContain('\x1b[33mA\x1b[39m');
    expect(out).toContain('\x1b[2m│\x1b[22m');
  });

  it('measures CJK and emoji as two columns each', () => {
    const out = plain('| k | v |\n|---|---|\n| 名前 | ✅ |\n| ab | 👍🏽x |\n');
    expect(out).toBe(['┌──────┬─────┐', '│ k    │ v   │', '├──────┼─────┤', '│ 名前 │ ✅  │', '│ ab   │ 👍🏽x │', '└──────┴─────┘', ''].join('\n'));
  });

  it('pads missing cells and drops extra ones', () => {
    expect(plain('| a | b |\n|---|---|\n| 1 |\n| 1 | 2 | 3 |\n')).toBe(
      ['┌───┬───┐', '│ a │ b │', '├───┼───┤', '│ 1 │   │', '│ 1 │ 2 │', '└───┴───┘', ''].join('\n'),
    );
  });

  it('a table wider than the terminal becomes one record per row', () => {
    const wide = '| Flag | Meaning |\n|---|---|\n| -f | force the removal of files that are write protected |\n| -n | **dry** run |\n';
    expect(plain(wide, 30)).toBe(
      ['Flag: -f', 'Meaning: force the removal of', '  files that are write', '  protected', '', 'Flag: -n', 'Meaning: dry run', ''].join('\n'),
    );
  });

  it('ends at the first line that is not a row, which then renders as usual', () => {
    expect(plain('| a |\n|---|\n| 1 |\n# Next\ntext\n')).toBe(['┌───┐', '│ a │', '├───┤', '│ 1 │', '└───┘', 'Next', 'text', ''].join('\n'));
    expect(plain('| a |\n|---|\n| 1 |\n\nafter\n')).toBe(['┌───┐', '│ a │', '├───┤', '│ 1 │', '└───┘', '', 'after', ''].join('\n'));
    expect(plain('| a |\n|---|\n```\n| code |\n```\n')).toBe(['┌───┐', '│ a │', '├───┤', '└───┘', '```', '  | code |', '```', ''].join('\n'));
  });

  it('leaves lines that only look like rows as typed', () => {
    expect(plain('| one | two |\nplain\n')).toBe('| one | two |\nplain\n');
    expect(plain('| a | b |\n|---|\n')).toBe('| a | b |\n|---|\n');
    expect(plain('| x |\n| y |\n|---|\n| 1 |\n')).toBe(['| x |', '┌───┐', '│ y │', '├───┤', '│ 1 │', '└───┘', ''].join('\n'));
    expect(plain('    | indented | code |\n')).toBe('    | indented | code |\n');
  });

  it('draws a table at the end of a reply that ends without a newline', () => {
    expect(plain('| a |\n|---|\n| 1 |')).toBe(['┌───┐', '│ a │', '├───┤', '│ 1 │', '└───┘', ''].join('\n'));
  });

  it('renders the same however the reply is chunked, and holds nothing before a table', () => {
    const text = `Intro line\n${TABLE}| lone |\nafter\n`;
    const whole = render(text, { width: 40 });
    expect(render(text, { width: 40, chunks: perChar })).toBe(whole);
    const md = new MarkdownRenderer({ style: createStyle(1), width: 80 });
    expect(stripAnsi(md.push('Intro line\n| Name |'))).toBe('Intro line\n');
  });

  it('draws a long table a hundred rows at a time', () => {
    const rows = Array.from({ length: 150 }, (_, i) => `| ${i} |`).join('\n');
    const md = new MarkdownRenderer({ style: createStyle(1), width: 80 });
    const early = stripAnsi(md.push(`| n |\n|---|\n${rows}\n`));
    expect((early.match(/┌/g) ?? []).length).toBe(1);
    expect(early).toContain('│ 99 │');
    expect(early).not.toContain('│ 100 │');
    const rest = stripAnsi(md.flush());
    expect(rest.startsWith('┌─────┐\n│ n   │\n├─────┤\n│ 100 │\n')).toBe(true);
  });

  it('with colour off (a pipe, NO_COLOR) the table is the text as written', () => {
    expect(render(TABLE, { level: 0 })).toBe(TABLE);
  });
});
