import { beforeAll, describe, expect, it } from 'vitest';
import { Renderer } from '../../src/render/renderer.js';
import { createStyle } from '../../src/render/style.js';
import { directoryReport, TerminalMarks, titleText, windowTitle } from '../../src/render/terminal-marks.js';
import { displayWidth, loadWidths } from '../../src/render/text-width.js';
import { captureIo } from '../support/capture-io.js';

beforeAll(() => loadWidths());

describe('titleText: a title made of a command', () => {
  it.each([
    ['escapes and BEL are made visible', 'echo \x1b]0;owned\x07 done', 'echo ^[]0;owned^G done'],
    ['C1 controls too', 'a\x9b2Jb', 'a\\x9b2Jb'],
    ['lines become one', 'for f in *\ndo echo $f\ndone', 'for f in * do echo $f done'],
    ['a continued line', 'make \\\n  all', 'make all'],
    ['bidi controls', 'ls \u202etxt.exe', 'ls \\u202etxt.exe'],
  ])('%s', (_name, command, title) => {
    expect(titleText(command)).toBe(title);
    expect(windowTitle(command)).toBe(`\x1b]2;${title}\x07`);
  });

  it('is cut to 60 columns, wide characters counted as two', () => {
    expect(titleText(`echo ${'x'.repeat(200)}`)).toBe(`echo ${'x'.repeat(54)}…`);
    const cjk = titleText(`echo ${'漢'.repeat(100)}`);
    expect(displayWidth(cjk)).toBeLessThanOrEqual(60);
    expect(cjk.endsWith('…')).toBe(true);
  });
});

describe('directoryReport (OSC 7)', () => {
  it.each([
    ['/home/me/src', 'file://box/home/me/src'],
    ['/tmp/a b/é', 'file://box/tmp/a%20b/%C3%A9'],
    ['/tmp/evil\x07\x1b]0;x', 'file://box/tmp/evil%07%1B%5D0%3Bx'],
    ['/', 'file://box/'],
  ])('%s', (cwd, url) => {
    expect(directoryReport('box', cwd)).toBe(`\x1b]7;${url}\x07`);
  });
});

describe('TerminalMarks', () => {
  it('reports the directory at the first prompt and when it changed, the title at every prompt', () => {
    const marks = new TerminalMarks({ title: true, host: 'box', home: '/home/me' });
    expect(marks.atPrompt('/home/me/src')).toBe('\x1b]7;file://box/home/me/src\x07\x1b]2;~/src\x07');
    expect(marks.atPrompt('/home/me/src')).toBe('\x1b]2;~/src\x07');
    expect(marks.atPrompt('/etc')).toBe('\x1b]7;file://box/etc\x07\x1b]2;/etc\x07');
    expect(marks.atPrompt('/home/mello')).toContain('\x1b]2;/home/mello\x07');
  });

  it('without the title: the marks only', () => {
    const marks = new TerminalMarks({ title: false, host: 'box', home: undefined });
    expect(marks.atPrompt('/x')).toBe('\x1b]7;file://box/x\x07');
    expect(marks.commandStart('ls')).toBe('\x1b]133;C\x07');
    expect(marks.commandEnd(130)).toBe('\x1b]133;D;130\x07');
  });
});

describe('the renderer writes the marks beside a frame, on a terminal only', () => {
  const marks = () => new TerminalMarks({ title: true, host: 'box', home: undefined });

  it('on a terminal: C and the title before the frame, D after it; a secret in the command is redacted in the title', () => {
    const cap = captureIo({ isTTY: true, columns: 30 });
    const render = new Renderer(cap.io, createStyle(0), (t) => t.replace('hunter2', '[redacted:PASS]'), { marks: marks() });
    render.execBegin('echo hunter2');
    render.execOutput('x\n');
    render.execEnd({ exitCode: 1, signal: null });
    expect(cap.stdout).toMatch(/^\x1b\]133;C\x07\x1b\]2;echo \[redacted:PASS\]\x07╭─ echo hunter2 ─+\nx\n╰─ exit 1 ─+\n\x1b\]133;D;1\x07$/);
  });

  it('output to a pipe: no marks at all', () => {
    const cap = captureIo({ isTTY: false, columns: 30 });
    const render = new Renderer(cap.io, createStyle(0), (t) => t, { marks: marks() });
    render.execBegin('echo a');
    render.execEnd({ exitCode: 0, signal: null });
    expect(render.marks).toBeNull();
    expect(cap.stdout + cap.stderr).not.toContain('\x1b]');
  });
});
