// One history with the shell's (docs/shell.md, "History"), end to end: the built program on a real
// pseudo-terminal with real bash and zsh keeping a history file. Up reaches what the shell's
// history held before aish started; a line holding a secret is recalled whole during the session
// but reaches neither the shell's history file nor aish's input history unredacted; a line typed
// with a leading space reaches neither.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { fakeSecrets } from '../support/fake-secrets.js';
import { loopbackHome } from '../support/loopback-home.js';
import { KEY, PtySession } from '../support/pty.js';
import { needs } from '../support/needs.js';

const setup = loopbackHome();
const PROMPT = /\[aish:fast\]> $/;
const bearer = fakeSecrets().find((s) => s.name === 'Authorization: Bearer header')!;

const SHELLS = {
  bash: { rc: '.bashrc', file: '.bash_history', setup: 'HISTFILE=~/.bash_history\nHISTSIZE=1000\nshopt -s histappend\n', old: 'echo from-the-shell-history\n' },
  zsh: { rc: '.zshrc', file: '.zsh_history', setup: 'HISTFILE=~/.zsh_history\nHISTSIZE=1000\nSAVEHIST=1000\nsetopt extended_history\n', old: ': 1700000000:0;echo from-the-shell-history\n' },
} as const;

/** Types `line` (or keys ending in Enter) and waits for its exec frame to close; returns what came after. */
async function typed(t: PtySession, keys: string): Promise<string> {
  await t.waitFor(PROMPT);
  const mark = t.mark();
  t.write(keys.endsWith('\r') ? keys : `${keys}\r`);
  return t.waitFor(/╰─ exit \d+[^\n]*\n[\s\S]*\[aish:fast\]> $/, { from: mark });
}

for (const shell of ['bash', 'zsh'] as const) needs(`/bin/${shell}`).describe(`${shell}`, () => {
  it('Up reaches the shell\'s history; a secret is recalled whole but reaches no history file unredacted', async () => {
    const { home: h } = setup;
    const s = SHELLS[shell];
    writeFileSync(path.join(h.home, s.rc), s.setup);
    writeFileSync(path.join(h.home, s.file), s.old);
    const t = PtySession.start({ cwd: h.cwd, env: { ...h.env, SHELL: `/bin/${shell}` }, cols: 160, rows: 30 });
    try {
      // The session has started and said where its history is by the time a line has run in it.
      await typed(t, 'echo ready');
      // Up: aish's own line first, then the shell's.
      expect(await typed(t, `${KEY.up}${KEY.up}\r`)).toContain('\nfrom-the-shell-history\n');

      const said = `curl -H Authorization: Bearer ${bearer.value} https://api.example.org/v1`;
      const line = `echo "${said}" | wc -c`;
      expect(await typed(t, line)).toContain(`\n${said.length + 1}\n`);
      // Recalled whole during the session: the shell counts the same characters again.
      await t.waitFor(PROMPT);
      let mark = t.mark();
      t.write(KEY.up);
      await t.waitFor(bearer.value, { from: mark });
      mark = t.mark();
      t.write('\r');
      await t.waitFor(new RegExp(`\\n${said.length + 1}\\n[\\s\\S]*╰─ exit 0`), { from: mark });

      expect(await typed(t, ' echo private-line')).toContain('\nprivate-line\n');
      await typed(t, 'echo last-line');
      await t.waitFor(PROMPT);
      t.line('exit');
      await t.exited;
    } finally {
      t.kill();
    }

    const shellHistory = readFileSync(path.join(h.home, s.file), 'utf8');
    const inputHistory = readFileSync(path.join(h.stateDir, 'input_history'), 'utf8');
    // The shell's history file holds no trace of the secret line (kept out of it whole); aish's holds it redacted.
    expect(shellHistory).not.toContain('Authorization: Bearer');
    expect(inputHistory).toContain(`echo "curl -H Authorization: Bearer ${bearer.redacted} https://api.example.org/v1" | wc -c`);
    for (const text of [shellHistory, inputHistory]) {
      expect(text).not.toContain(bearer.value);
      expect(text).not.toContain('private-line');
      expect(text).toContain('echo last-line');
    }
    expect(shellHistory).toContain('echo from-the-shell-history');
  });
});
