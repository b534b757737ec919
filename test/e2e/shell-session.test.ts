// The persistent shell end to end (docs/shell.md): the built program on a real pseudo-terminal and
// from a pipe, with real bash and zsh reading real rc files in a temporary HOME.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { FIXTURE_SERVER } from '../support/mcp-servers.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { KEY, PtySession, enterThenFrame as enter, typeThenTab as tab } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';
import { needs } from '../support/needs.js';
import { runningWith } from '../support/processes.js';
import { until } from '../support/until.js';

let h: AishHome;
let term: PtySession | undefined;
let server: ModelServer | undefined;
beforeEach(() => {
  h = makeHome();
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  h.cleanup();
});

const PROMPT = /\[aish:fast\]> $/;
const RC = [
  "alias ll='echo LL-alias'",
  'greet() { echo "hello $1"; }',
  'export FROM_RC=rc-value',
  'goproj() { cd "$HOME/work/proj"; }',
].join('\n');

/** A venv-style activate script: PATH, a variable and a `deactivate` function. */
function plantVenv(): void {
  const bin = path.join(h.cwd, 'venv', 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, 'activate'),
    [
      'deactivate() { PATH="$_OLD_PATH"; unset VIRTUAL_ENV; unset -f deactivate; }',
      '_OLD_PATH="$PATH"',
      `VIRTUAL_ENV="${path.join(h.cwd, 'venv')}"`,
      'export VIRTUAL_ENV',
      'PATH="$VIRTUAL_ENV/bin:$PATH"',
      'export PATH',
    ].join('\n'),
  );
  writeFileSync(path.join(bin, 'venvtool'), '#!/bin/sh\necho from-the-venv\n', { mode: 0o755 });
}

function startTerm(shell: string): PtySession {
  writeFileSync(path.join(h.home, shell === 'zsh' ? '.zshrc' : '.bashrc'), `${RC}\n`);
  term = PtySession.start({ cwd: h.cwd, env: { ...h.env, SHELL: `/bin/${shell}` }, cols: 100, rows: 30 });
  return term;
}

/** Types `line` and waits for its exec frame to close; returns what it printed. */
async function typed(t: PtySession, line: string, end: RegExp = /╰─ exit \d+[^\n]*\n/): Promise<string> {
  await t.waitFor(PROMPT);
  const mark = t.mark();
  t.line(line);
  return t.waitFor(end, { from: mark });
}

/** A number of seconds no other process on the machine sleeps for, to find a job by its command line. */
function unique(seconds: number): string {
  return `${seconds}.${process.pid}${Date.now() % 100000}`;
}

function processesWith(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

for (const shell of ['bash', 'zsh']) needs(`/bin/${shell}`).describe(`${shell} on a terminal`, () => {
  it('keeps the rc file\'s alias, function and export, variables, a venv, the directory stack and jobs', async () => {
    plantVenv();
    const t = startTerm(shell);
    expect(await typed(t, 'll')).toContain('LL-alias');
    expect(await typed(t, 'greet world')).toContain('hello world');
    expect(await typed(t, 'echo $FROM_RC')).toContain('rc-value');
    await typed(t, 'x=5');
    expect(await typed(t, 'echo "x is $x"')).toContain('x is 5');
    await typed(t, 'source venv/bin/activate');
    expect(await typed(t, 'venvtool')).toContain('from-the-venv');
    await typed(t, 'deactivate');
    expect(await typed(t, 'venvtool')).toMatch(/not found/);
    await typed(t, 'pushd /usr');
    expect(await typed(t, 'pwd')).toContain('\n/usr\n');
    await typed(t, 'popd');
    expect(await typed(t, 'pwd')).toContain(`\n${h.cwd}\n`);
    expect(await typed(t, 'sleep 300 &')).toMatch(/\[1\] \d+/);
    expect(await typed(t, 'jobs')).toMatch(/\[1\]\s*\+?\s*(Running|running)\s+sleep 300/);
    await typed(t, 'kill %1');
  });

  needs('python3').it('gives programs the terminal: isatty, read -p answered by typed keys, Ctrl-C keeps the shell', async () => {
    const t = startTerm(shell);
    expect(await typed(t, "python3 -c 'import sys; print(sys.stdin.isatty(), sys.stdout.isatty())'")).toContain('True True');
    await t.waitFor(PROMPT);
    const mark = t.mark();
    // The question is put together by the shell, so waiting for it does not match the typed line.
    t.line(shell === 'zsh' ? 'q=na; read "name?${q}me? "; echo "got [$name]"' : 'q=na; read -p "${q}me? " name; echo "got [$name]"');
    await t.waitFor(/╭─[^\n]*\n[\s\S]*name\? /, { from: mark });
    t.line('Ada');
    await t.waitFor('got [Ada]', { from: mark });
    await typed(t, 'kept=yes');
    await t.waitFor(PROMPT);
    const sleeping = t.mark();
    const seconds = unique(30);
    t.line(`sleep ${seconds}; echo not-reached`);
    await t.waitFor('╭─ sleep 30', { from: sleeping });
    await runningWith(seconds);
    t.write(KEY.ctrlC);
    const out = await t.waitFor(/exit 130/, { from: sleeping });
    expect(out).not.toContain('\nnot-reached');
    expect(await typed(t, 'echo "still $kept"')).toContain('still yes');
  });

  it('Ctrl-C typed right after Enter (in the same read) cancels that line, not an idle prompt', async () => {
    const t = startTerm(shell);
    await typed(t, 'echo warm');
    await t.waitFor(PROMPT);
    const mark = t.mark();
    t.write(`sleep 30; echo not-reached\r${KEY.ctrlC}`);
    const out = await t.waitFor(/exit 130[^\n]*\n[\s\S]*\[aish:fast\]> $/, { from: mark });
    expect(out).not.toContain('\nnot-reached');
    // The prompt is drawn once, after the frame: not a fresh prompt under the line, then the frame.
    expect(out.match(/\[aish:fast\]> /g)).toHaveLength(1);
    expect(await typed(t, 'echo after')).toContain('after');
  });

  it('Ctrl-C in the same read as Enter reaches a program that takes Ctrl-C itself once, not every half second', async () => {
    const t = startTerm(shell);
    await typed(t, 'echo warm');
    await t.waitFor(PROMPT);
    const mark = t.mark();
    // A program that hears Ctrl-C and goes on for two seconds: the cancelled line's one Ctrl-C
    // (or none, when it comes before the trap is set and ends it) is all it hears.
    t.write(`bash -c 'trap "echo got-INT" INT; for i in 1 2 3 4 5 6 7 8; do sleep 0.25; done; echo loop-done'\r${KEY.ctrlC}`);
    const out = await t.waitFor(/╰─ exit \d+[^\n]*\n[\s\S]*\[aish:fast\]> $/, { from: mark });
    const heard = out.split('\n').filter((line) => /^(\^C)?got-INT$/.test(line));
    expect(heard.length).toBeLessThanOrEqual(1);
    expect(await typed(t, 'echo after')).toContain('after');
  });

  it('Ctrl-Z suspends the job and gives the prompt back; fg and kill %1 reach it', async () => {
    const t = startTerm(shell);
    await t.waitFor(PROMPT);
    const mark = t.mark();
    const seconds = unique(40);
    t.line(`sleep ${seconds}`);
    await t.waitFor('╭─ sleep 40', { from: mark });
    await runningWith(seconds);
    t.write('\x1a');
    expect(await t.waitFor(/exit 148[\s\S]*\[aish:fast\]> $/, { from: mark })).toMatch(/[Ss]topped|suspended/);
    expect(await typed(t, 'jobs')).toMatch(/\[1\][^\n]*(Stopped|suspended)[^\n]*sleep 40/);
    await t.waitFor(PROMPT);
    const fg = t.mark();
    t.line('fg');
    await t.waitFor('╭─ fg', { from: fg });
    await runningWith(seconds);
    t.write(KEY.ctrlC);
    await t.waitFor(/exit 130/, { from: fg });
    expect(await typed(t, 'jobs; echo listed')).not.toContain('sleep 40');
  });

  it('a resize at the idle prompt reaches the shell at once: programs start at the new size', async () => {
    const t = startTerm(shell);
    expect(await typed(t, 'stty size')).toContain('\n30 100\n');
    await t.waitFor(PROMPT);
    const resized = t.raw.length;
    t.resize(90, 25);
    // The window's SIGWINCH and keys typed in the same millisecond race in aish's event loop
    // (stdin may be read first); a person's next line comes later than this. The prompt drawn
    // again says aish has heard it (the shell's terminal is resized in the same event).
    // The prompt ends with the terminal's input-start mark (OSC 133;B) after it.
    await until(() => /\r\x1b\[J[^]*> (?:\x1b\]133;B\x07)?$/.test(t.raw.slice(resized)), () => 'no prompt drawn again after the resize');
    expect(await typed(t, 'stty size')).toContain('\n25 90\n');
  });

  it('announces a background job that ended while aish waited at its prompt, before the prompt after the next line', async () => {
    const t = startTerm(shell);
    const seconds = `0.3${process.pid}`;
    const job = /\[1\] (\d+)/.exec(await typed(t, `sleep ${seconds} &`))![1];
    // Until the shell has reaped it (a zombie keeps its /proc entry), and so heard of its end.
    for (let i = 0; i < 100 && existsSync(`/proc/${job}`); i++) await new Promise((r) => setTimeout(r, 50));
    // bash says it as it draws the prompt after the next command; zsh (notify) at its prompt at once.
    const out = await typed(t, 'echo next', /╰─ exit 0[^\n]*\n[\s\S]*\[aish:fast\]> $/);
    expect(out).toMatch(new RegExp(`\\[1\\]\\s*\\+?\\s*[Dd]one\\s+sleep ${seconds.replace('.', '\\.')}\\n\\r?\\[aish:fast\\]> $`));
  });

  it('replaces a killed shell, and leaves on exit', async () => {
    const t = startTerm(shell);
    await typed(t, 'y=before');
    const killed = await typed(t, 'kill -9 $$', /shell ended \(killed by SIGKILL\); started a new one/);
    expect(killed).toContain('exit 137');
    expect(await typed(t, 'echo "y=[$y]"; ll')).toMatch(/y=\[\][\s\S]*LL-alias/);
    await t.waitFor(PROMPT);
    t.line('exit');
    expect((await t.exited).exitCode).toBe(0);
  });

  it('follows a cd made inside a function for @file', async () => {
    server = await ModelServer.start();
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue(textReply(['ok']));
    mkdirSync(path.join(h.cwd, 'proj'));
    writeFileSync(path.join(h.cwd, 'proj', 'notes.txt'), 'the notes inside proj\n');
    const t = startTerm(shell);
    await typed(t, 'goproj');
    await t.waitFor(PROMPT);
    t.line('summarize @notes.txt');
    await server.waitForRequests(1);
    expect(JSON.stringify(server.requests[0]!.body)).toContain('the notes inside proj');
  });
});

describe('shell.prompt_from_shell: the shell draws the prompt', () => {
  // The person's prompt: a colour, a title (an escape that is not a colour, never to reach the
  // terminal), their name, the directory, the root-or-not sign, and a status only the shell knows.
  const PS1 = {
    bash: String.raw`\[\e]0;the-title\a\]\[\e[32m\]me\[\e[0m\]:\w[$?]\$ `,
    zsh: String.raw`%{\e]0;the-title\a%}%F{green}me%f:%~[%?]%# `,
  };

  for (const shell of ['bash', 'zsh'] as const) needs(`/bin/${shell}`).it(`${shell}: the prompt is the rendered PS1 with aish's sign after it, following cd and the status`, async () => {
    h.writeConfig({ shell: { prompt_from_shell: true } });
    writeFileSync(path.join(h.home, shell === 'zsh' ? '.zshrc' : '.bashrc'), `PS1=${shell === 'zsh' ? `$'${PS1.zsh}'` : `'${PS1.bash}'`}\n`);
    const t = (term = PtySession.start({ cwd: h.cwd, env: { ...h.env, SHELL: `/bin/${shell}` }, cols: 100, rows: 30 }));
    const shellPrompt = (dir: string, status: number) => new RegExp(`\\n\\r?me:${dir}\\[${status}\\][$#%] > $`);
    await t.waitFor(PROMPT);
    let mark = t.mark();
    t.line('cd /usr');
    await t.waitFor(shellPrompt('/usr', 0), { from: mark });
    mark = t.mark();
    t.line('false');
    await t.waitFor(shellPrompt('/usr', 1), { from: mark });
    mark = t.mark();
    t.line('cd; true');
    await t.waitFor(shellPrompt('~', 0), { from: mark });
    // The shell's colour is kept, and reset before the typed line; the title never reaches the terminal.
    expect(t.raw).toContain('\x1b[32mme');
    expect(t.raw).not.toContain('the-title');
    // The route sign after it still says where the line goes.
    t.write('echo hi');
    await t.waitFor(/me:~\[0\][$#%] \$ echo hi$/);
  });

  for (const shell of ['bash', 'zsh'] as const) needs(`/bin/${shell}`).it(`${shell}: a prompt of two lines, the first one shown above the line`, async () => {
    h.writeConfig({ shell: { prompt_from_shell: true } });
    writeFileSync(path.join(h.home, shell === 'zsh' ? '.zshrc' : '.bashrc'), shell === 'zsh' ? "PS1=$'top line %~\\n%# '\n" : "PS1='top line \\w\\n\\$ '\n");
    const t = (term = PtySession.start({ cwd: h.cwd, env: { ...h.env, SHELL: `/bin/${shell}` }, cols: 100, rows: 30 }));
    await t.waitFor(PROMPT);
    const mark = t.mark();
    t.line('cd /usr');
    await t.waitFor(/\n\r?top line \/usr\n\r?[$#%] > $/, { from: mark });
    t.write('echo abc');
    await t.waitFor(/\n\r?top line \/usr\n\r?[$#%] > [^\n]*[$#%] \$ echo abc$/, { from: mark });
    t.write(KEY.enter);
    expect(await t.waitFor(/╰─ exit 0[^\n]*\n[\s\S]*[$#%] > $/, { from: mark })).toContain('\nabc\n');
  });
});

describe('Tab on a shell line', () => {

  it('completes from bash: rc functions and aliases, git\'s own completion, complete -W, files after a cd', async () => {
    const repo = path.join(h.cwd, 'repo');
    mkdirSync(path.join(repo, 'docs'), { recursive: true });
    writeFileSync(path.join(repo, 'docs', 'guide.txt'), 'the guide\n');
    writeFileSync(path.join(repo, 'docs', 'evil\x1b[31mred.txt'), '');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: repo, env: h.env });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'first');
    git('branch', 'feature-one');
    git('branch', 'feature-two');
    writeFileSync(
      path.join(h.home, '.bashrc'),
      [RC, '. /usr/share/bash-completion/completions/git', "alias zzal='echo from-the-alias'", 'zzfunc() { echo "zzfunc got [$1]"; }', "complete -W 'alpha beta' zzfunc", ''].join('\n'),
    );
    const t = (term = PtySession.start({ cwd: h.cwd, env: h.env, cols: 100, rows: 30 }));
    await typed(t, 'echo one');
    const history = await typed(t, 'history');

    await tab(t, 'zza', 'zzal ');
    expect(await enter(t)).toContain('from-the-alias');
    await tab(t, 'zzfu', 'zzfunc ');
    await tab(t, 'be', 'beta ', true);
    expect(await enter(t)).toContain('zzfunc got [beta]');

    await typed(t, 'cd repo');
    await tab(t, 'git stat', 'git status ');
    expect(await enter(t)).toContain('On branch main');
    await tab(t, 'git checkout f', 'git checkout feature-');
    const listed = await tab(t, '', /feature-one\s+feature-two/, true);
    expect(listed).not.toContain('docs');
    await tab(t, 'o', 'one ', true);
    expect(await enter(t)).toMatch(/Switched to branch 'feature-one'/);

    // The only name that can be shown is offered: the one with an escape character is not.
    await tab(t, 'cat docs/', 'guide.txt ');
    const cat = await enter(t);
    expect(cat).toContain('the guide');
    expect(t.raw).not.toContain('evil\x1b[31m');
    expect(t.text).not.toMatch(/evil/);

    // Tab left nothing in the shell's history, and no stray byte in the next command's output.
    const again = await typed(t, 'history');
    const lines = (text: string) => text.split('\n').filter((l) => /^\s+\d+\s/.test(l)).map((l) => l.replace(/^\s+\d+\s+/, ''));
    expect(lines(again)).toEqual([...lines(history), 'zzal', 'zzfunc beta', 'cd repo', 'git status', 'git checkout feature-one', 'cat docs/guide.txt', 'history']);
    expect(await typed(t, 'echo clean')).toMatch(/╭─ echo clean[^\n]*\nclean\n╰─ exit 0/);
  });
});

describe('what the model reads', () => {
  /** Runs `command` in a bash session, then asks the model; the request body and the screen. */
  async function modelReads(command: string): Promise<{ body: string; screen: string; raw: string }> {
    server = await ModelServer.start();
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue(textReply(['seen']));
    const t = startTerm('bash');
    const screen = await typed(t, command);
    await t.waitFor(PROMPT);
    t.line('what happened?');
    await server.waitForRequests(1);
    return { body: JSON.stringify(server.requests[0]!.body), screen, raw: t.raw };
  }

  it('is what the terminal showed: no colours, a \\r progress line only in its final state', async () => {
    const { body } = await modelReads("p=progress; printf '\\033[31mred\\033[0m text\\n'; printf \"$p 10%%\\r$p 50%%\\r$p 100%%\\n\"");
    expect(body).toContain('red text\\nprogress 100%');
    expect(body).not.toContain('progress 10%');
    expect(body).not.toContain('\\u001b');
  });

  it('is a note for a full-screen program, not its screen', async () => {
    const { body } = await modelReads("s=secret; printf \"\\033[?1049h$s-screen\\033[?1049l\"; echo after");
    expect(body).toContain('after\\n[printf: full-screen program]');
    expect(body).not.toContain('secret-screen');
  });

  it('never holds a marker, forged or true', async () => {
    const { body, screen, raw } = await modelReads("m=6973; printf \"a\\033]$m;D;forged;0;/etc;0\\007b\\n\"; false");
    expect(screen).toContain('exit 1');
    expect(raw).not.toContain('\x1b]6973');
    expect(body).toContain('ab\\n[exit 1]');
    expect(body).not.toContain('\\u001b]6973');
  });
});

describe('lines typed while a command runs', () => {
  it('a shell line the command did not read runs next; a line for the model waits on the input line', async () => {
    server = await ModelServer.start();
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    const t = startTerm('bash');
    await t.waitFor(PROMPT);
    const go = path.join(h.cwd, 'go');
    const mark = t.mark();
    t.line(`echo wai''ting; while [ ! -e ${go} ]; do sleep 0.05; done`);
    await t.waitFor('\nwaiting\n', { from: mark });
    t.write('echo typed-ahead\r');
    t.write('hunter2 is my password\r');
    // The terminal echoes what the command did not read; then the command ends.
    await t.waitFor('hunter2 is my password', { from: mark });
    writeFileSync(go, '');
    await t.waitFor(/typed-ahead\n╰─ exit 0[\s\S]*kept on the line[\s\S]*\[aish:fast\]\? hunter2 is my password$/, { from: mark });
    expect(server.requests).toHaveLength(0);
  });
});

describe('lines typed ahead and the end of the session', () => {
  it('exit typed while a command runs ends aish with its code; the lines after it never run', async () => {
    server = await ModelServer.start();
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    const go = path.join(h.cwd, 'go');
    const marker = path.join(h.cwd, 'ran-after-exit');
    const t = startTerm('bash');
    await t.waitFor(PROMPT);
    const mark = t.mark();
    t.line(`echo wai''ting; while [ ! -e ${go} ]; do sleep 0.05; done`);
    await t.waitFor('\nwaiting\n', { from: mark });
    t.write(`exit 3\rtouch ${marker}\r`);
    await t.waitFor(`touch ${marker}`, { from: mark });
    writeFileSync(go, '');
    expect((await t.exited).exitCode).toBe(3);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('a CMD: line runs in the same shell', () => {
  it('sets a variable the next typed line uses', async () => {
    server = await ModelServer.start();
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue(textReply(['Set it:\nCMD: export GREETING=from-the-model\n']));
    const t = startTerm('bash');
    await t.waitFor(PROMPT);
    t.line('set a greeting');
    await t.waitFor("execute 'export GREETING=from-the-model'?");
    t.write('y\r');
    await t.waitFor(/exit 0/);
    expect(await typed(t, 'echo "[$GREETING]"')).toContain('[from-the-model]');
  });
});

describe('when the terminal closes', () => {
  needs('pgrep').it('leaves nothing running: the shell and its background job get SIGHUP', async () => {
    const t = startTerm('bash');
    // A duration no other process on the machine has, to find this job's sleep by its command line.
    const seconds = `301.${process.pid}${Date.now() % 100000}`;
    await typed(t, `sleep ${seconds} &`);
    await typed(t, 'jobs');
    const sleeper = `sleep ${seconds}`;
    for (let i = 0; i < 40 && processesWith(sleeper).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(sleeper).length).toBe(1);
    t.kill('SIGHUP');
    await t.exited;
    for (let i = 0; i < 50 && processesWith(sleeper).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(processesWith(sleeper)).toEqual([]);
  });
});

describe('programs aish starts', () => {
  it('a stdio MCP server connected after a cd and an export starts in the shell\'s directory with its PATH', async () => {
    const sub = path.join(h.cwd, 'sub');
    const script = `pwd > ${h.home}/where.txt; printf %s "$PATH" > ${h.home}/path.txt; exec ${process.execPath} ${FIXTURE_SERVER}`;
    const r = await runAish({
      cwd: h.cwd,
      env: h.env,
      stdin: `mkdir sub\ncd sub\nexport PATH="/opt/from-the-shell:$PATH"\n:mcp connect sh -c '${script}' fx\n:mcp list\n`,
    });
    expect(r.stdout).toMatch(/fx\b[^\n]*connected/);
    expect(readFileSync(path.join(h.home, 'where.txt'), 'utf8').trim()).toBe(sub);
    expect(readFileSync(path.join(h.home, 'path.txt'), 'utf8')).toMatch(/^\/opt\/from-the-shell:/);
  });
});

describe('without a session', () => {
  it.each([
    ['a shell aish has no integration for', { SHELL: '/bin/sh' }, {}, 'aish has no session for sh'],
    ['shell.session: false', {}, { shell: { session: false } }, 'shell.session is off'],
  ])('%s: one status line, each line on its own, cd kept by aish, exit leaves', async (_, env, config, why) => {
    h.writeConfig(config);
    const r = await runAish({ cwd: h.cwd, env: { ...h.env, ...env }, stdin: 'x=5\necho "[$x]"\ncd /usr\npwd\nseq 2 3\nexit 4\necho never\n' });
    expect(r.stderr.match(/each line runs in its own \S+ -c/g)).toHaveLength(1);
    // A program on PATH is a command without a session to ask too (it was sent to the model).
    expect(r.stdout).toContain('\n2\n3\n');
    expect(r.stderr).toContain(why);
    expect(r.stdout).toContain('[]\n');
    expect(r.stdout).toContain('\n/usr\n');
    expect(r.stdout).not.toContain('never');
    expect(r.code).toBe(4);
  });
});

describe('from a pipe', () => {
  for (const shell of ['bash', 'zsh']) needs(`/bin/${shell}`).it(`${shell}: lines run in order in one shell, output on stdout`, async () => {
    writeFileSync(path.join(h.home, shell === 'zsh' ? '.zshrc' : '.bashrc'), `${RC}\n`);
    const r = await runAish({ cwd: h.cwd, env: { ...h.env, SHELL: `/bin/${shell}` }, stdin: 'x=7\necho "x=$x"\ngreet pipe\ncat\nls --color=auto -d /\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('x=7\n');
    expect(r.stdout).toContain('hello pipe\n');
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stdout).not.toContain('\r');
  });
});
