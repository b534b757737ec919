// The real program with piped stdin: lines are processed in order as if typed, output is plain.

import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { AISH_BIN, makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { runAish, startAish } from '../support/run-aish.js';

let h: AishHome;
beforeEach(() => {
  h = makeHome();
});
afterEach(() => h.cleanup());

const run = (stdin: string, args: string[] = [], env: Record<string, string> = {}) =>
  runAish({ stdin, args, cwd: h.cwd, env: { ...h.env, ...env } });

describe('piped stdin', () => {
  // Issue 36: stdout gets what the commands printed, plain; the frames are aish's, on stderr.
  it('stdout holds only the output: `echo a` prints exactly "a\\n", the frame goes to stderr', async () => {
    const r = await run('echo a\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('a\n');
    expect(r.stderr).toMatch(/^╭─ echo a ─+\n╰─ exit 0 ─+\n$/m);
  });

  it('cd persists: `cd /tmp` then `pwd` prints /tmp', async () => {
    const r = await run('cd /tmp\npwd\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('/tmp\n');
    expect(r.stderr).toMatch(/╭─ pwd ─+\n╰─ exit 0 ─+/);
  });

  it('`false` shows exit 1 in the bottom rule', async () => {
    const r = await run('false\n');
    expect(r.stderr).toMatch(/╰─ exit 1 ─+/);
    expect(r.code).toBe(0);
  });

  it('output is plain: no colour, no prompt', async () => {
    const r = await run('echo hi\n:models\n');
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stdout).not.toContain('[aish:');
    expect(r.stdout).toContain('* fast');
  });

  it('processes lines in order and exits 0 at end of input', async () => {
    const r = await run('echo one\necho two\nexport X=three\necho $X\n');
    expect(r.stdout).toBe('one\ntwo\nthree\n');
    expect(r.code).toBe(0);
  });

  it('a trailing backslash continues the line', async () => {
    const r = await run('echo one \\\ntwo\n');
    expect(r.stdout).toBe('one two\n');
  });

  it('a command killed by a signal shows 128+N', async () => {
    const r = await run('kill -KILL $$\n');
    expect(r.stderr).toMatch(/╰─ exit 137 \(SIGKILL\) ─+/);
  });

  it('cd into a missing directory: the shell says so, and aish goes on', async () => {
    const r = await run('cd /no/such/dir\npwd\n');
    expect(r.stdout).toMatch(/^[^\n]*cd: \/no\/such\/dir: No such file or directory\n/);
    expect(r.stderr).toMatch(/exit 1/);
    expect(r.stdout).toContain(`\n${h.cwd}\n`);
  });

  it('binary output is not shown raw and not captured', async () => {
    const r = await run("printf 'ab\\000\\001\\033[2J'\necho after\n");
    expect(r.stdout).not.toContain('\x1b[2J');
    expect(r.stderr).toContain('[aish] binary output not shown and not captured');
    expect(r.stdout).toContain('after');
  });

  it('megabytes of output stream through and aish goes on', async () => {
    const r = await run('head -c 3000000 /dev/zero | tr "\\0" x | fold -w 100\necho survived\n');
    expect(r.stdout.length).toBeGreaterThan(3_000_000);
    expect(r.stderr).toContain('output capped at 16000 chars');
    expect(r.stdout).toContain('\nsurvived\n');
  });

  // Issue 32: this took 10 s for 5 MB and did not end in 100 s for 20 MB (the same bytes in lines:
  // about a second); bench/long-line.ts times it. The timeout here only keeps a hang from lasting.
  it('one line of 20 MB is shown whole, and the model gets it capped head and tail', { timeout: 120_000 }, async () => {
    const server = await ModelServer.start();
    try {
      h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
      server.enqueue(textReply(['seen']));
      const r = await runAish({ cwd: h.cwd, env: h.env, stdin: "printf HEAD; head -c 20000000 /dev/zero | tr '\\0' x; printf 'TAIL\\n'\nwhat did that print?\n", timeoutMs: 110_000 });
      expect(r.code).toBe(0);
      expect(r.stdout.startsWith(`HEAD${'x'.repeat(20_000_000)}TAIL\n`)).toBe(true);
      expect(r.stderr).toContain('output capped at 16000 chars for the model (head and tail kept)');
      expect(r.stdout).toContain('seen');
      const sent: string = server.requests[0]!.body.messages.at(-1).content;
      expect(sent).toMatch(/^\[exec output\]\n\$ [^\n]+\nHEADx{7000,8000}\n\[\.\.\. 199\d{5} chars elided \.\.\.\]\nx{7000,8000}TAIL\n\[exit 0\]\n\nwhat did that print\?$/);
    } finally {
      await server.close();
    }
  });

  it('an unknown meta command gets the closest match', async () => {
    const r = await run(':modle fast\n');
    expect(r.stderr).toContain('[aish] unknown command :modle (did you mean :model?)');
  });

  it(':why explains the route', async () => {
    const r = await run(':why find me the largest file\n:why tell me a joke\n');
    expect(r.stdout).toContain('ai (rule 6: reads as English: "me" after "find" where an argument belongs)');
    expect(r.stdout).toContain('ai (rule 6: "tell" is not a known command or a path)');
  });

  it(':model switches and :models marks the active preset', async () => {
    const r = await run(':model deep\n:models\n:model nope\n');
    expect(r.stdout).toMatch(/^\* deep/m);
    expect(r.stdout).toMatch(/^ {2}fast/m);
    expect(r.stderr).toContain('no preset named "nope"');
  });

  it(':exec forces the shell and :help lists the table', async () => {
    const r = await run(':exec echo forced\n:help\n');
    expect(r.stdout.startsWith('forced\n')).toBe(true);
    for (const name of [':help', ':quit, :q', ':clear', ':reset', ':model', ':models', ':exec', ':why', ':ask']) {
      expect(r.stdout).toContain(name);
    }
  });

  it(':quit stops reading further lines', async () => {
    const r = await run(':q\necho never\n');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('never');
  });

  it('SIGINT cancels a running command, not aish', async () => {
    const a = startAish({ cwd: h.cwd, env: h.env });
    a.write('sleep 30; echo not-reached\n');
    await a.waitFor('╭─ sleep 30');
    a.child.kill('SIGINT');
    await a.waitFor(/exit 130/);
    a.write('echo still-here\n');
    a.end();
    const r = await a.exited;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('still-here');
    expect(r.stdout).not.toContain('\nnot-reached\n');
  });
});

describe('start-up and config', () => {
  it('--help and --version', async () => {
    const help = await run('', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('aish -p "<text>"');
    const version = await run('', ['--version']);
    expect(version.stdout).toMatch(/^aish \d+\.\d+\.\d+\n$/);
  });

  it('--help to a reader that has gone (`aish --help | head -0`) exits 0 and says nothing', async () => {
    // The read end is closed before aish starts, so its write fails with EPIPE every time.
    const child = spawn(process.execPath, [AISH_BIN, '--help'], { cwd: h.cwd, env: h.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it('an unknown flag exits 2', async () => {
    const r = await run('', ['--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--frobnicate');
  });

  it('a bad config exits 2 naming every bad key', async () => {
    h.writeConfig({ models: { fast: { endpoint: 'nope', model: 'x' } }, shell: { confrim_cmd: true } });
    const r = await run('echo never\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('models.fast.endpoint: expected a URL');
    expect(r.stderr).toContain('shell.confrim_cmd: unknown key');
    expect(r.stdout).not.toContain('never');
  });

  it('a missing --config file exits 2', async () => {
    const r = await run('', ['--config', 'missing.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing\.json.*\n.*file not found/);
  });

  it('--model with an unknown preset exits 2', async () => {
    const r = await run('', ['--model', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no preset named "nope"');
  });

  it('aish.config.ts with defineConfig from "aish" is loaded', async () => {
    h.writeConfig(
      `import { defineConfig } from 'aish';\nconst n: number = 7;\nexport default defineConfig({ shell: { known_commands: { add: ['cowsay'] } }, context: { max_turns: n } });\n`,
      'aish.config.ts',
    );
    const r = await run(':why cowsay moo\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"cowsay" is in shell.known_commands');
  });

  it('the XDG config dir is searched', async () => {
    mkdirSync(path.join(h.home, '.config', 'aish'), { recursive: true });
    writeFileSync(path.join(h.home, '.config', 'aish', 'config.json'), JSON.stringify({ default_model: 'deep' }));
    const r = await run(':models\n');
    expect(r.stdout).toMatch(/^\* deep/m);
  });

  it('OPENAI_BASE_URL and OPENAI_MODEL shape the default preset', async () => {
    const r = await run(':models\n', [], { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_MODEL: 'qwen3' });
    expect(r.stdout).toMatch(/^\* fast\s+qwen3\s+http:\/\/127\.0\.0\.1:11434\/v1/m);
  });

  it('an unwritable state dir does not stop aish', async () => {
    const state = path.join(h.home, 'ro-state');
    mkdirSync(state);
    writeFileSync(path.join(state, 'aish'), 'a file where a directory should be');
    const r = await run('echo fine\n', [], { XDG_STATE_HOME: state });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('fine');
  });
});

// Keep fs helpers referenced for type-only imports in some editors.
void chmodSync;
void readFileSync;
void statSync;
