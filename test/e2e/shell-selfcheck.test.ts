// The session's shell defends itself and starts robustly (issue 34, docs/shell.md "What aish
// keeps in place"): the built program on a real pseudo-terminal and from a pipe, with real bash
// and zsh, after lines that remove aish's hooks, move the shell's output, or replace the shell,
// and with a dumb terminal, a missing TMPDIR and a slow rc file.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';
import { needs } from '../support/needs.js';

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
const RC = 'greet() { echo "hello $1"; }\n';
const rcFile = (shell: string) => path.join(h.home, shell === 'zsh' ? '.zshrc' : '.bashrc');

function startTerm(shell: string, env: Record<string, string | undefined> = {}): PtySession {
  writeFileSync(rcFile(shell), RC);
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...h.env, SHELL: `/bin/${shell}`, ...env })) if (v !== undefined) merged[k] = v;
  term = PtySession.start({ cwd: h.cwd, env: merged, cols: 120, rows: 30 });
  return term;
}

/** Types `line` and waits for its exec frame to close (and the prompt after it); returns what it printed. */
async function typed(t: PtySession, line: string): Promise<string> {
  await t.waitFor(PROMPT);
  const mark = t.mark();
  t.line(line);
  return t.waitFor(/╰─ exit \d+[^\n]*\n[\s\S]*\[aish:fast\]> $/, { from: mark });
}

/** What the model and the screen see of a line: the frame's end line, `exit N`. */
const exitOf = (out: string) => /╰─ exit (\d+)/.exec(out)?.[1];

/** Lines that take aish's hooks away, per shell. */
const UNHOOK: Record<string, string[]> = {
  bash: ['unset PROMPT_COMMAND', 'PS0=', "PROMPT_COMMAND='history -a'"],
  zsh: ['precmd_functions=()', 'preexec_functions=()', 'precmd() { :; }; unfunction precmd', 'precmd_functions=(); preexec_functions=()'],
};

for (const shell of ['bash', 'zsh']) needs(`/bin/${shell}`).describe(`${shell}: what aish keeps in place`, () => {
  it('a line that removes or replaces aish\'s hooks ends, and every later line ends with its own status', async () => {
    const t = startTerm(shell);
    for (const unhook of UNHOOK[shell]!) {
      expect(exitOf(await typed(t, unhook)), unhook).toMatch(/^[01]$/);
      expect(exitOf(await typed(t, 'false')), `false after ${unhook}`).toBe('1');
      const out = await typed(t, 'greet again');
      expect(out, `after ${unhook}`).toContain('hello again');
      expect(exitOf(out)).toBe('0');
      expect(exitOf(await typed(t, "sh -c 'exit 7'"))).toBe('7');
    }
    // The person's own entry stays, beside aish's.
    if (shell === 'bash') expect(await typed(t, 'echo "${PROMPT_COMMAND[@]}"')).toMatch(/__aish_status history -a __aish_done/);
  });

  it('a line that moves the shell\'s output to a file gets it back on the terminal, with a status line naming the file; no marker or secret reaches the file', async () => {
    const t = startTerm(shell);
    const log = path.join(h.home, 'x.log');
    for (const move of [`exec >${log}`, `exec 2>&1 >${log}`, 'exec 1>&-']) {
      const out = await typed(t, move);
      expect(out, move).toContain(move.endsWith('&-') ? "the shell's output was closed: aish put it back on the terminal" : `the shell's output went to ${log}: aish put it back on the terminal`);
      expect(await typed(t, 'greet back'), `after ${move}`).toContain('hello back');
      expect(exitOf(await typed(t, 'false'))).toBe('1');
    }
    const written = readFileSync(log, 'latin1');
    expect(written).not.toContain('6973');
    expect(written).not.toMatch(/[0-9a-f]{32}/);
    expect(written).not.toContain('\x1b]');
  });

  it('exec bash and exec zsh end the frame with a status line, and a session of that shell follows', async () => {
    const t = startTerm(shell);
    writeFileSync(rcFile(shell === 'bash' ? 'zsh' : 'bash'), RC);
    await typed(t, 'export CARRIED=over; cd /usr');
    const other = shell === 'bash' ? 'zsh' : 'bash';
    const out = await typed(t, `exec ${other}`);
    expect(out).toContain(`${other} replaced the shell: a new ${other} session, with aish's integration`);
    expect(exitOf(out)).toBe('0');
    const inside = await typed(t, 'echo "[${ZSH_VERSION:-bash}] $CARRIED $PWD"; greet there');
    expect(inside).toMatch(other === 'zsh' ? /\[5\.[^\]]*\] over \/usr/ : /\[bash\] over \/usr/);
    expect(inside).toContain('hello there');
    expect(exitOf(await typed(t, 'false'))).toBe('1');
    expect(await typed(t, `exec ${shell}`)).toContain(`${shell} replaced the shell`);
    expect(await typed(t, 'echo "[${ZSH_VERSION:-bash}]"')).toMatch(shell === 'zsh' ? /\[5\./ : /\[bash\]/);
    // A shell that is not there fails as exec would, and the shell stays.
    const missing = await typed(t, 'exec /nonexistent/zsh');
    expect(missing).toContain(`zsh: not found; the shell stays ${shell}`);
    expect(exitOf(missing)).toBe('127');
    expect(await typed(t, 'greet still')).toContain('hello still');
  });
});

describe('a session from a pipe keeps its hooks too', () => {
  for (const shell of ['bash', 'zsh']) needs(`/bin/${shell}`).it(`${shell}: lines after one that removed the hooks run, with their own status`, async () => {
    writeFileSync(rcFile(shell), RC);
    const log = path.join(h.home, 'x.log');
    const stdin = `${UNHOOK[shell]!.join('\nfalse\n')}\ngreet pipe\nexec >${log}\necho after-exec\nfalse\n`;
    const r = await runAish({ cwd: h.cwd, env: { ...h.env, SHELL: `/bin/${shell}` }, stdin, timeoutMs: 30_000 });
    expect(r.stdout).toContain('hello pipe\n');
    expect(r.stdout).toContain('after-exec\n');
    expect(r.stderr.match(/╰─ exit 1\b/g)?.length).toBe(UNHOOK[shell]!.length);
    expect(r.stderr).not.toContain("SIGHUP");
    expect(readFileSync(log, 'latin1')).not.toContain('6973');
  });
});

describe('the session starts robustly', () => {
  // A start limit well below the 16 s zsh took with TERM=dumb: the old code gave up on the session.
  beforeEach(() => {
    h.writeConfig({ shell: { start_timeout_ms: 4000 } });
  });

  for (const shell of ['bash', 'zsh']) {
    for (const [name, env] of [
      ['TERM=dumb', { TERM: 'dumb' }],
      ['TERM unset', { TERM: undefined }],
      ['TMPDIR naming a missing folder', { TMPDIR: '/nonexistent/aish-tmp' }],
    ] as const) {
      needs(`/bin/${shell}`).it(`${shell} with ${name}: a session, whose rc function runs`, async () => {
        writeFileSync(rcFile(shell), RC);
        const full: Record<string, string> = { ...h.env, SHELL: `/bin/${shell}` };
        for (const [k, v] of Object.entries(env)) if (v === undefined) delete full[k];
        else full[k] = v;
        const r = await runAish({ cwd: h.cwd, env: full, stdin: 'greet world\nfalse\n', timeoutMs: 20_000 });
        expect(r.stdout + r.stderr).not.toMatch(/no shell session|did not finish reading|each line runs/);
        expect(r.stdout).toContain('hello world\n');
        expect(r.stderr).toMatch(/╰─ exit 1\b/);
        // On a terminal: the first line waits for the session, the second is the rc file's function.
        const t = startTerm(shell, env);
        await typed(t, 'true');
        const out = await typed(t, 'greet terminal');
        expect(out).toContain('hello terminal');
        expect(t.text).not.toMatch(/no shell session|did not finish reading|each line runs/);
      });
    }

    needs(`/bin/${shell}`).it(`${shell}: a slow rc file is named with how long it took, once`, async () => {
      writeFileSync(rcFile(shell), `sleep 2.5\n${RC}`);
      writeFileSync(rcFile(shell === 'bash' ? 'zsh' : 'bash'), '');
      const r = await runAish({ cwd: h.cwd, env: { ...h.env, SHELL: `/bin/${shell}` }, stdin: `greet slow\nexec ${shell}\ngreet again\n`, timeoutMs: 20_000 });
      const said = (r.stdout + r.stderr).match(new RegExp(`${shell} took \\d+\\.\\d s to read your rc file`, 'g')) ?? [];
      expect(said).toHaveLength(1);
      expect(r.stdout).toContain('hello slow\n');
      expect(r.stdout).toContain('hello again\n');
    });
  }
});
