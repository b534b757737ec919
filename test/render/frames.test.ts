// The exec and tool frames: where they go (beside the output on a terminal, on the error stream
// on a pipe).

import { describe, expect, it } from 'vitest';
import { Renderer } from '../../src/render/renderer.js';
import { createStyle } from '../../src/render/style.js';
import { captureIo } from '../support/capture-io.js';

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
