// The terminal experience as a person sees it: paste, escape sequences from the model, typeahead.

import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loopbackHome } from '../support/loopback-home.js';
import { textReply } from '../support/model-server.js';
import { KEY } from '../support/pty.js';

const lb = loopbackHome();

const PROMPT = '[aish:fast]> ';

describe('on a terminal', () => {
  it('a bracketed paste of several lines is one input (a traceback becomes one question)', async () => {
    lb.server.enqueue(textReply(['That is a ValueError.']));
    const t = lb.pty();
    await t.waitFor(PROMPT);
    expect(t.raw).toContain('\x1b[?2004h');
    t.write('\x1b[200~Traceback (most recent call last):\n  File "x.py", line 1\nls: ValueError: boom\x1b[201~');
    t.write(KEY.enter);
    await t.waitFor('That is a ValueError.');
    expect(lb.server.requests).toHaveLength(1);
    expect(lb.server.requests[0]!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Traceback (most recent call last):\n  File "x.py", line 1\nls: ValueError: boom',
    });
    expect(t.text).not.toContain('╭─ ls');
  });

  it('a reply with raw escape sequences cannot move the cursor, clear the screen or set the title', async () => {
    const evil = 'safe\x1b[2J\x1b[H\x1b]0;owned\x07\x1b[10A\x1b[31mred\x9b2J end';
    lb.server.enqueue(textReply([evil]));
    const t = lb.pty();
    await t.waitFor(PROMPT);
    const mark = t.raw.length;
    t.line('show me something');
    await t.waitFor(' end');
    const reply = t.raw.slice(mark);
    expect(reply).not.toContain('\x1b[2J');
    expect(reply).not.toContain('\x1b]0;');
    expect(reply).not.toContain('\x1b[10A');
    expect(reply).not.toContain('\x1b[H');
    expect(reply).not.toContain('\x9b');
    expect(t.text).toContain('safe^[[2J^[[H^[]0;owned^G^[[10A^[[31mred\\x9b2J end');
  });

  it('markdown is rendered for the terminal: heading, emphasis, list, highlighted code, CMD: line', async () => {
    lb.server.enqueue(textReply(['# Plan\n\nUse **bold** ideas.\n- first\n- sec', 'ond\n```ts\nconst x = 1;\n```\nCMD: ls -la\n']));
    const t = lb.pty({ cols: 60 });
    await t.waitFor(PROMPT);
    const mark = t.raw.length;
    t.line('write a plan');
    await t.waitFor("execute 'ls -la'? [y/N/e/p] ");
    const screen = t.text.slice(t.text.indexOf('write a plan'));
    expect(screen).toMatch(/[\r\n]Plan\n/);
    expect(screen).not.toContain('# Plan');
    expect(screen).toContain('Use bold ideas.');
    expect(screen).toContain('• first\n• second\n');
    expect(screen).toContain('  const x = 1;');
    const raw = t.raw.slice(mark);
    expect(raw).toContain('\x1b[1m\x1b[4mPlan');
    expect(raw).toMatch(/\x1b\[35mconst\x1b\[39m/);
    expect(raw).toContain('\x1b[1m\x1b[36mCMD: ');
    t.line('n');
  });

  it('bracketed paste is switched off while a command runs', async () => {
    const t = lb.pty();
    await t.waitFor(PROMPT);
    const mark = t.raw.length;
    t.line('echo running');
    await t.waitFor(/exit 0/);
    const during = t.raw.slice(mark);
    expect(during.indexOf('\x1b[?2004l')).toBeGreaterThanOrEqual(0);
    expect(during.indexOf('\x1b[?2004l')).toBeLessThan(during.indexOf('\nrunning\r'));
  });

  // The first prompt is drawn before the program is loaded (src/front.ts); keys typed at it wait
  // in the terminal, in raw mode, for the line editor.
  it('keys typed at the first prompt, before the program has loaded, are read as typed, Ctrl-C included', async () => {
    const t = lb.pty();
    await t.waitFor(PROMPT);
    // Written at once: a stray line, Ctrl-C (clears it at the prompt, never SIGINT), then a command.
    t.write('never run');
    t.write(KEY.ctrlC);
    t.line('echo early-$((6*7))');
    await t.waitFor('early-42');
    await t.waitFor(/exit 0[\s\S]*\[aish:fast\]> $/);
    const screen = t.text;
    expect(screen.match(/:help for commands/g)).toHaveLength(1);
    expect(screen).not.toContain('never run:');
    expect(screen).not.toMatch(/command not found|not found/);
    t.write(KEY.ctrlD);
    expect(await t.exited).toMatchObject({ exitCode: 0 });
  });

  it('Ctrl-Z at the idle prompt does nothing: aish is not stopped, and the line stays', async () => {
    const t = lb.pty();
    await t.waitFor(PROMPT);
    t.write('echo still');
    t.write('\x1a');
    t.write('-here\r');
    await t.waitFor(/╭─ echo still-here[^\n]*\nstill-here\n╰─ exit 0/);
  });

  it('stopped from outside and continued, aish takes the terminal back: its keys work again', async () => {
    const t = lb.pty();
    await t.waitFor(PROMPT);
    // The line editor has the keys (not the first prompt, drawn before aish has loaded).
    t.write('x');
    await t.waitFor('[aish:fast]? x');
    const typed = t.mark();
    t.write('\x15');
    // The line is empty again before the terminal is changed: a Ctrl-U still unread when it goes
    // cooked would be the terminal's to take, and the `x` would come back with the line.
    await t.waitFor(PROMPT, { from: typed });
    const tty = readlinkSync(`/proc/${t.pid}/fd/0`);
    // aish leads its own session here, so the kernel drops a SIGTSTP (an orphaned process group
    // is never stopped): what matters is what a job-control shell does meanwhile, putting the
    // terminal back to cooked mode, and the SIGCONT after it.
    process.kill(t.pid, 'SIGTSTP');
    execFileSync('stty', ['-F', tty, 'sane']);
    const mark = t.mark();
    process.kill(t.pid, 'SIGCONT');
    // The line is drawn again once aish has the terminal back.
    await t.waitFor(PROMPT, { from: mark });
    // In raw mode each key reaches the line editor, which draws the line with its route sign;
    // cooked, the terminal would hold the keys until Enter and echo them itself.
    t.write('echo back');
    await t.waitFor('[aish:fast]$ echo back', { from: mark });
    t.write('\r');
    await t.waitFor(/╭─ echo back[^\n]*\nback\n╰─ exit 0/, { from: mark });
  });
});
