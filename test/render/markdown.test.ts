import { createRequire } from 'node:module';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { MarkdownRenderer, textWidth } from '../../src/render/markdown.js';
import { createStyle, type ColorLevel } from '../../src/render/style.js';

const BOLD_CYAN = '\x1b[1m\x1b[36m';
/** Cursor movement, positioning and erasing: a renderer that redraws would need these. */
const REDRAW = /\x1b\[[0-9;?]*[ABCDHJKG]/;

function render(text: string, opts: { width?: number; level?: ColorLevel; chunks?: (text: string) => string[] } = {}): string {
  const md = new MarkdownRenderer({ style: createStyle(opts.level ?? 1), width: opts.width ?? 80 });
  let out = '';
  for (const chunk of opts.chunks ? opts.chunks(text) : [text]) out += md.push(chunk);
  return out + md.flush();
}

const plain = (text: string, width?: number) => stripAnsi(render(text, { width }));

/** Deterministic random slices, 1..maxLen characters each. */
function slices(seed: number, maxLen: number) {
  return (text: string): string[] => {
    let s = seed;
    const next = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s);
    const out: string[] = [];
    for (let i = 0; i < text.length; ) {
      const len = 1 + (next() % maxLen);
      out.push(text.slice(i, i + len));
      i += len;
    }
    return out;
  };
}
const perChar = (text: string) => [...text];

const REPLY = [
  '# Fixing the build',
  '',
  'The error comes from **`tsc`** in *strict* mode; see [the handbook](https://www.typescriptlang.org/docs/handbook/2/basic-types.html) and ~~old~~ _new_ notes, snake_case_names stay, 2 * 3 = 6.',
  '',
  '## Steps',
  '',
  '- Install the types with a command that is long enough to wrap over the edge of the screen',
  '  - a nested point, also long enough that it needs a second line on a narrow terminal',
  '1. First run the compiler again and read the *first* error, not the last one it prints',
  '10. Then fix it',
  '',
  '> Quoted advice that goes on for a while so that it has to wrap at least once, maybe twice.',
  '',
  '---',
  'CMD: npm install --save-dev @types/node typescript && npx tsc --noEmit --project tsconfig.json',
  '```ts',
  'const answer: number = 42; // the answer',
  'export function twice(x: number): number { return x * 2; }',
  'CMD: echo from inside a fence',
  '```',
  '',
  '~~~bash',
  'for f in *.ts; do echo "$f"; done',
  '~~~',
  '| col a | col b |',
  'An unclosed *emphasis, a [bracket] and a `tick stay as typed.',
  'Last line without a newline, ending in **bold**',
].join('\n');

// First in the file: later tests load highlight.js into this worker.
describe('MarkdownRenderer start-up cost', () => {
  it('highlight.js is loaded by the first fence that names a language, not before', () => {
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => Object.keys(cache).some((k) => k.includes('highlight.js/lib/core'));
    expect(loaded()).toBe(false);
    render('# Title\n\nsome `code` and\n```\nplain block\n```\n');
    expect(loaded()).toBe(false);
    render('```python\nprint(1)\n```\n');
    expect(loaded()).toBe(true);
  });
});

describe('MarkdownRenderer layout (colour on, escape codes stripped)', () => {
  it.each([
    ['heading 1', '# Title\n', 'Title\n'],
    ['heading 2 with emphasis', '## Sub *title*\n', 'Sub title\n'],
    ['empty heading', '#\n', '\n'],
    ['#word is not a heading', '#hashtag here\n', '#hashtag here\n'],
    ['emphasis markers removed', 'a **b** *c* _d_ `e` ~~f~~ ***g***\n', 'a b c d e f g\n'],
    ['emphasis inside a word', 'un*frigging*believable\n', 'unfriggingbelievable\n'],
    ['intraword underscores stay', 'snake_case_name and __init__.py\n', 'snake_case_name and init.py\n'],
    ['spaced asterisks stay', '2 * 3 * 4\n', '2 * 3 * 4\n'],
    ['unclosed emphasis stays', 'a *b c\n', 'a *b c\n'],
    ['unclosed code stays, inner emphasis still works', 'a `b **c**\n', 'a `b c\n'],
    ['code span keeps its inside', 'run `ls  -la *.ts` now\n', 'run ls  -la *.ts now\n'],
    ['double backticks', 'the ``a`b`` span\n', 'the a`b span\n'],
    ['link', 'see [the docs](https://x.y/z?q=1) now\n', 'see the docs (https://x.y/z?q=1) now\n'],
    ['link whose text is the url', '[https://x.y](https://x.y)\n', 'https://x.y\n'],
    ['brackets that are not a link', '[note] and [a](b c)\n', '[note] and [a](b c)\n'],
    ['backslash escapes', '\\*not em\\* C:\\Users\n', '*not em* C:\\Users\n'],
    ['bullets', '- one\n* two\n+ three\n', '• one\n• two\n• three\n'],
    ['nested bullet', '- top\n  - sub\n', '• top\n  ◦ sub\n'],
    ['empty bullet', '-\n- \n', '-\n• \n'],
    ['ordered items', '1. one\n2) two\n', '1. one\n2) two\n'],
    ['numbers that are not items', '3.14 is pi\n2024 was\n', '3.14 is pi\n2024 was\n'],
    ['bold at line start is not a bullet', '**Note:** read\n', 'Note: read\n'],
    ['quote', '> quoted *text*\n', '│ quoted text\n'],
    ['nested quote', '> > deep\n', '│ │ deep\n'],
    ['rule', '---\n', `${'─'.repeat(80)}\n`],
    ['rule of stars', '* * *\n', `${'─'.repeat(80)}\n`],
    ['blank lines and indentation kept', 'a\n\n   b\n', 'a\n\n   b\n'],
    ['spaces between words collapse', 'a    b  \n', 'a b\n'],
    ['table rows verbatim', '| a  |  *b* |\n', '| a  |  *b* |\n'],
    ['fence lines kept, code indented', '```ts\nconst a = 1;\n\n```\n', '```ts\n  const a = 1;\n\n```\n'],
    ['tilde fence, longer closing fence', '~~~\n# not a heading\n~~~~\n', '~~~\n  # not a heading\n~~~~\n'],
    ['inner shorter fence stays code', '````md\n```\n````\n', '````md\n  ```\n````\n'],
    ['not a fence: backtick in info', '```a`b\n', '```a`b\n'],
    ['CMD: line untouched', 'CMD: echo **x** `y`  z\n', 'CMD: echo **x** `y`  z\n'],
    ['CMD: inside a fence untouched', '```\nCMD: ls\n```\n', '```\nCMD: ls\n```\n'],
    ['almost CMD lines are prose', 'CMD:ls\nCM\n CMD: x\n', 'CMD:ls\nCM\n CMD: x\n'],
    ['unfinished last line is completed', '- item', '• item\n'],
  ])('%s', (_name, input, expected) => {
    expect(plain(input)).toBe(expected);
  });
});

describe('MarkdownRenderer styling', () => {
  it.each([
    ['heading 1 bold and underlined', '# T\n', '\x1b[1m\x1b[4mT\x1b[24m\x1b[22m'],
    ['heading 2 bold', '## T\n', '\x1b[1mT\x1b[22m'],
    ['strong', '**b**\n', '\x1b[1mb\x1b[22m'],
    ['emphasis', '*i*\n', '\x1b[3mi\x1b[23m'],
    ['code span yellow', '`c`\n', '\x1b[33mc\x1b[39m'],
    ['strike-through', '~~s~~\n', '\x1b[9ms\x1b[29m'],
    ['link text blue underlined, url dim', '[t](u)\n', '\x1b[34m\x1b[4mt\x1b[24m\x1b[39m \x1b[2m(u)\x1b[22m'],
    ['quote dim with a bar', '> q\n', '\x1b[2m│ \x1b[22m\x1b[2mq\x1b[22m'],
    ['rule dim', '___\n', '\x1b[2m───'],
    ['CMD: line bold cyan', 'CMD: ls\n', `${BOLD_CYAN}CMD: \x1b[39m\x1b[22m${BOLD_CYAN}ls\x1b[39m\x1b[22m\n`],
    ['fence line dim', '```\nx\n```\n', '\x1b[2m```\x1b[22m\n  x\n\x1b[2m```\x1b[22m\n'],
  ])('%s', (_name, input, expected) => {
    expect(render(input)).toContain(expected);
  });

  it('plain prose carries no escape codes at all', () => {
    expect(render('just words, nothing more\n')).toBe('just words, nothing more\n');
  });
});

describe('MarkdownRenderer streaming', () => {
  it('renders the same bytes however the reply is split into chunks', () => {
    const whole = render(REPLY, { width: 40 });
    expect(render(REPLY, { width: 40, chunks: perChar })).toBe(whole);
    for (const seed of [1, 7, 42, 1234]) {
      expect(render(REPLY, { width: 40, chunks: slices(seed, 9) })).toBe(whole);
      expect(render(REPLY, { width: 40, chunks: slices(seed, 60) })).toBe(whole);
    }
  });

  it('is chunking-independent on generated text full of markup fragments', () => {
    const pieces = ['word', ' ', '  ', '\n', '*', '**', '_', '__', '`', '```', '~~', '~', '[', ']', '(', ')', '\\', '#', '# ', '- ', '1. ', '> ', 'CMD: ', '```ts\n', '|', '---\n', 'x_y', '\t', 'é', '漢'];
    for (const seed of [2, 3, 5, 8, 13]) {
      let s = seed;
      const next = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s);
      let text = '';
      for (let i = 0; i < 400; i++) text += pieces[next() % pieces.length];
      const whole = render(text, { width: 30 });
      expect(render(text, { width: 30, chunks: perChar })).toBe(whole);
      expect(render(text, { width: 30, chunks: slices(seed, 7) })).toBe(whole);
      expect(whole).not.toMatch(REDRAW);
    }
  });

  it('only appends: no cursor movement or erasing, whatever the chunking', () => {
    for (const chunks of [undefined, perChar, slices(3, 5), slices(11, 40)]) {
      const out = render(REPLY, { width: 40, chunks, level: 3 });
      expect(out).not.toMatch(REDRAW);
      expect(out).not.toContain('\r');
    }
  });

  it('writes a word as soon as the whitespace after it arrives', () => {
    const md = new MarkdownRenderer({ style: createStyle(1), width: 80 });
    expect(md.push('Hello wor')).toBe('Hello');
    expect(md.push('ld and')).toBe(' world');
    expect(md.push(' **more')).toBe(' and');
    expect(md.push(' text** end')).toBe(' \x1b[1mmore\x1b[22m \x1b[1mtext\x1b[22m');
    expect(md.flush()).toBe(' end\n');
  });

  it('holds a line start only until its kind is known, then shows the marker', () => {
    const md = new MarkdownRenderer({ style: createStyle(1), width: 80 });
    expect(md.push('CM')).toBe('');
    expect(md.push('D: ls -la')).toBe(`${BOLD_CYAN}CMD: \x1b[39m\x1b[22m${BOLD_CYAN}ls \x1b[39m\x1b[22m`);
    expect(md.push('\n- ')).toBe(`${BOLD_CYAN}-la\x1b[39m\x1b[22m\n`);
    expect(md.push('x')).toBe('• ');
  });

  it('gives up on an opener that never closes after a bounded hold', () => {
    const md = new MarkdownRenderer({ style: createStyle(1), width: 10_000 });
    const shown = stripAnsi(md.push(`a *${'word '.repeat(200)}`));
    expect(shown.startsWith('a *word word')).toBe(true);
  });

  it('stays linear on one very long line', () => {
    const md = new MarkdownRenderer({ style: createStyle(1), width: 80 });
    let out = '';
    for (let i = 0; i < 50_000; i++) out += md.push(i % 97 === 0 ? '*x ' : 'tok ');
    out += md.flush();
    expect(stripAnsi(out).split('\n').every((line) => line.length <= 80)).toBe(true);
  });
});

describe('MarkdownRenderer wrapping at 40 columns', () => {
  const width = 40;
  const lines = (text: string) => plain(text, width).replace(/\n$/, '').split('\n');
  const words = (text: string) => text.split(/\s+/).filter((w) => w !== '' && !/^[-•◦│>]$|^\d+\.$/.test(w));

  it.each([
    ['paragraph', 'The quick brown fox jumps over the lazy dog and keeps running far beyond the fence line.', '', ''],
    ['bullet', '- The quick brown fox jumps over the lazy dog and keeps running far beyond the fence line.', '• ', '  '],
    ['ordered', '12. The quick brown fox jumps over the lazy dog and keeps running far beyond the fence line.', '12. ', '    '],
    ['nested bullet', '  - The quick brown fox jumps over the lazy dog and keeps running far beyond the fence line.', '  ◦ ', '    '],
    ['quote', '> The quick brown fox jumps over the lazy dog and keeps running far beyond the fence line.', '│ ', '│ '],
    ['indented paragraph', '   The quick brown fox jumps over the lazy dog and keeps running far beyond the fence line.', '   ', '   '],
    ['styled words', '- The **quick brown fox** jumps over the *lazy dog* and keeps `running far` beyond the fence line.', '• ', '  '],
  ])('%s: hanging indent, no line over the width, no word lost', (_name, input, first, rest) => {
    const out = lines(input);
    expect(out.length).toBeGreaterThan(2);
    expect(out[0]!.startsWith(first)).toBe(true);
    for (const line of out.slice(1)) {
      expect(line.startsWith(rest)).toBe(true);
      expect(line.slice(rest.length).startsWith(' ')).toBe(false);
    }
    for (const line of out) expect(textWidth(line)).toBeLessThanOrEqual(width);
    expect(words(out.join(' '))).toEqual(words(input.replace(/\*\*|\*|`/g, '')));
  });

  it('a word longer than the line gets a line of its own and is not broken', () => {
    const url = `https://example.com/${'x'.repeat(60)}`;
    expect(lines(`see ${url} ok`)).toEqual(['see', url, 'ok']);
  });

  it('wide characters count double', () => {
    const out = lines('漢字 '.repeat(20));
    for (const line of out) expect(textWidth(line)).toBeLessThanOrEqual(width);
    expect(textWidth('漢字')).toBe(4);
    expect(textWidth('é')).toBe(1);
    expect(textWidth('😀')).toBe(2);
  });

  it('CMD: lines are never wrapped, even past the width', () => {
    const cmd = `CMD: find . -name '*.ts' -not -path './node_modules/*' -exec grep -l TODO {} +`;
    const out = render(`${cmd}\n`, { width });
    expect(stripAnsi(out)).toBe(`${cmd}\n`);
    expect(out.startsWith(BOLD_CYAN)).toBe(true);
    expect(out.split(BOLD_CYAN).length).toBeGreaterThan(2);
  });

  it('code lines are never wrapped', () => {
    const code = 'const veryLongName = someFunction(argumentNumberOne, argumentNumberTwo);';
    expect(lines(`\`\`\`\n${code}\n\`\`\``)).toEqual(['```', `  ${code}`, '```']);
  });
});

describe('MarkdownRenderer code blocks', () => {
  const between = (out: string, open: string) => {
    const start = out.indexOf(open);
    return out.slice(start + open.length, out.indexOf('```', start + open.length));
  };

  it('highlights a ts block by its grammar and keeps the code intact', () => {
    const code = ['const answer: number = 42; // the answer', 'export function twice(x: number): string { return `${x * 2}`; }'];
    const out = render(`Look:\n\`\`\`ts\n${code.join('\n')}\n\`\`\`\nafter\n`);
    const block = between(out, '```ts\x1b[22m\n');
    expect(block).toContain('\x1b[35mconst\x1b[39m'); // keyword
    expect(block).toContain('\x1b[33m42\x1b[39m'); // number
    expect(block).toContain('\x1b[90m// the answer\x1b[39m'); // comment
    expect(block).toContain('\x1b[32m'); // string
    expect(stripAnsi(block)).toBe(code.map((l) => `  ${l}\n`).join(''));
    expect(stripAnsi(out).endsWith('```\nafter\n')).toBe(true);
  });

  it('highlights a bash block and keeps the code intact', () => {
    const code = ['for f in *.log; do', '  echo "$f" | grep -c ERROR > /dev/null', 'done'];
    const out = render(`\`\`\`bash\n${code.join('\n')}\n\`\`\`\n`);
    const block = between(out, '```bash\x1b[22m\n');
    expect(block).toContain('\x1b[35mfor\x1b[39m');
    expect(block).toContain('\x1b[33mecho\x1b[39m'); // built-in
    expect(block).toContain('\x1b[32m'); // string
    expect(stripAnsi(block)).toBe(code.map((l) => `  ${l}\n`).join(''));
  });

  it('code characters that look like markup are shown as typed', () => {
    const code = 'if (a < b && c > "d") { x = \'<span>&amp;</span>\'; }';
    const out = render(`\`\`\`js\n${code}\n\`\`\`\n`);
    expect(stripAnsi(out)).toBe(`\`\`\`js\n  ${code}\n\`\`\`\n`);
  });

  it('an unknown or missing language gives plain, indented code', () => {
    expect(render('```nosuchlang\n**x** = 1\n```\n')).toBe('\x1b[2m```nosuchlang\x1b[22m\n  **x** = 1\n\x1b[2m```\x1b[22m\n');
    expect(render('```\nls -la\n```\n')).toBe('\x1b[2m```\x1b[22m\n  ls -la\n\x1b[2m```\x1b[22m\n');
  });

  it('CMD: lines inside a fence are bold cyan at column 0, not highlighted', () => {
    const out = render('```bash\nCMD: rm -rf ./build\necho hi\n```\n');
    expect(out).toContain(`\n${BOLD_CYAN}CMD: rm -rf ./build\x1b[39m\x1b[22m\n`);
  });

  it('a fence indented under a list item keeps its indentation', () => {
    expect(plain('1. Run:\n   ```sh\n   make all\n   ```\n')).toBe('1. Run:\n   ```sh\n     make all\n   ```\n');
  });

  it('a fence left open at the end of the reply ends with it', () => {
    expect(plain('```\nhalf')).toBe('```\n  half\n');
  });
});

describe('MarkdownRenderer with colour off', () => {
  it('passes the text through byte for byte: no wrapping, no markers removed', () => {
    for (const chunks of [undefined, perChar, slices(5, 7)]) {
      const md = new MarkdownRenderer({ style: createStyle(0), width: 20 });
      let out = '';
      for (const chunk of chunks ? chunks(REPLY) : [REPLY]) {
        const shown = md.push(chunk);
        expect(shown).toBe(chunk);
        out += shown;
      }
      expect(md.flush()).toBe('');
      expect(out).toBe(REPLY);
    }
  });
});
