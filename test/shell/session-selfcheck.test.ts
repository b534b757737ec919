// The session's shell mends its own integration (docs/shell.md "What aish keeps in place"),
// against real bash and zsh on a real pseudo-terminal: the end a removed hook did not give, a
// prompt marker a command printed, a shell replaced by another, a TMPDIR that is gone.

import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionShell, ShellSession } from '../../src/shell/session.js';
import { testSession } from '../support/session-shell.js';
import { needs } from '../support/needs.js';

let home: string;
let sessions: ShellSession[] = [];

beforeEach(() => {
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'aish-selfcheck-')));
});
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  sessions = [];
  rmSync(home, { recursive: true, force: true });
});

function start(kind: SessionShell, tmpDir: string | string[] = home) {
  writeFileSync(path.join(home, '.bashrc'), 'greet() { echo "hello $1"; }\n');
  writeFileSync(path.join(home, '.zshrc'), 'greet() { echo "hello $1"; }\n');
  const statuses: string[] = [];
  const session = testSession(kind, home, { tmpDir, status: (m) => statuses.push(m) });
  sessions.push(session);
  const run = async (command: string) => {
    let out = '';
    const result = await session.run(command, { onOutput: (t) => (out += t), inputEnds: true });
    return { ...result, out };
  };
  return { session, run, statuses };
}

const UNHOOK: Record<'bash' | 'zsh', string> = { bash: 'unset PROMPT_COMMAND', zsh: 'precmd_functions=()' };

for (const kind of ['bash', 'zsh'] as const) needs(kind).describe(`${kind} session`, () => {
  it('ends a line that removed the end hook, and none after it twice', async () => {
    const { run } = start(kind);
    expect((await run(UNHOOK[kind])).exitCode).toBe(0);
    expect((await run('false')).exitCode).toBe(1);
    const next = await run('echo next');
    expect(next.exitCode).toBe(0);
    expect(next.out).toContain('next');
    // No question's echo in what the line printed.
    expect((await run(`${UNHOOK[kind]}; echo quiet`)).out.replace(/\x1b\[[0-9;?]*[a-zA-Z]|\r/g, '').trim()).toBe('quiet');
  });

  it('Ctrl-C ends a line that left neither an end nor a prompt marker, and the hooks are back after it', async () => {
    const { session, run } = start(kind);
    const controller = new AbortController();
    // The line has ended in the shell, whose own prompt (`$ `, no marker) is drawn as if it were
    // the line's output: nothing else says so. Ctrl-C once that prompt is there.
    let shown = '';
    let prompted: () => void;
    const atPrompt = new Promise<void>((resolve) => (prompted = resolve));
    const line = session.run(`${UNHOOK[kind]}; PS1='$ '`, {
      onOutput: (text) => {
        shown += text;
        if (shown.includes('$ ')) prompted();
      },
      signal: controller.signal,
    });
    await atPrompt;
    controller.abort();
    expect((await line).exitCode).toBe(130);
    expect((await run('false')).exitCode).toBe(1);
    expect((await run('echo next')).out).toContain('next');
  });

  it('a prompt marker printed by a command does not end it early, nor the next line', async () => {
    const { run } = start(kind);
    // The shell's own PS1, holding the prompt marker with the secret, printed as a command's output.
    const print = kind === 'zsh' ? 'print -rn -- ${(%)PS1}' : 'printf "%s" "${PS1@P}"';
    const r = await run(`${print}; sleep 0.3; echo after; false`);
    expect(r.exitCode).toBe(1);
    expect(r.out).toContain('after');
    const next = await run('echo next');
    expect(next.exitCode).toBe(0);
    expect(next.out).toContain('next');
  });

  it('replaces itself with the other shell, in the same directory with the exported environment', async () => {
    const { session, run } = start(kind);
    await run('export CARRIED=over; cd /usr');
    await session.exportedEnv();
    const other = kind === 'bash' ? 'zsh' : 'bash';
    expect(await session.replace(other, other)).toBe(true);
    expect(session.kind).toBe(other);
    const r = await run('echo "[${ZSH_VERSION:-bash}] $CARRIED $PWD"; greet there');
    expect(r.out).toMatch(other === 'zsh' ? /\[5\.[^\]]*\] over \/usr/ : /\[bash\] over \/usr/);
    expect(r.out).toContain('hello there');
  });

  it('makes its rc folder in the next place when TMPDIR is gone, and leaves none behind', async () => {
    const own = path.join(home, 'state', 'tmp');
    const { run } = start(kind, [path.join(home, 'missing'), path.join(home, 'also-missing'), own]);
    expect((await run('greet rc')).out).toContain('hello rc');
    expect(existsSync(own)).toBe(true);
    expect(readdirSync(own)).toEqual([]);
  });
});
