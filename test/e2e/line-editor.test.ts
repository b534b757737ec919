// The line editor end to end (docs/usage.md "The line editor"): the built program on a real
// pseudo-terminal with real bash and zsh reading real rc files, typed at as a person types.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { PtySession } from '../support/pty.js';
import { needs } from '../support/needs.js';

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

function start(shell: 'bash' | 'zsh', rc = ''): PtySession {
  writeFileSync(path.join(h.home, shell === 'zsh' ? '.zshrc' : '.bashrc'), `${rc}\n`);
  term = PtySession.start({ cwd: h.cwd, env: { ...h.env, SHELL: `/bin/${shell}` }, cols: 100, rows: 30 });
  return term;
}

/** Waits for the exec frame of what was entered after `from` to close; returns the text since. */
function frame(t: PtySession, from: number): Promise<string> {
  return t.waitFor(/╰─ exit \d+[^\n]*\n/, { from });
}

for (const shell of ['bash', 'zsh'] as const) needs(`/bin/${shell}`).describe(`${shell}`, () => {
  it('a for loop typed over three lines runs as one command, and is one history entry', async () => {
    const t = start(shell);
    await t.waitFor('[aish:fast]> ');
    const mark = t.mark();
    t.write('for i in 1 2; do\r');
    await t.waitFor('\n... ', { from: mark });
    t.write('echo item-$i\r');
    await t.waitFor(/\n\.\.\. [^\n]*\n\.\.\. /, { from: mark });
    t.write('done\r');
    const out = await frame(t, mark);
    expect(out).toMatch(/item-1\r?\nitem-2/);
    expect(out).not.toContain('wanted more input');
    // Up brings back the whole of it, ready to run again.
    const again = t.mark();
    t.write('\x1b[A');
    await t.waitFor('... done', { from: again });
    t.write('\r');
    expect(await frame(t, again)).toMatch(/item-1\r?\nitem-2/);
  });

  it('a here-document is read to its end word', async () => {
    const t = start(shell);
    await t.waitFor('[aish:fast]> ');
    const mark = t.mark();
    t.write('cat <<EOF\r');
    await t.waitFor('\n... ', { from: mark });
    t.write('first line\r');
    t.write('EOF\r');
    expect(await frame(t, mark)).toMatch(/\nfirst line\r?\n╰─ exit 0/);
  });

  it('an open quote gets a continuation line; Ctrl-C cancels all of it', async () => {
    const t = start(shell);
    await t.waitFor('[aish:fast]> ');
    const mark = t.mark();
    t.write('echo "one\r');
    await t.waitFor('\n... ', { from: mark });
    t.write('two\x03');
    t.write('echo after\r');
    const out = await frame(t, mark);
    expect(out).toContain('╭─ echo after');
    expect(out).not.toContain('╭─ echo "one');
  });

  it('the route sign follows the line: a function of the rc file is the shell, a question the model', async () => {
    const t = start(shell, 'greetme() { echo "hi $1"; }');
    await t.waitFor('[aish:fast]> ');
    t.write('greetme please');
    await t.waitFor('[aish:fast]$ greetme please');
    t.write('\x15why is the sky blue');
    await t.waitFor('[aish:fast]? why is the sky blue');
    t.write('\x15:help');
    await t.waitFor('[aish:fast]: :help');
    t.write('\x15');
    await t.waitFor(/\[aish:fast\]> $/);
  });
});

describe('vi mode', () => {
  it('set -o vi typed in the session makes the next line vi (bash)', async () => {
    const t = start('bash');
    await t.waitFor('[aish:fast]> ');
    let mark = t.mark();
    t.write('set -o vi\r');
    await frame(t, mark);
    await t.waitFor(/\[aish:fast\]> $/, { from: mark });
    mark = t.mark();
    // Escape, then `0w` to the second word and `cw` to change it, then `A` to append: vi's keys.
    t.write('echo one two');
    await t.waitFor('echo one two', { from: mark });
    // Escape and the next key in one read, as a quick typist sends them (no wait for Node's
    // escape timeout): Escape, then that key.
    t.write('\x1b0wcwONE\x1bA.\r');
    expect(await frame(t, mark)).toMatch(/╭─ echo ONE two\.[^\n]*\nONE two\.\r?\n/);
  });

  needs('/bin/zsh').it('bindkey -v in .zshrc makes the line vi from the start (zsh)', async () => {
    const t = start('zsh', 'bindkey -v');
    await t.waitFor('[aish:fast]> ');
    // A prompt after the shell has started is in its mode from the first key.
    let mark = t.mark();
    t.write('true\r');
    await frame(t, mark);
    await t.waitFor(/\[aish:fast\]> $/, { from: mark });
    mark = t.mark();
    t.write('echo abc');
    await t.waitFor('echo abc', { from: mark });
    t.write('\x1bxx\r');
    expect(await frame(t, mark)).toMatch(/╭─ echo a [^\n]*\na\r?\n/);
  });
});

describe('keys people know', () => {
  it('M-. brings the last word of the previous line; C-w then C-y yanks that kill', async () => {
    const t = start('bash');
    await t.waitFor('[aish:fast]> ');
    let mark = t.mark();
    t.write('echo first-arg\r');
    await frame(t, mark);
    mark = t.mark();
    t.write('echo \x1b.');
    await t.waitFor('echo first-arg', { from: mark });
    t.write(' zz\x17\x17\x19\r');
    expect(await frame(t, mark)).toMatch(/╭─ echo first-arg zz[^\n]*\nfirst-arg zz/);
  });
});
