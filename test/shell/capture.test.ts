import { describe, expect, it } from 'vitest';
import { OutputCapture, normalizeOutput } from '../../src/shell/capture.js';

describe('normalizeOutput', () => {
  it.each([
    ['a\r\nb\r\n', 'a\nb\n'],
    ['\x1b[31mred\x1b[0m plain', 'red plain'],
    ['10%\r50%\r100%\ndone', '100%\ndone'],
    ['bell\x07 and backspace\x08', 'bell and backspace'],
    ['tab\tstays', 'tab\tstays'],
    ['\x1b]0;title\x07text', 'text'],
  ])('%j', (raw, expected) => {
    expect(normalizeOutput(raw)).toBe(expected);
  });
});

describe('OutputCapture', () => {
  it('keeps small output whole, without the trailing newline', () => {
    const c = new OutputCapture(100);
    c.push('one\n');
    c.push('two\n');
    expect(c.finish()).toMatchObject({ text: 'one\ntwo', truncated: false, binary: false });
  });

  it('keeps head and tail with an elision marker past the cap', () => {
    const c = new OutputCapture(200);
    for (let i = 0; i < 1000; i++) c.push(`line ${i}\n`);
    const out = c.finish();
    expect(out.truncated).toBe(true);
    expect(out.text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(out.text.endsWith('line 999')).toBe(true);
    expect(out.text).toMatch(/\n\[\.\.\. \d+ chars elided \.\.\.\]\n/);
    expect(out.text.length).toBeLessThan(300);
  });

  it('handles megabytes in one-character chunks in bounded memory', () => {
    const c = new OutputCapture(1000);
    for (let i = 0; i < 2_000_000; i++) c.push(i % 50 === 49 ? '\n' : 'x');
    const out = c.finish();
    expect(out.rawChars).toBe(2_000_000);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThan(1100);
  });

  it('reports binary output instead of keeping it', () => {
    const c = new OutputCapture(100);
    c.push('ELF\0\0\x01\x02garbage');
    const out = c.finish();
    expect(out.binary).toBe(true);
    expect(out.text).toMatch(/^\[binary output, \d+ chars, not captured\]$/);
  });
});
