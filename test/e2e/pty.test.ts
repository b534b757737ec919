// The real program under a pseudo-terminal: typing, Ctrl-C, Ctrl-D, Tab, history and programs
// that need the terminal, asserted on what a person would see.

import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { KEY, PtySession } from '../support/pty.js';
import { needs } from '../support/needs.js';
import { runningWith } from '../support/processes.js';

let h: AishHome;
let term: PtySession | undefined;
beforeEach(() => {
  h = makeHome();
});
afterEach(() => {
  term?.kill();
  term = undefined;
  h.cleanup();
});

const PROMPT = '[aish:fast]> ';
const start = () => (term = PtySession.start({ cwd: h.cwd, env: h.env }));

describe('on a terminal', () => {
  it('shows the prompt and exits 0 on Ctrl-D', async () => {
    const t = start();
    await t.waitFor(PROMPT);
    t.write(KEY.ctrlD);
    expect((await t.exited).exitCode).toBe(0);
  });

  it('Ctrl-C at an idle prompt clears the line and keeps running', async () => {
    const t = start();
    await t.waitFor(PROMPT);
    t.write('echo half-typed');
    await t.waitFor('half-typed');
    t.write(KEY.ctrlC);
    await t.waitFor('^C');
    const mark = t.mark();
    t.line('echo fresh');
    const after = await t.waitFor(/exit 0/, { from: mark });
    expect(after).toContain('fresh');
    expect(after).not.toContain('half-typed');
  });

  it('Ctrl-C stops a running command and returns to the prompt', async () => {
    const t = start();
    await t.waitFor(PROMPT);
    // A duration no other process on the machine sleeps for, to find this sleep by its command line.
    const seconds = `30.${process.pid}${Date.now() % 100000}`;
    t.line(`echo started; sleep ${seconds}; echo not-reached`);
    await t.waitFor(/\nstarted\r?\n/);
    // In the instant between two commands of a line, Ctrl-C can reach the shell as it starts the
    // next one, which then runs anyway (as in any terminal); a person presses it once `sleep` runs.
    await runningWith(seconds);
    const mark = t.mark();
    t.write(KEY.ctrlC);
    const out = await t.waitFor(/exit 130[\s\S]*\[aish:fast\]> /, { from: mark });
    expect(out).not.toContain('\nnot-reached');
    t.line('echo alive');
    await t.waitFor(/\nalive\r?\n/, { from: mark });
  });

  it(':quit exits', async () => {
    const t = start();
    await t.waitFor(PROMPT);
    t.line(':q');
    expect((await t.exited).exitCode).toBe(0);
  });

  it('Tab completes meta commands from the command table', async () => {
    const t = start();
    await t.waitFor(PROMPT);
    t.write(':mode');
    t.write(KEY.tab);
    await t.waitFor(':model');
    t.write('\r');
    await t.waitFor(/fast: local at http/);
  });

  it('a trailing backslash asks for a continuation line', async () => {
    const t = start();
    await t.waitFor(PROMPT);
    t.line('echo one \\');
    await t.waitFor('... ');
    t.line('two');
    await t.waitFor(/\none two\r?\n/);
  });

  it('lines typed ahead in one read all run, in order', async () => {
    const t = start();
    await t.waitFor(PROMPT);
    t.write('echo ahead-one\recho ahead-two\r');
    const out = await t.waitFor(/╭─ echo ahead-two[\s\S]*exit 0/);
    expect(out).toMatch(/╭─ echo ahead-one[^\n]*\nahead-one\n[\s\S]*╭─ echo ahead-two[^\n]*\nahead-two\n/);
  });

  it('keeps input history across sessions in a 0600 file', async () => {
    const t = start();
    await t.waitFor(PROMPT);
    t.line('echo remembered-line');
    await t.waitFor(/exit 0[\s\S]*\[aish:fast\]> /);
    t.write(KEY.ctrlD);
    await t.exited;
    const file = path.join(h.stateDir, 'input_history');
    expect(readFileSync(file, 'utf8')).toContain('echo remembered-line');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const t2 = (term = PtySession.start({ cwd: h.cwd, env: h.env }));
    await t2.waitFor(PROMPT);
    const mark = t2.mark();
    t2.write(KEY.up);
    await t2.waitFor('echo remembered-line', { from: mark });
  });

  needs('less').it('interactive programs get the terminal (less shows a file and quits on q)', async () => {
    writeFileSync(path.join(h.cwd, 'notes.txt'), 'line from the file\n');
    const t = start();
    await t.waitFor(PROMPT);
    t.line('less notes.txt');
    await t.waitFor('line from the file');
    t.write('q');
    await t.waitFor(/exit 0[\s\S]*\[aish:fast\]> /);
  });

  it('colour is on by default and NO_COLOR turns it off', async () => {
    const t = start();
    await t.waitFor(PROMPT);
    expect(t.raw).toContain('\x1b[');
    t.kill();
    const plain = (term = PtySession.start({ cwd: h.cwd, env: { ...h.env, NO_COLOR: '1' } }));
    await plain.waitFor(PROMPT);
    plain.line('false');
    await plain.waitFor('exit 1');
    expect(plain.raw).not.toMatch(/\x1b\[(1|2|22|31|39)m/);
  });
});
