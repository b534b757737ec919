// The session shell against real bash and zsh on a real pseudo-terminal, with real rc files in a
// temporary HOME: state lives from line to line, markers give status and directory, and a dying
// shell is replaced.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShellSession } from '../../src/shell/session.js';
import { parseCompletion } from '../../src/shell/completion-answer.js';
import { runIn, testSession } from '../support/session-shell.js';
import { needs } from '../support/needs.js';

let home: string;
let sessions: ShellSession[] = [];

beforeEach(() => {
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'aish-session-')));
});
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  sessions = [];
  rmSync(home, { recursive: true, force: true });
});

const RC: Record<'bash' | 'zsh', { file: string; text: string }> = {
  bash: { file: '.bashrc', text: "alias ll='echo LL'\ngreet() { echo \"hello $1\"; }\nexport FROM_RC=rc-value\n" },
  zsh: { file: '.zshrc', text: "alias ll='echo LL'\ngreet() { echo \"hello $1\"; }\nexport FROM_RC=rc-value\n" },
};

function start(kind: 'bash' | 'zsh', opts: { rc?: string; startTimeoutMs?: number; tmpDir?: string } = {}) {
  writeFileSync(path.join(home, RC[kind].file), opts.rc ?? RC[kind].text);
  const statuses: string[] = [];
  const session = testSession(kind, home, {
    startTimeoutMs: opts.startTimeoutMs ?? 10_000,
    tmpDir: opts.tmpDir ?? tmpdir(),
    status: (m) => statuses.push(m),
  });
  sessions.push(session);
  const run = runIn(session);
  return { session, run, statuses };
}

for (const kind of ['bash', 'zsh'] as const) needs(kind).describe(`${kind} session`, () => {
  it('keeps aliases, functions, exports from the rc file and variables set by earlier lines', async () => {
    const { run } = start(kind);
    expect((await run('ll')).text).toBe('LL');
    expect((await run('greet world')).text).toBe('hello world');
    expect((await run('echo $FROM_RC')).text).toBe('rc-value');
    expect((await run('x=5')).exitCode).toBe(0);
    expect((await run('echo $x')).text).toBe('5');
  });

  it('reports exit status and follows the directory, pushd and popd included', async () => {
    const { session, run } = start(kind);
    const failed = await run('ls /does-not-exist');
    expect(failed.exitCode).not.toBe(0);
    expect(failed.text).toContain('does-not-exist');
    mkdirSync(path.join(home, 'sub dir;x'));
    await run(`cd() { builtin cd "$@"; }; cd 'sub dir;x'`);
    expect(session.cwd).toBe(path.join(home, 'sub dir;x'));
    await run('pushd /usr >/dev/null');
    expect(session.cwd).toBe('/usr');
    await run('popd >/dev/null');
    expect(session.cwd).toBe(path.join(home, 'sub dir;x'));
  });

  it('shows a syntax error as the line\'s output', async () => {
    const { run } = start(kind);
    const r = await run('echo )');
    expect(r.exitCode).not.toBe(0);
    expect(r.text).toMatch(/parse error|syntax error/);
    expect((await run('echo still')).text).toBe('still');
  });

  it('keeps typed lines in the shell\'s own history, and !! repeats the last one', async () => {
    const { run } = start(kind);
    await run('echo first-line', { inputEnds: false });
    const again = await run('!!', { inputEnds: false });
    expect(again.text).toContain('first-line');
    const history = await run(kind === 'zsh' ? 'fc -ln -3' : 'history 3', { inputEnds: false });
    expect(history.text).toContain('echo first-line');
    expect(history.text).not.toContain('__aish');
  });

  it('answers what a word is without running a command', async () => {
    const { session, run } = start(kind);
    await run('true');
    expect(await session.query('kind', 'll')).toBe('alias');
    expect(await session.query('kind', 'greet')).toBe('function');
    expect(await session.query('kind', 'cd')).toBe('builtin');
    expect(await session.query('kind', 'ls')).toBe('file');
    expect(await session.query('kind', 'if')).toBe('keyword');
    expect(await session.query('kind', 'nosuchthing')).toBe('');
    expect((await run('echo after')).text).toBe('after');
  });

  it('renders the person\'s prompt: from the rc file, set by a prompt hook, typed; never the secret', async () => {
    const rc = kind === 'bash' ? "PS1='\\u-ish:\\w[$?]\\$ '\n" : "PS1='%n-ish:%~[%?]%# '\n";
    const { session, run } = start(kind, { rc });
    const user = execFileSync('id', ['-un'], { encoding: 'utf8' }).trim();
    const sign = user === 'root' ? '#' : kind === 'bash' ? '$' : '%';
    await run('cd /usr; false');
    expect(await session.query('prompt')).toBe(`${user}-ish:/usr[1]${sign} `);
    // A theme sets PS1 before each prompt (starship in bash, a zsh theme's precmd).
    const hooks = kind === 'bash' ? 'PROMPT_COMMAND' : 'precmd_functions';
    await run(`theme() { PS1="hook:$PWD> "; }; ${hooks}=(__aish_status theme __aish_done)`);
    await run('cd /');
    expect(await session.query('prompt')).toBe('hook:/> ');
    await run(`${hooks}=(__aish_status __aish_done)`);
    await run(kind === 'bash' ? "PS1='typed:$__aish_k> '" : "setopt prompt_subst; PS1='typed:$__aish_k> '");
    expect(await session.query('prompt')).toBe('typed:[aish-secret]> ');
  });

  it('gives the exported environment, not shell variables', async () => {
    const { session, run } = start(kind);
    await run("export ODD=$'a;b%c\\nd'; notexported=1");
    const env = await session.exportedEnv();
    expect(env?.ODD).toBe('a;b%c\nd');
    expect(env?.FROM_RC).toBe('rc-value');
    expect(env?.notexported).toBeUndefined();
  });

  it('drops a forged end marker printed by a command', async () => {
    const { run } = start(kind);
    const r = await run("printf 'a\\033]6973;D;0000;0;/etc;0\\007b\\n'; exit_code_is_real() { return 3; }; exit_code_is_real");
    expect(r.exitCode).toBe(3);
    expect(r.raw).not.toContain('6973');
    expect(r.text).toBe('ab');
  });

  it('a file holding an unfinished marker neither hangs the line nor shows the secret', async () => {
    const { run } = start(kind);
    writeFileSync(path.join(home, 'evil.txt'), 'x\x1b]6973;');
    // Like a terminal, the unfinished sequence swallows what follows it up to the end marker.
    const r = await run('cat evil.txt; false');
    expect(r.exitCode).toBe(1);
    expect(r.text).toBe('x');
    expect(r.raw).not.toMatch(/[0-9a-f]{32}/);
    const shown = await run('set | grep -c __aish_k; declare -p __aish_k 2>/dev/null || typeset -p __aish_k');
    expect(shown.text).toMatch(/^\d+\n.*\[aish-secret\]/);
    expect(shown.raw).not.toMatch(/[0-9a-f]{32}/);
  });

  it('no piece of the secret of 8 characters or more reaches the output, the screen text or an answer', async () => {
    const { session, run } = start(kind);
    // The secret spelt with a space after each character, which no mask can know (read back here).
    const spelt = await run(`printf '%s\\n' "$__aish_k" | sed 's/./& /g'`);
    const secret = spelt.text.replace(/ /g, '');
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    const pieces = Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
    const leaked = (text: string) => pieces.filter((p) => text.includes(p));
    const lines = [
      'echo ${__aish_k:0:20}',
      'echo ${__aish_k:5:12}',
      'echo "[${__aish_k:24}]"',
      'declare -p __aish_k',
      'typeset -p __aish_k',
      'set | grep aish',
      // in two pieces, apart in time: two chunks of output
      'printf %s ${__aish_k:0:6}; sleep 0.2; printf \'%s\\n\' ${__aish_k:6:10}',
      // a colour code between two pieces: apart in the bytes, together on the screen
      "printf '%s\\033[m%s\\n' ${__aish_k:0:6} ${__aish_k:6:6}",
    ];
    for (const line of lines) {
      const r = await run(line);
      expect(r.exitCode, line).toBe(0);
      expect(leaked(r.raw), line).toEqual([]);
      expect(leaked(session.maskSecret(r.text)), line).toEqual([]);
    }
    expect((await run('echo "<${__aish_k:3:16}>"')).text).toBe('<[aish-secret]>');
    await run(kind === 'bash' ? "PS1='typed:${__aish_k:2:9}> '" : "setopt prompt_subst; PS1='typed:${__aish_k:2:9}> '");
    expect(await session.query('prompt')).toBe('typed:[aish-secret]> ');
  });

  it('refuses a command holding a control character that would act as a key', async () => {
    const { run } = start(kind);
    const r = await run('echo a \x03 touch pwned');
    expect(r.error).toMatch(/control character/);
    expect((await run('ls')).text).not.toContain('pwned');
  });

  it('interrupts a command with Ctrl-C and keeps the shell and its state', async () => {
    const { run } = start(kind);
    await run('y=kept');
    const controller = new AbortController();
    const sleeping = run('sleep 30', { signal: controller.signal, onOutput: () => {} });
    setTimeout(() => controller.abort(), 300);
    const r = await sleeping;
    expect(r.exitCode).toBe(130);
    expect(r.signal).toBe('SIGINT');
    expect((await run('echo $y')).text).toBe('kept');
  });

  it('starts a new shell after the old one is killed, with the rc file read again', async () => {
    const { run, statuses } = start(kind);
    await run('z=gone');
    const r = await run('kill -9 $$');
    expect(r.shellEnded?.reason).toBe('killed by SIGKILL');
    expect((await run('echo "[$z]"')).text).toBe('[]');
    expect((await run('ll')).text).toBe('LL');
  });

  needs('pgrep').it('ends for good on exit, leaving no job of its own running', async () => {
    const { session, run } = start(kind);
    const tag = `${process.pid}${Date.now() % 100000}`;
    await run(`sleep 314.${tag} &`);
    // zsh, like in a terminal, says "you have running jobs" to the first exit.
    let r = await run('exit 3');
    if (!r.shellEnded && kind === 'zsh') r = await run('exit 3');
    expect(r.shellEnded).toEqual({ reason: 'exit 3', byExit: true });
    expect(session.ended).toBe(true);
    const left = () => {
      try {
        return execFileSync('pgrep', ['-f', `sleep 314.${tag}`], { encoding: 'utf8' }).trim();
      } catch {
        return '';
      }
    };
    for (let i = 0; i < 40 && left(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(left()).toBe('');
  });

  it('starts without rc files when the rc file exits', async () => {
    const { run, statuses } = start(kind, { rc: 'exit 1\n' });
    expect((await run('echo ok')).text).toBe('ok');
    expect(statuses.join('\n')).toMatch(/ended while reading your rc file \(exit 1\); started it without rc files/);
  });

  it('starts without rc files when the rc file hangs, and leaves no rc folder behind', async () => {
    const tmpDir = path.join(home, 'tmp');
    mkdirSync(tmpDir);
    const { session, run, statuses } = start(kind, { rc: 'sleep 600\n', startTimeoutMs: 1500, tmpDir });
    expect((await run('echo ok')).text).toBe('ok');
    expect(statuses.join('\n')).toMatch(/did not finish reading your rc file within 1.5 s; started it without rc files/);
    await session.close();
    expect(readdirSync(tmpDir)).toEqual([]);
  });

  it('hands back whole lines typed while a command ran that it did not read', async () => {
    const { session, run } = start(kind);
    const running = run('sleep 0.6', { inputEnds: false });
    setTimeout(() => session.write('echo typed-ahead\r'), 200);
    const r = await running;
    expect(r.typedAhead).toEqual(['echo typed-ahead']);
    expect((await run('echo next')).text).toBe('next');
  });

  it('gives keys typed while the line waits for the shell to start to the command', async () => {
    // The first line waits for a slow rc file; what the person types meanwhile is for it.
    const { session, run } = start(kind, { rc: `${RC[kind].text}sleep 0.5\n` });
    const running = run('read -t 5 x; echo "got-$x"', { inputEnds: false });
    session.write('hi\r');
    expect((await running).text).toContain('got-hi');
  });

  needs('pgrep', 'ps').it('hangs up its jobs when closed, but not a disowned one', async () => {
    const { session, run } = start(kind);
    const tag = `${process.pid}${Date.now() % 100000}`;
    await run(`sleep 310.${tag} &`);
    await run(`sleep 311.${tag} & disown`);
    await run(`sleep 312.${tag} &`);
    await session.close();
    const left = (seconds: string) => {
      try {
        return execFileSync('pgrep', ['-f', `sleep ${seconds}.${tag}`], { encoding: 'utf8' }).trim();
      } catch {
        return '';
      }
    };
    for (let i = 0; i < 40 && (left('310') || left('312')); i++) await new Promise((r) => setTimeout(r, 50));
    const ps = () => execFileSync('ps', ['-o', 'pid,ppid,pgid,sid,stat,cmd', '-C', 'sleep'], { encoding: 'utf8' });
    expect(left('310'), ps()).toBe('');
    expect(left('312'), ps()).toBe('');
    const disowned = left('311');
    expect(disowned).not.toBe('');
    process.kill(Number(disowned.split('\n')[0]), 'SIGKILL');
  });

  it('cancels a line the shell finds incomplete', async () => {
    const { run } = start(kind);
    const r = await run('echo "unclosed');
    expect(r.incomplete).toBe(true);
    expect((await run('echo fine')).text).toBe('fine');
  });
});

/** Tab in the session's shell: the parsed answer for `line`, asked as the REPL asks it. */
async function complete(session: ShellSession, line: string, timeoutMs = 5000) {
  const payload = await session.queryIdle('complete', line, timeoutMs);
  return payload === null ? null : parseCompletion(payload);
}

for (const kind of ['bash', 'zsh'] as const) needs(kind).describe(`${kind} completion`, () => {
  it('completes the rc file\'s function and alias as first words, and files in the shell\'s directory after a cd', async () => {
    const { session, run } = start(kind, { rc: `${RC[kind].text}alias zzalias='echo A'\nzzfunc() { :; }\n` });
    await run('true');
    expect((await complete(session, 'zz'))?.candidates.sort()).toEqual(['zzalias', 'zzfunc']);
    expect((await complete(session, 'echo x; zzf'))?.candidates).toEqual(['zzfunc']);
    mkdirSync(path.join(home, 'place', 'sub dir'), { recursive: true });
    writeFileSync(path.join(home, 'place', 'notes.txt'), '');
    await run('cd place');
    expect(await complete(session, 'cat no')).toEqual({ word: 'no', filenames: true, nospace: false, candidates: ['notes.txt'] });
    expect(await complete(session, 'ls "sub')).toEqual({ word: '"sub', filenames: true, nospace: false, candidates: ['sub dir/'] });
    expect((await complete(session, 'ls '))?.candidates.sort()).toEqual(['notes.txt', 'sub dir/']);
  });
});

describe('bash completion', () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, env: { ...process.env, HOME: home } });

  it('runs git\'s own completion: subcommands and the branches of the repository it is in', async () => {
    const repo = path.join(home, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'first');
    git(repo, 'branch', 'feature-one');
    git(repo, 'branch', 'fix-two');
    const { session, run } = start('bash', { rc: '. /usr/share/bash-completion/completions/git\n' });
    await run('cd repo');
    expect(await complete(session, 'git stat')).toEqual({ word: 'stat', filenames: false, nospace: true, candidates: ['status '] });
    const branches = await complete(session, 'git checkout f');
    expect(branches?.candidates.map((c) => c.trim()).sort()).toEqual(['feature-one', 'fix-two']);
    expect((await complete(session, 'git log --pretty=onel'))?.candidates).toEqual(['oneline ']);
  });

  it('uses complete -W and -o, a complete -D loader, and falls back to file names', async () => {
    const rc = [
      "complete -W 'alpha beta' mycmd",
      'complete -o nospace -W "--one --two" nsp',
      '_load() { [[ $1 == lazy ]] && complete -W "loaded-word" lazy && return 124; }',
      'complete -D -F _load',
      '_chatty() { echo noise; echo more-noise >&2; COMPREPLY=(from-func); }',
      'complete -F _chatty chatty',
      '',
    ].join('\n');
    const { session, run } = start('bash', { rc });
    writeFileSync(path.join(home, 'afile'), '');
    await run('true');
    expect(await complete(session, 'mycmd ')).toEqual({ word: '', filenames: false, nospace: false, candidates: ['alpha', 'beta'] });
    expect(await complete(session, 'mycmd al')).toMatchObject({ word: 'al', candidates: ['alpha'] });
    expect(await complete(session, 'nsp --t')).toMatchObject({ nospace: true, candidates: ['--two'] });
    expect(await complete(session, 'lazy l')).toMatchObject({ candidates: ['loaded-word'] });
    expect(await complete(session, 'other af')).toEqual({ word: 'af', filenames: true, nospace: false, candidates: ['afile'] });
    expect(await complete(session, 'chatty ')).toMatchObject({ candidates: ['from-func'] });
    expect((await run('echo clean')).raw).toBe('clean\r\n');
  });

  it('leaves the history alone, and a slow completion function only costs the wait', async () => {
    const rc = "_slow() { sleep 1.5; COMPREPLY=(late); }\ncomplete -F _slow slow\ncomplete -W 'alpha beta' mycmd\n";
    const { session, run } = start('bash', { rc });
    await run('echo one');
    const before = (await run('history')).text;
    await complete(session, 'mycmd a');
    await complete(session, 'git sta');
    expect(await complete(session, 'slow ', 300)).toBeNull();
    const after = await run('history');
    expect(after.text.split('\n')).toEqual([...before.split('\n'), '    3  { history; } </dev/null']);
    expect((await run('echo clean')).raw).toBe('clean\r\n');
    expect(await complete(session, 'mycmd b')).toMatchObject({ candidates: ['beta'] });
  });
});
