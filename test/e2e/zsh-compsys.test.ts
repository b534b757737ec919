// Tab on a shell line when the person's .zshrc runs compinit (docs/shell.md "Tab completion"): the
// built program on a real pseudo-terminal with real zsh in a temporary HOME and git repository,
// offering what zsh's own Tab would: branches, options with their descriptions.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { needs } from '../support/needs.js';
import { KEY, PtySession } from '../support/pty.js';

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

/** Types `text` (at a new prompt, unless it is `more` of the line), then Tab once it is echoed, and waits for `shown`. */
async function tab(t: PtySession, text: string, shown: RegExp | string, more = false): Promise<string> {
  if (!more) await t.waitFor(PROMPT);
  const mark = t.mark();
  t.write(text);
  await t.waitFor(text, { from: mark });
  t.write(KEY.tab);
  return t.waitFor(shown, { from: mark });
}

/** Presses Enter on the completed line and waits for its exec frame to close. */
async function enter(t: PtySession): Promise<string> {
  const mark = t.mark();
  t.write(KEY.enter);
  return t.waitFor(/╰─ exit \d+[^\n]*\n/, { from: mark });
}

needs('/bin/zsh', 'git').it('offers git\'s branches and options with their descriptions from the person\'s compsys', async () => {
  const repo = path.join(h.cwd, 'repo');
  mkdirSync(path.join(repo, 'docs'), { recursive: true });
  writeFileSync(path.join(repo, 'docs', 'guide.txt'), '');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: repo, env: h.env });
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'first');
  git('branch', 'feature-one');
  git('branch', 'feature-two');
  writeFileSync(path.join(h.home, '.zshrc'), 'autoload -Uz compinit\ncompinit -u -d "$HOME/.zcompdump"\n');
  const t = (term = PtySession.start({ cwd: repo, env: { ...h.env, SHELL: '/bin/zsh' }, cols: 100, rows: 30 }));
  // The shell starts behind the first prompt; a command waits for it, as Tab does not.
  await t.waitFor(PROMPT);
  t.line('echo started');
  await t.waitFor(/╰─ exit 0[^\n]*\n/);

  await tab(t, 'git checkout f', 'git checkout feature-');
  const listed = await tab(t, '', /feature-one\s+feature-two/, true);
  expect(listed).not.toContain('docs');
  await tab(t, 'o', 'one ', true);
  expect(await enter(t)).toMatch(/Switched to branch 'feature-one'/);

  const options = await tab(t, 'git commit --a', /--amend +-- [^\n]*amend/);
  expect(options).toMatch(/--all +-- [^\n]*\n/);
  expect(t.raw).not.toContain('compinit');
});
