import stripAnsi from 'strip-ansi';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/io.js';
import { Renderer } from '../../src/render/renderer.js';
import { ReplyRenderer } from '../../src/render/reply.js';
import { createStyle } from '../../src/render/style.js';
import { captureIo } from '../support/capture-io.js';

/** Resolves after the microtasks queued so far: the end of the job that wrote. */
const endOfJob = () => Promise.resolve();

function setup(level: 0 | 1 = 1, columns = 80) {
  const cap = captureIo({ columns });
  const reply = new ReplyRenderer(new Renderer(cap.io, createStyle(level)));
  return { cap, reply };
}

describe('ReplyRenderer', () => {
  it('writes text as it arrives, bold cyan for CMD: lines even when split across chunks', () => {
    const { cap, reply } = setup();
    for (const c of ['Try this:\nC', 'MD', ': ls -', 'la\nthen CMD: no\n']) reply.text(c);
    reply.finish();
    // With colour on, a CMD: line is painted a word at a time, so chunking never shows.
    const cyan = (s: string) => `\x1b[1m\x1b[36m${s}\x1b[39m\x1b[22m`;
    expect(cap.stdout).toBe(`Try this:\n${cyan('CMD: ')}${cyan('ls ')}${cyan('-la')}\nthen CMD: no\n`);
  });

  // Text reaches the output by the end of the job that brought it (one write per network read, not
  // one per delta): the tests look after that job's microtasks.
  it('without colour writes the text byte for byte as it arrives', async () => {
    const { cap, reply } = setup(0, 20);
    const chunks = ['# Title\nTry **this**:\nC', 'MD', ': ls -', 'la\n- a list item longer than the twenty columns', '\n```ts\nconst a = 1;\n```'];
    const seen: string[] = [];
    for (const c of chunks) {
      reply.text(c);
      await endOfJob();
      seen.push(cap.stdout);
    }
    expect(seen[0]).toBe('# Title\nTry **this**:\n');
    expect(seen[2]).toBe('# Title\nTry **this**:\nCMD: ls -');
    reply.finish();
    expect(cap.stdout).toBe(`${chunks.join('')}\n`);
  });

  it('the deltas of one network read reach the output as one write, before the next job', async () => {
    const writes: string[][] = [];
    const output = new Writable({
      writev(chunks, cb) {
        writes.push(chunks.map((c) => String(c.chunk)));
        cb();
      },
    });
    const io: Io = { input: new PassThrough(), output, errors: output, isTTY: false, columns: () => 80 };
    const reply = new ReplyRenderer(new Renderer(io, createStyle(0)));
    for (const c of ['one ', 'two\n', 'three ', 'four']) reply.text(c);
    expect(writes).toEqual([]);
    await endOfJob();
    expect(writes.map((w) => w.join(''))).toEqual(['one two\nthree four']);
    reply.text(' five');
    reply.finish();
    expect(writes.map((w) => w.join(''))).toEqual(['one two\nthree four', ' five\n']);
  });

  it('with colour renders markdown, wrapped to the terminal width', () => {
    const { cap, reply } = setup(1, 30);
    for (const c of ['# Ti', 'tle\n\n- a list item longer than ', 'the thirty columns of this terminal\n']) reply.text(c);
    reply.finish();
    expect(cap.stdout).toContain('\x1b[1m\x1b[4mTi');
    expect(stripAnsi(cap.stdout)).toBe('Title\n\n• a list item longer than the\n  thirty columns of this\n  terminal\n');
  });

  it('finish() completes the last line, held back or not', async () => {
    const { cap, reply } = setup(1);
    reply.text('see **this');
    await endOfJob();
    expect(cap.stdout).toBe('see');
    reply.finish();
    expect(cap.stdout).toBe('see **this\n');
  });

  it('a line that only starts like CMD: is plain text', () => {
    const { cap, reply } = setup();
    reply.text('CMD:ls\nCM');
    reply.finish();
    expect(cap.stdout).toBe('CMD:ls\nCM\n');
  });

  it('neutralises escape sequences from the model', () => {
    const { cap, reply } = setup(0);
    reply.text('title\x1b]0;pwned\x07 clear\x1b[2J done \x9b31m');
    reply.finish();
    expect(cap.stdout).not.toMatch(/[\x1b\x07\x9b]/);
    expect(cap.stdout).toBe('title^[]0;pwned^G clear^[[2J done \\x9b31m\n');
  });

  it('shows reasoning dim and separates it from the answer', () => {
    const { cap, reply } = setup();
    reply.reasoning('thinking...');
    reply.text('answer');
    reply.finish();
    expect(cap.stdout).toBe('\x1b[2mthinking...\x1b[22m\n\nanswer\n');
  });

  it('reasoning arriving mid-line first completes the line of text', () => {
    const { cap, reply } = setup();
    reply.text('half a li');
    reply.reasoning('hmm');
    reply.finish();
    expect(cap.stdout).toBe('half a li\n\x1b[2mhmm\x1b[22m\n');
  });
});
