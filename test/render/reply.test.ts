import { describe, expect, it } from 'vitest';
import { Renderer } from '../../src/render/renderer.js';
import { ReplyRenderer } from '../../src/render/reply.js';
import { createStyle } from '../../src/render/style.js';
import { captureIo } from '../support/capture-io.js';

function setup(level: 0 | 1 = 1) {
  const cap = captureIo();
  const reply = new ReplyRenderer(new Renderer(cap.io, createStyle(level)));
  return { cap, reply };
}

describe('ReplyRenderer', () => {
  it('writes text as it arrives, bold cyan for CMD: lines even when split across chunks', () => {
    const { cap, reply } = setup();
    for (const c of ['Try this:\nC', 'MD', ': ls -', 'la\nthen CMD: no\n']) reply.text(c);
    reply.finish();
    expect(cap.stdout).toBe('Try this:\n\x1b[1m\x1b[36mCMD: ls -\x1b[39m\x1b[22m\x1b[1m\x1b[36mla\x1b[39m\x1b[22m\nthen CMD: no\n');
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
    expect(cap.stdout).toBe('title^[]0;pwned^G clear^[[2J done <9b>31m\n');
  });

  it('shows reasoning dim and separates it from the answer', () => {
    const { cap, reply } = setup();
    reply.reasoning('thinking...');
    reply.text('answer');
    reply.finish();
    expect(cap.stdout).toBe('\x1b[2mthinking...\x1b[22m\n\nanswer\n');
  });
});
