// What aish tells the terminal it runs in, read from the raw bytes it writes to a real pty: OSC 133
// marks around the prompt and each command's block, OSC 7 with the directory, the title (OSC 2),
// none of it into a pipe or with `terminal.integration: false`; and the frame styles.

import os from 'node:os';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HeadlessTerm } from '../support/headless-term.js';
import { loopbackHome } from '../support/loopback-home.js';
import type { PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';

const lb = loopbackHome();

const PROMPT = '[aish:fast]> ';
const A = '\x1b]133;A\x07';
const B = '\x1b]133;B\x07';
const C = '\x1b]133;C\x07';
const D = (status: number) => `\x1b]133;D;${status}\x07`;
/** The parts that are not found in `raw` in this order, each after the one before: [] when all are. */
function outOfOrder(raw: string, parts: string[]): string[] {
  let at = 0;
  const missing: string[] = [];
  for (const part of parts) {
    const i = raw.indexOf(part, at);
    if (i === -1) missing.push(part);
    else at = i + part.length;
  }
  return missing;
}
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function config(extra: Record<string, unknown> = {}): void {
  lb.home.writeConfig({ models: { fast: { endpoint: lb.server.url, model: 'm' } }, ...extra });
}

/** The program's prompt, drawn over the one the front drew before the program was loaded. */
async function atPrompt(t: PtySession): Promise<void> {
  await t.waitFor(/\[aish:fast\]> [\s\S]*\[aish:fast\]> /);
}

/**
 * aish on a pty at its prompt, and a command run until the next prompt (typing turns the prompt's
 * `>` into `$`, so `>` shows again only then): the raw bytes before it and from it on.
 */
async function runAt(command: string) {
  const t = lb.pty();
  await atPrompt(t);
  const start = t.raw.length;
  const from = t.mark();
  t.line(command);
  await t.waitFor(PROMPT, { from });
  return { t, before: t.raw.slice(0, start), raw: t.raw.slice(start) };
}

describe('terminal integration (on by default)', () => {
  it('marks the prompt and the command block, in order, with the exit status; OSC 7 and the title', async () => {
    config();
    const { before, raw } = await runAt("sh -c 'echo hi; exit 3'");
    // At start: the directory, encoded, and the title to it; the prompt between A and B.
    expect(before).toContain(`\x1b]7;file://${encodeURIComponent(os.hostname())}${lb.home.cwd}\x07`);
    expect(before).toContain('\x1b]2;~/work\x07');
    expect(before).toMatch(new RegExp(`${esc(A)}(?:\\x1b\\[[0-9;]*m)*\\[aish:fast\\](?:\\x1b\\[[0-9;]*m)*[>$?:] ${esc(B)}`));
    // The block: C and the command as the title, the frame and output, then D with the status.
    expect(outOfOrder(raw, [C, "\x1b]2;sh -c 'echo hi; exit 3'\x07", '╭─ sh -c', 'hi', '╰─ exit 3', D(3), A])).toEqual([]);
    // Back at the prompt: the title is the directory again; OSC 7 only when it changed.
    expect(raw.slice(raw.indexOf(D(3)))).toContain('\x1b]2;~/work\x07');
    expect(raw).not.toContain('\x1b]7;');
  });

  it('a change of directory is reported, percent-encoded', async () => {
    config();
    mkdirSync(path.join(lb.home.cwd, 'a b é'));
    const { raw } = await runAt("cd 'a b é' && pwd");
    expect(raw).toContain(`\x1b]7;file://${encodeURIComponent(os.hostname())}${lb.home.cwd}/a%20b%20%C3%A9\x07`);
    expect(raw).toContain('\x1b]2;~/work/a b é\x07');
  });

  it('the marks take no column: a line longer than the terminal wraps where the screen wraps it', async () => {
    config();
    const t = lb.pty({ cols: 30 });
    await atPrompt(t);
    t.write('echo 0123456789abcdefghijklmnopqrstuvwxyz');
    await t.waitFor('xyz');
    // To the start and a key typed there: the cursor and the redraw of both rows are placed by
    // the columns the editor counts, so a mark counted as text would put them elsewhere.
    t.write('\x01X');
    await t.waitFor('Xecho');
    const screen = new HeadlessTerm(30, 24);
    await screen.write(t.raw);
    const rows = screen.lines();
    // `Xecho` is no command: the sign says the model.
    const at = rows.indexOf('[aish:fast]? Xecho 0123456789a');
    expect(at).toBeGreaterThan(0);
    expect(rows.slice(at)).toEqual(['[aish:fast]? Xecho 0123456789a', 'bcdefghijklmnopqrstuvwxyz']);
    expect(screen.cursor()).toEqual({ row: at, column: 14 });
  });

  it('terminal.title false: the marks without a title', async () => {
    config({ terminal: { title: false } });
    const { t } = await runAt('echo hi');
    expect(t.raw).toContain(A);
    expect(t.raw).toContain(D(0));
    expect(t.raw).not.toContain('\x1b]2;');
  });

  it('terminal.integration false: no marks, no OSC 7, no title', async () => {
    config({ terminal: { integration: false } });
    const { t } = await runAt('echo hi');
    expect(t.raw).not.toMatch(/\x1b\](133|7|2);/);
  });

  it('never into a pipe', async () => {
    config();
    const r = await runAish({ stdin: 'echo hi\ncd /\n', cwd: lb.home.cwd, env: lb.home.env });
    expect(r.stdout).toContain('hi');
    expect(r.stdout + r.stderr).not.toMatch(/\x1b\](133|7|2);/);
  });
});

describe('shell.frame', () => {
  it('compact: no top rule; one dim line only for a failure, none for a quick success; the marks the same', async () => {
    config({ shell: { frame: 'compact' } });
    const { t, raw } = await runAt('echo quick');
    expect(raw).not.toContain('╭─');
    expect(raw).not.toContain('╰─');
    expect(outOfOrder(raw, [C, '\x1b]2;echo quick\x07', 'quick\r', D(0)])).toEqual([]);
    const from = t.mark();
    t.line("sh -c 'exit 4'");
    await t.waitFor(PROMPT, { from });
    expect(t.text.slice(from)).toMatch(/╰─ exit 4 · \d+\.\ds\n/);
    expect(t.text.slice(from)).not.toContain('╭─');
    expect(t.raw).toContain(D(4));
  });

  it('compact: a command that ran longer than a second gets its line, with the time', async () => {
    config({ shell: { frame: 'compact' } });
    const { raw } = await runAt('sleep 1.2; echo slept');
    expect(raw).toMatch(/╰─ exit 0 · 1\.\ds/);
  });

  it('none: no rules at all, the marks the same', async () => {
    config({ shell: { frame: 'none' } });
    const { raw } = await runAt("sh -c 'echo out; exit 5'");
    expect(raw).not.toMatch(/[╭╰]─/);
    expect(raw).toContain(D(5));
  });
});
