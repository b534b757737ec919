// The session shell's history against real bash and zsh (docs/shell.md, "History"): aish reads the
// person's $HISTFILE (asked of the shell), a line typed with a leading space stays out of the
// shell's history whatever the rc file says, and a line holding a secret runs whole but reaches the
// shell's history (in memory and in its file) only redacted.

import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/schema.js';
import { PendingOutput } from '../../src/context/pending-output.js';
import { Redactor } from '../../src/safety/redact.js';
import { secretShapeScan } from '../../src/secret-rules.js';
import { ShellRunner } from '../../src/shell/shell-runner.js';
import { fakeSecrets } from '../support/fake-secrets.js';
import { testSession } from '../support/session-shell.js';
import { needs } from '../support/needs.js';

let home: string;
let runners: ShellRunner[] = [];
beforeEach(() => {
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'aish-session-history-')));
});
afterEach(async () => {
  await Promise.all(runners.map((r) => r.close()));
  runners = [];
  rmSync(home, { recursive: true, force: true });
});

/** An rc file that keeps a history file and would record every line (no ignorespace of its own). */
const RC: Record<'bash' | 'zsh', { file: string; text: string }> = {
  bash: { file: '.bashrc', text: 'HISTFILE=~/hist\nHISTCONTROL=ignoredups\nshopt -s histappend\n' },
  zsh: { file: '.zshrc', text: 'HISTFILE=~/hist\nHISTSIZE=100\nSAVEHIST=100\nunsetopt hist_ignore_space\n' },
};

const bearer = fakeSecrets().find((s) => s.name === 'Authorization: Bearer header')!;

function start(kind: 'bash' | 'zsh', opts: { isTTY?: boolean } = {}) {
  writeFileSync(path.join(home, RC[kind].file), RC[kind].text);
  const resolved = resolveConfig({ models: { fast: { endpoint: 'http://127.0.0.1:1/v1', model: 'm' } } }, {});
  if (!resolved.ok) throw new Error('config');
  const { redact } = Redactor.forEnv({ env: () => ({}), config: resolved.config, shapes: secretShapeScan() });
  let output = '';
  const view = { execBegin: () => {}, execOutput: (text: string) => void (output += text), execEnd: () => {}, info: () => {}, status: () => {}, error: () => {} };
  const session = testSession(kind, home);
  const runner = new ShellRunner({ shell: resolved.config.shell, cwd: home, env: { HOME: home }, isTTY: opts.isTTY ?? true, view, pending: new PendingOutput(), session, redact });
  runners.push(runner);
  const run = async (command: string, how: { outOfHistory?: boolean } = {}) => {
    output = '';
    await runner.run(command, new AbortController().signal, how);
    return output.replace(/\r/g, '');
  };
  /** The shell's history list as it holds it now (the command that lists it aside). */
  const history = async () => (await run(kind === 'zsh' ? 'fc -ln 1' : 'history')).split('\n').map((l) => l.replace(/^\s*\d+\s+/, '').trim()).filter((l) => l && !/^(fc -ln 1|history)$/.test(l));
  const historyFile = async () => {
    await runner.close();
    return readFileSync(path.join(home, 'hist'), 'utf8');
  };
  return { runner, run, history, historyFile };
}

for (const kind of ['bash', 'zsh'] as const) needs(kind).describe(`${kind}`, () => {
  it('gives the person\'s own history, asked of the shell where it is', async () => {
    writeFileSync(path.join(home, 'hist'), kind === 'zsh' ? ': 1700000000:0;echo older\n: 1700000001:0;echo newer\n' : 'echo older\necho newer\n');
    const { runner } = start(kind);
    expect(await runner.shellHistory(100)).toEqual(['echo newer', 'echo older']);
  });

  it.each([true, false])('keeps a line typed with a leading space out of the history, in memory and in its file (terminal: %s)', async (isTTY) => {
    const { run, history, historyFile } = start(kind, { isTTY });
    await run('echo kept-line');
    expect(await run('echo private-line', { outOfHistory: true })).toContain('private-line');
    await run('echo after-it');
    const held = (await history()).join('\n');
    expect(held).toContain('echo kept-line');
    expect(held).toContain('echo after-it');
    expect(held).not.toContain('private-line');
    const file = await historyFile();
    expect(file).not.toContain('private-line');
    expect(file).toContain('echo after-it');
  });

  it.each([true, false])('runs a line holding a secret whole, and keeps it in the history only redacted (terminal: %s)', async (isTTY) => {
    const { run, history, historyFile } = start(kind, { isTTY });
    const said = `curl -H Authorization: Bearer ${bearer.value} https://api.example.org/v1`;
    // The shell got the secret: it counts its characters.
    expect(await run(`echo "${said}" | wc -c`)).toContain(`${said.length + 1}`);
    await run('echo after-it');
    const held = await history();
    expect(held.join('\n')).not.toContain(bearer.value);
    // Kept out of the shell's history whole (typed with a leading space); aish's own history keeps it redacted.
    expect(held.join('\n')).not.toContain('Authorization: Bearer');
    const file = await historyFile();
    expect(file).not.toContain(bearer.value);
    expect(file).not.toContain('Authorization: Bearer');
    expect(file).toContain('echo after-it');
  });
});

it('bash: writes no history file at the end when the rc file unset HISTFILE', async () => {
  const { run, runner } = start('bash');
  writeFileSync(path.join(home, '.bashrc'), '');
  await run('unset HISTFILE');
  await run('echo some-line');
  await runner.close();
  expect(readdirSync(home).filter((name) => /hist/.test(name))).toEqual([]);
});
