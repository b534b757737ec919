import { describe, expect, it } from 'vitest';
import { twoColumns, wrapWords } from '../../src/render/columns.js';
import { textWidth } from '../../src/render/markdown-wrap.js';

describe('wrapWords', () => {
  it.each([
    ['one two three four', 9, ['one two', 'three', 'four']],
    ['a  b', 10, ['a b']],
    ['supercalifragilistic is long', 8, ['supercalifragilistic', 'is long']],
    ['', 10, ['']],
    ['日本語 日本語', 8, ['日本語', '日本語']],
  ])('%j at %i columns', (text, width, lines) => {
    expect(wrapWords(text, width)).toEqual(lines);
  });
});

describe('twoColumns', () => {
  it('aligns descriptions after the widest ordinary left entry', () => {
    const lines = twoColumns(
      [
        [':a', 'first'],
        [':bbb <x>', 'second'],
      ],
      80,
    );
    expect(lines).toEqual(['  :a        first', '  :bbb <x>  second']);
  });

  it('puts a left entry too wide for 40% of the width on its own line, the text under the column', () => {
    const long = ':mcp connect <url [alias] | command [--alias NAME] | alias> [--token-env VAR] | list';
    const lines = twoColumns(
      [
        [':help [command]', 'list meta commands'],
        [long, 'connect and manage MCP servers'],
      ],
      60,
    );
    const column = lines[0]!.indexOf('list');
    expect(column).toBe(2 + ':help [command]'.length + 2);
    expect(lines.slice(1, -1).join(' ').replace(/\s+/g, ' ').trim()).toBe(long);
    expect(lines.at(-1)).toBe(`${' '.repeat(column)}connect and manage MCP servers`);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(60);
  });

  it('wraps a long description within the width, continuation aligned', () => {
    const lines = twoColumns([[':x', 'word '.repeat(30).trim()]], 40);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(40);
    for (const line of lines.slice(1)) expect(line.startsWith(' '.repeat(6) + 'word')).toBe(true);
  });
});
