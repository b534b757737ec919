// Tab in a zsh session whose .zshrc ran compinit: the person's own completion system answers
// (branches, subcommands, options with descriptions), asked of real zsh on a real
// pseudo-terminal in a temporary git repository; without compinit, names and files as before.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseCompletion } from '../../src/shell/completion-answer.js';
import type { ShellSession } from '../../src/shell/session.js';
import { screenText } from '../../src/shell/screen-text.js';
import { needs } from '../support/needs.js';
import { testSession } from '../support/session-shell.js';

let home: string;
let sessions: ShellSession[] = [];

beforeEach(() => {
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'aish-compsys-')));
});
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  sessions = [];
  rmSync(home, { recursive: true, force: true });
});

// `-u`: the temporary HOME is not the user's, and compinit would warn about it; `-d` keeps its
// dump file inside the HOME.
const COMPINIT = 'autoload -Uz compinit\ncompinit -u -d "$HOME/.zcompdump"\n';

function start(rc: string) {
  writeFileSync(path.join(home, '.zshrc'), rc);
  const session = testSession('zsh', home);
  sessions.push(session);
  const run = async (command: string) => {
    let raw = '';
    await session.run(command, { onOutput: (t) => (raw += t), inputEnds: true });
    return { raw, text: (await screenText(raw, 80)).text };
  };
  return { session, run };
}

/** Tab in the session's shell: the parsed answer for `line`, asked as the REPL asks it. */
async function complete(session: ShellSession, line: string, timeoutMs = 5000) {
  const payload = await session.queryIdle('complete', line, timeoutMs);
  return payload === null ? null : parseCompletion(payload);
}

function gitRepo(): string {
  const repo = path.join(home, 'repo');
  mkdirSync(repo);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: repo, env: { ...process.env, HOME: home } });
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'first');
  git('branch', 'feature-one');
  git('branch', 'fix-two');
  return repo;
}

needs('zsh', 'git').describe('zsh completion through compsys', () => {
  it('offers the branches after git checkout, git\'s subcommands and options with their descriptions', async () => {
    gitRepo();
    const { session, run } = start(COMPINIT);
    await run('cd repo');
    const branches = await complete(session, 'git checkout f');
    expect(branches?.word).toBe('f');
    expect(branches?.candidates.sort()).toEqual(['feature-one', 'fix-two']);
    const sub = await complete(session, 'git stat');
    expect(sub).toMatchObject({ word: 'stat', candidates: ['status'] });
    const commands = await complete(session, 'git ');
    expect(commands?.candidates).toEqual(expect.arrayContaining(['checkout', 'commit', 'status']));
    const options = await complete(session, 'git commit --am');
    expect(options?.candidates).toEqual(['--amend']);
    expect(options?.descriptions?.[0]).toMatch(/^--amend +-- .*amend/);
    const several = await complete(session, 'git checkout --');
    const i = several!.candidates.indexOf('--quiet');
    expect(several!.descriptions![i]).toMatch(/-- suppress/);
    expect((await run('echo clean')).raw).toBe('clean\r\n');
  });

  it('quotes file names as zsh would, marks directories and keeps the word\'s open quote and prefixes', async () => {
    mkdirSync(path.join(home, 'place', 'sub dir'), { recursive: true });
    writeFileSync(path.join(home, 'place', "it's"), '');
    writeFileSync(path.join(home, 'place', 'sub dir', 'inner.txt'), '');
    writeFileSync(path.join(home, 'place', 'evil\x1b[31mred'), '');
    const { session, run } = start(COMPINIT);
    await run('cd place');
    expect(await complete(session, 'ls su')).toEqual({ word: 'su', filenames: false, nospace: true, candidates: ['sub\\ dir/'] });
    expect(await complete(session, 'cat it')).toEqual({ word: 'it', filenames: false, nospace: false, candidates: ["it\\'s"] });
    expect(await complete(session, 'ls "sub')).toMatchObject({ word: '"sub', candidates: ['"sub dir/'] });
    expect(await complete(session, 'cat sub\\ dir/in')).toMatchObject({ word: 'sub\\ dir/in', candidates: ['sub\\ dir/inner.txt'] });
    // A name with an escape character comes quoted as zsh would insert it: nothing raw reaches aish.
    expect(await complete(session, 'cat ev')).toMatchObject({ candidates: ["evil$'\\033'\\[31mred"] });
    expect(await complete(session, 'echo $HO')).toMatchObject({ word: '$HO', candidates: expect.arrayContaining(['$HOME']) });
  });

  it('answers a slow completion function late as no answer, leaving the line and the screen alone', async () => {
    const { session, run } = start(`${COMPINIT}_slow() { sleep 1.5; compadd late; }\ncompdef _slow slow\n_mine() { compadd alpha beta; }\ncompdef _mine mine\n`);
    await run('true');
    expect(await complete(session, 'mine a')).toMatchObject({ candidates: ['alpha'] });
    expect(await complete(session, 'slow ', 300)).toBeNull();
    expect((await run('echo clean')).raw).toBe('clean\r\n');
    expect(await complete(session, 'mine b')).toMatchObject({ candidates: ['beta'] });
    expect((await run('whence -w compadd')).text).toBe('compadd: builtin');
  });

  it('puts back a compadd function of the person\'s, and counts arrays from 1 under their ksh_arrays', async () => {
    const { session, run } = start(`setopt ksh_arrays\n${COMPINIT}compadd() { builtin compadd "$@"; }\n_mine() { compadd alpha beta; }\ncompdef _mine mine\n`);
    await run('true');
    expect(await complete(session, 'mine ')).toMatchObject({ word: '', candidates: ['alpha', 'beta'] });
    expect((await run('whence -w compadd')).text).toBe('compadd: function');
  });

  it('keeps today\'s names and files when the .zshrc did not run compinit', async () => {
    gitRepo();
    const { session, run } = start('zzfunc() { :; }\n');
    await run('cd repo');
    writeFileSync(path.join(home, 'repo', 'file-a'), '');
    expect(await complete(session, 'git checkout f')).toEqual({ word: 'f', filenames: true, nospace: false, candidates: ['file-a'] });
    expect(await complete(session, 'zzf')).toMatchObject({ candidates: ['zzfunc'] });
  });
});
