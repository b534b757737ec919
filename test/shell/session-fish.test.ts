// The session shell against a real fish on a real pseudo-terminal, with a real config.fish in a
// temporary HOME (docs/shell.md): fish's own state (set, functions, abbr, cd) lives from line to
// line, its markers give status and directory, its completions answer Tab with descriptions, and a
// config that errors or exits still leaves a working shell.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseCompletion } from '../../src/shell/completion-answer.js';
import { ShellSession } from '../../src/shell/session.js';
import { readShellHistory } from '../../src/shell/shell-history.js';
import { needs } from '../support/needs.js';
import { runIn, testSession } from '../support/session-shell.js';

let home: string;
let sessions: ShellSession[] = [];

beforeEach(() => {
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'aish-fish-')));
});
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  sessions = [];
  rmSync(home, { recursive: true, force: true });
});

const CONFIG = ['abbr -a ll echo LL', 'function greet; echo "hello $argv"; end', 'set -gx FROM_RC rc-value', 'set -g not_exported 1', ''].join('\n');

function start(opts: { config?: string; startTimeoutMs?: number } = {}) {
  mkdirSync(path.join(home, '.config', 'fish'), { recursive: true });
  writeFileSync(path.join(home, '.config', 'fish', 'config.fish'), opts.config ?? CONFIG);
  const statuses: string[] = [];
  const session = testSession('fish', home, { startTimeoutMs: opts.startTimeoutMs ?? 10_000, tmpDir: tmpdir(), status: (m) => statuses.push(m) });
  sessions.push(session);
  const run = runIn(session);
  return { session, run, statuses };
}

async function complete(session: ShellSession, line: string) {
  const payload = await session.queryIdle('complete', line, 5000);
  return payload === null ? null : parseCompletion(payload);
}

needs('fish').describe('fish session', () => {
  it('keeps variables, functions, abbreviations and the directory from line to line', async () => {
    const { session, run } = start();
    expect((await run('greet world')).text).toBe('hello world');
    // The word exit that ends no shell: the line ends as any other.
    expect((await run('echo exit; echo done')).text).toBe('exit\ndone');
    expect((await run('echo $FROM_RC')).text).toBe('rc-value');
    expect((await run('set x 5')).exitCode).toBe(0);
    expect((await run('echo $x')).text).toBe('5');
    await run('function twice; echo $argv $argv; end');
    expect((await run('twice hi')).text).toBe('hi hi');
    await run('abbr -a hey echo HEY');
    expect(await session.query('kind', 'hey')).toBe('alias');
    expect((await run('hey there; ll', { inputEnds: false })).text).toBe('HEY there\nLL');
    expect((await run("echo 'hey ll'")).text).toBe('hey ll');
    mkdirSync(path.join(home, 'sub dir;x'));
    await run("cd 'sub dir;x'");
    expect(session.cwd).toBe(path.join(home, 'sub dir;x'));
    expect((await run('pwd')).text).toBe(path.join(home, 'sub dir;x'));
    await run('cd /usr; cd -');
    expect(session.cwd).toBe(path.join(home, 'sub dir;x'));
  });

  it('reports the exit status, and runs a line typed without input at its end too', async () => {
    const { run } = start();
    const failed = await run('ls /does-not-exist');
    expect(failed.exitCode).not.toBe(0);
    expect(failed.text).toContain('does-not-exist');
    expect((await run('false')).exitCode).toBe(1);
    expect((await run('function three; return 3; end; three')).exitCode).toBe(3);
    expect((await run('echo typed', { inputEnds: false })).text).toBe('typed');
  });

  it("shows a syntax error as the line's output, and cancels an incomplete line", async () => {
    const { run } = start();
    for (const inputEnds of [false, true]) {
      const r = await run('echo )', { inputEnds });
      expect(r.exitCode).toBe(123);
      expect(r.text).toMatch(/^fish: Unexpected '\)' for unopened parenthesis\necho \)/);
    }
    expect((await run('echo still')).text).toBe('still');
    const open = await run('echo "unclosed');
    expect(open.incomplete).toBe(true);
    const block = await run('if true', { inputEnds: false });
    expect(block.incomplete).toBe(true);
    expect((await run('echo fine')).text).toBe('fine');
  });

  it('interrupts a running command with Ctrl-C and keeps the shell and its state', async () => {
    const { run } = start();
    await run('set y kept');
    const controller = new AbortController();
    // Ctrl-C once the command runs (its output is there), not while fish still takes it in.
    const r = await run('echo started; sleep 30', { signal: controller.signal, onOutput: (_chunk, raw) => raw.includes('started') && controller.abort() });
    expect(r.exitCode).toBe(130);
    expect(r.signal).toBe('SIGINT');
    expect((await run('echo $y')).text).toBe('kept');
  });

  it('answers what a word is, fish builtins included, without running a command', async () => {
    const { session, run } = start();
    await run('true');
    expect(await session.query('kind', 'll')).toBe('alias');
    expect(await session.query('kind', 'greet')).toBe('function');
    for (const word of ['set', 'string', 'math', 'cd']) expect(await session.query('kind', word)).toMatch(/^(builtin|function)$/);
    expect(await session.query('kind', 'set')).toBe('builtin');
    expect(await session.query('kind', 'begin')).toBe('keyword');
    expect(await session.query('kind', 'cat')).toBe('file');
    expect(await session.query('kind', 'nosuchthing')).toBe('');
    expect((await run('echo after')).text).toBe('after');
  });

  it("completes with fish's own completions, descriptions included, and files in the shell's directory", async () => {
    const config = `${CONFIG}complete -c mycmd -f -a 'alpha beta' -d 'a word'\nfunction zzfunc; end\n`;
    const { session, run } = start({ config });
    await run('true');
    expect(await complete(session, 'mycmd ')).toEqual({
      word: '',
      filenames: false,
      nospace: false,
      candidates: ['alpha', 'beta'],
      descriptions: ['alpha  (a word)', 'beta   (a word)'],
    });
    expect((await complete(session, 'set --glo'))?.candidates).toEqual(['--global']);
    expect((await complete(session, 'echo x; zzf'))?.candidates).toEqual(['zzfunc']);
    mkdirSync(path.join(home, 'place', 'sub dir'), { recursive: true });
    writeFileSync(path.join(home, 'place', 'notes.txt'), '');
    await run('cd place');
    expect(await complete(session, 'cat no')).toMatchObject({ word: 'no', filenames: true, candidates: ['notes.txt'] });
    expect(await complete(session, 'ls su')).toMatchObject({ word: 'su', filenames: true, nospace: true, candidates: ['sub dir/'] });
    expect((await run('echo clean')).text).toBe('clean');
    expect((await run('history search --max 5 ""', { inputEnds: false })).text).not.toMatch(/mycmd|__aish/);
  });

  it("renders the person's prompt, and one they define later; never the secret", async () => {
    const { session, run } = start({ config: "function fish_prompt; echo -n \"mine:$status:\"(prompt_pwd)'> '; end\n" });
    await run('cd /usr; false');
    expect(await session.query('prompt')).toBe('mine:1:/usr> ');
    await run("function fish_prompt; echo -n 'later:'$__aish_k'> '; end");
    expect(await session.query('prompt')).toBe('later:[aish-secret]> ');
    // aish's prompt marker is still there: the next line runs.
    expect((await run('echo next')).text).toBe('next');
  });

  it('gives the exported environment, not global variables, with a path list joined by colons', async () => {
    const { session, run } = start();
    await run("set -gx ODD 'a;b%c\\nd'; set -gx MY_PATH /one /two");
    const env = await session.exportedEnv();
    expect(env?.ODD).toBe('a;b%c\\nd');
    expect(env?.FROM_RC).toBe('rc-value');
    expect(env?.MY_PATH).toBe('/one:/two');
    expect(env?.not_exported).toBeUndefined();
  });

  it('drops a forged end marker and never shows the secret', async () => {
    const { run } = start();
    const r = await run("printf 'a\\033]6973;D;0000;0;/etc;0\\007b\\n'; function code; return 3; end; code");
    expect(r.exitCode).toBe(3);
    expect(r.raw).not.toContain('6973');
    expect(r.text).toBe('ab');
    const shown = await run('set -S __aish_k');
    expect(shown.text).toContain('[aish-secret]');
    expect(shown.raw).not.toMatch(/[0-9a-f]{32}/);
  });

  it('hands back whole lines typed while a command ran that it did not read', async () => {
    const { session, run } = start();
    let typed = false;
    // Typed once the command runs (its output is there), while it sleeps and reads nothing.
    const r = await run('echo started; sleep 0.6', {
      inputEnds: false,
      onOutput: (_chunk, raw) => {
        if (typed || !raw.includes('started')) return;
        typed = true;
        session.write('echo typed-ahead\recho two\rnot a whole line');
      },
    });
    expect(r.typedAhead).toEqual(['echo typed-ahead', 'echo two']);
    expect((await run('echo next')).text).toBe('next');
  });

  it('follows vi key bindings, and its keys still work after the switch', async () => {
    const { session, run } = start();
    await run('true');
    expect(await session.query('keys')).toBe('emacs');
    await run('fish_vi_key_bindings');
    expect(await session.query('keys')).toBe('vi');
    expect((await run('echo "two words"')).text).toBe('two words');
    expect(await session.query('kind', 'greet')).toBe('function');
  });

  it("keeps typed lines in fish's history file, but not one typed with a leading space", async () => {
    const { session, run } = start();
    await run('echo kept-line', { inputEnds: false });
    await run(' echo secret-line', { inputEnds: false });
    await run('true', { inputEnds: false });
    const file = await session.query('histfile');
    expect(file).toBe(path.join(home, '.local', 'share', 'fish', 'fish_history'));
    const entries = readShellHistory('fish', file!);
    expect(entries).toContain('echo kept-line');
    expect(readFileSync(file!, 'utf8')).not.toContain('secret-line');
  });

  it('ends for good on exit', async () => {
    const { session, run } = start();
    const r = await run('exit 3');
    expect(r.shellEnded).toEqual({ reason: 'exit 3', byExit: true });
    expect(session.ended).toBe(true);
  });

  it('reports a config.fish that errors, and goes on with what it set before the error', async () => {
    const { run, statuses } = start({ config: 'set -g before yes\nnosuchcommand-in-rc\nset -g after yes\n' });
    expect((await run('echo $before $after')).text).toBe('yes yes');
    expect(statuses.join('\n')).toMatch(/fish reported while reading your rc file:\n[\s\S]*nosuchcommand-in-rc/);
  });

  it('reports a config.fish with a syntax error (fish runs none of it)', async () => {
    const { run, statuses } = start({ config: 'set -g before yes\necho )\n' });
    expect((await run('echo "[$before]"')).text).toBe('[]');
    expect(statuses.join('\n')).toMatch(/fish reported while reading your rc file:\n[\s\S]*config\.fish \(line 2\): Unexpected '\)'/);
  });

  it('goes on after a config.fish that says exit, as fish does (it ends the file, not fish)', async () => {
    const { run, statuses } = start({ config: 'set -g before yes\nexit 1\nset -g after yes\n' });
    expect((await run('echo "[$before][$after]"')).text).toBe('[yes][]');
    expect(statuses).toEqual([]);
  });

  it('starts with --no-config when config.fish ends fish', async () => {
    const { run, statuses } = start({ config: 'exec false\n' });
    expect((await run('echo ok')).text).toBe('ok');
    expect(statuses.join('\n')).toMatch(/fish ended while reading your rc file \(exit 1\); started it without rc files/);
  });

  it('starts with --no-config when config.fish hangs', async () => {
    const { run, statuses } = start({ config: 'sleep 600\n', startTimeoutMs: 1500 });
    expect((await run('echo ok')).text).toBe('ok');
    expect(statuses.join('\n')).toMatch(/did not finish reading your rc file within 1.5 s; started it without rc files/);
  });

  needs('pgrep').it('hangs up its jobs when closed', async () => {
    const { session, run } = start();
    const tag = `${process.pid}${Date.now() % 100000}`;
    await run(`sleep 315.${tag} &`);
    await session.close();
    const left = () => {
      try {
        return execFileSync('pgrep', ['-f', `sleep 315.${tag}`], { encoding: 'utf8' }).trim();
      } catch {
        return '';
      }
    };
    for (let i = 0; i < 40 && left(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(left()).toBe('');
  });
});
