// Tab on a shell line when the person's .zshrc runs compinit (docs/shell.md "Tab completion"): the
// built program on a real pseudo-terminal with real zsh in a temporary HOME, offering what zsh's
// own Tab would, descriptions listed beside the candidates.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { needs } from '../support/needs.js';
import { KEY, PtySession, enterThenFrame as enter, typeThenTab as tab } from '../support/pty.js';

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

const PROMPT = /\[aish:fast\]> $/;

// The completion here is the rc file's own and runs no program: Tab's half second is then the
// wiring's, not git's under a loaded machine (git's branches are asked of the session in
// test/shell/zsh-compsys.test.ts, without that budget).
const RC = [
  'autoload -Uz compinit',
  'compinit -u -d "$HOME/.zcompdump"',
  'deploy() { echo "deploying to $1"; }',
  "_deploy() { local -a stages; stages=('staging:the stage before release' 'production:what people use'); _describe stage stages; }",
  'compdef _deploy deploy',
  '',
].join('\n');

needs('/bin/zsh').it('offers what the person\'s compsys offers, with descriptions, and only that', async () => {
  mkdirSync(path.join(h.cwd, 'stuff'));
  writeFileSync(path.join(h.home, '.zshrc'), RC);
  const t = (term = PtySession.start({ cwd: h.cwd, env: { ...h.env, SHELL: '/bin/zsh' }, cols: 100, rows: 30 }));
  // The shell starts behind the first prompt; a command waits for it, as Tab does not.
  await t.waitFor(PROMPT);
  t.line('echo started');
  await t.waitFor(/╰─ exit 0[^\n]*\n/);

  const listed = await tab(t, 'deploy ', /production +-- what people use\r?\n\r?staging +-- the stage before release/);
  expect(listed).not.toContain('stuff');
  await tab(t, 's', 'deploy staging ', true);
  expect(await enter(t)).toContain('deploying to staging');
  expect(t.raw).not.toContain('compinit');
});
