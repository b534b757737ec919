// The exec and tool frames: as wide as the terminal measured in its columns (CJK and emoji take
// two), and where they go (beside the output on a terminal, on the error stream on a pipe).

import { beforeAll, describe, expect, it } from 'vitest';
import { Renderer } from '../../src/render/renderer.js';
import { createStyle } from '../../src/render/style.js';
import { displayWidth, loadWidths } from '../../src/render/text-width.js';
import { captureIo } from '../support/capture-io.js';

beforeAll(() => loadWidths());

/** The frame lines one call draws on a terminal `columns` wide. */
function frameLines(columns: number, draw: (render: Renderer) => void): string[] {
  const cap = captureIo({ isTTY: true, columns });
  draw(new Renderer(cap.io, createStyle(0)));
  return cap.stdout.replace(/\n$/, '').split('\n');
}

describe('a frame fits the terminal by display width (issue 36)', () => {
  it.each([
    ['CJK that fits', 40, 'echo 日本語'],
    ['CJK past the width', 20, 'echo 日本語のテキストはとても長いです'],
    ['CJK past the width, odd columns', 25, 'echo 漢字漢字漢字漢字漢字漢字漢字漢字'],
    ['emoji past the width', 20, 'echo ✅✅✅✅✅✅✅✅✅✅✅✅'],
    ['emoji sequences (skin tone, ZWJ, flag)', 24, 'echo 👍🏽 👩‍👩‍👧 🇯🇵 👍🏽 👩‍👩‍👧 🇯🇵 👍🏽 👩‍👩‍👧 🇯🇵'],
  ])('%s: the top rule is exactly the width', (_name, columns, command) => {
    const [top] = frameLines(columns, (r) => r.execBegin(command));
    expect(displayWidth(top!)).toBe(columns);
    expect(top).toMatch(/^╭─ echo .* ─{3,}$/);
  });

  it('a cut title ends in … and never splits a character or an emoji sequence', () => {
    const [top] = frameLines(20, (r) => r.execBegin('echo 👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧'));
    expect(top).toMatch(/^╭─ echo (👩‍👩‍👧)+… ─+$/u);
    expect(displayWidth(top!)).toBe(20);
  });

  it('a tool frame fits too', () => {
    const [top] = frameLines(30, (r) => r.toolBegin('t', '{"path":"資料/報告書/二〇二六年/最終版.md"}'));
    expect(displayWidth(top!)).toBe(30);
    expect(top).toMatch(/^ {2}╭─ tool t \{"path":"資.*… ─+$/);
  });
});

describe('where frames go (issue 36)', () => {
  it('on a terminal, with the output', () => {
    const cap = captureIo({ isTTY: true, columns: 30 });
    const render = new Renderer(cap.io, createStyle(0));
    render.execBegin('echo a');
    render.execOutput('a\n');
    render.execEnd({ exitCode: 0, signal: null });
    expect(cap.stdout).toBe(`╭─ echo a ${'─'.repeat(20)}\na\n╰─ exit 0 ${'─'.repeat(20)}\n`);
    expect(cap.stderr).toBe('');
  });

  it('output of escape sequences alone opens no line: no empty line above the bottom rule', () => {
    const cap = captureIo({ isTTY: true, columns: 30 });
    const render = new Renderer(cap.io, createStyle(0));
    render.execBegin('set x 5');
    // What fish prints around a command that says nothing: bracketed paste off, colours reset.
    render.execOutput('\x1b[?2004l\x1b[30m\x1b(B\x1b[m');
    render.execEnd({ exitCode: 0, signal: null });
    expect(cap.stdout.replace(/\x1b[^m]*m|\x1b\[\?2004l|\x1b\(B/g, '')).toBe(`╭─ set x 5 ${'─'.repeat(19)}\n╰─ exit 0 ${'─'.repeat(20)}\n`);
    // Text after them still ends its line before the rule.
    const more = captureIo({ isTTY: true, columns: 30 });
    const again = new Renderer(more.io, createStyle(0));
    again.execBegin('printf a');
    again.execOutput('\x1b[30m');
    again.execOutput('a');
    again.execEnd({ exitCode: 0, signal: null });
    expect(more.stdout).toContain('a\n╰─ exit 0');
  });

  it('on a pipe, on the error stream; output keeps the lines, an unended one ended', () => {
    const cap = captureIo({ isTTY: false, columns: 30 });
    const render = new Renderer(cap.io, createStyle(0));
    render.execBegin('printf a');
    render.execOutput('a');
    render.execEnd({ exitCode: 0, signal: null });
    render.toolBegin('t', '{}');
    render.toolBody('result');
    render.toolEnd('ok', true);
    expect(cap.stdout).toBe('a\n');
    expect(cap.stderr.split('\n').map((l) => l.replace(/ ─+$/, ''))).toEqual(['╭─ printf a', '╰─ exit 0', '  ╭─ tool t {}', '  │ result', '  ╰─ ok', '']);
  });

  it('input piped, output a terminal: the frames stay with the output', () => {
    const cap = captureIo({ isTTY: false, columns: 30 });
    const render = new Renderer({ ...cap.io, outputIsTTY: true }, createStyle(0));
    render.execBegin('echo a');
    render.execEnd({ exitCode: 0, signal: null });
    expect(cap.stdout).toContain('╭─ echo a');
    expect(cap.stderr).toBe('');
  });
});

describe('shell.frame', () => {
  /** A renderer with `frame` whose commands take `ms` each, and what it wrote. */
  function framed(frame: 'full' | 'compact' | 'none', ms: number, end: { exitCode: number; signal: NodeJS.Signals | null; error?: string }) {
    const cap = captureIo({ isTTY: true, columns: 30 });
    let now = 0;
    const render = new Renderer(cap.io, createStyle(0), (t) => t, { frame, now: () => now });
    render.execBegin('make');
    render.execOutput('out\n');
    now += ms;
    render.execEnd(end);
    return cap.stdout;
  }

  it.each<[string, 'full' | 'compact' | 'none', number, { exitCode: number; signal: NodeJS.Signals | null; error?: string }, string]>([
    ['full: both rules', 'full', 10, { exitCode: 0, signal: null }, `╭─ make ${'─'.repeat(22)}\nout\n╰─ exit 0 ${'─'.repeat(20)}\n`],
    ['compact, quick and 0: the output only', 'compact', 999, { exitCode: 0, signal: null }, 'out\n'],
    ['compact, failed: one line', 'compact', 120, { exitCode: 2, signal: null }, 'out\n╰─ exit 2 · 0.1s\n'],
    ['compact, slow: one line', 'compact', 1500, { exitCode: 0, signal: null }, 'out\n╰─ exit 0 · 1.5s\n'],
    ['compact, a signal', 'compact', 61_000, { exitCode: 130, signal: 'SIGINT' }, 'out\n╰─ exit 130 (SIGINT) · 1m01s\n'],
    ['compact, never started', 'compact', 5, { exitCode: 127, signal: null, error: 'no such shell' }, 'out\n╰─ no such shell · 0.0s\n'],
    ['none: the output only, even failed', 'none', 5000, { exitCode: 1, signal: null }, 'out\n'],
  ])('%s', (_name, frame, ms, end, shown) => {
    expect(framed(frame, ms, end)).toBe(shown);
  });
});
