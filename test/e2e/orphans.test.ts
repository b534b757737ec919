// No orphans: when its terminal goes away, when SIGTERM or SIGHUP arrives, or when the reader of
// its output leaves, aish ends the command it runs and exits instead of living on without a
// parent or spinning on a write that can only fail.

import { spawn as spawnPty } from '@lydell/node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AISH_BIN, makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer } from '../support/model-server.js';
import { commandLine, gone, isGone } from '../support/processes.js';
import { PtySession } from '../support/pty.js';
import { startAish } from '../support/run-aish.js';

let h: AishHome;
/** The aish and sleep processes a test started: what a failed test leaves must not outlive it. */
const started: number[] = [];
beforeEach(() => {
  h = makeHome();
});
afterEach(() => {
  for (const pid of started.splice(0)) {
    // Still the process the test started, not a later one that got its pid.
    if (isGone(pid) || !/dist\/aish\.js|^sleep\x00300\x00$/.test(commandLine(pid))) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  h.cleanup();
});

/** A command that runs until stopped and prints the pid of the process to watch. */
const SLEEPER = 'sleep 300 & echo "sleeper $!"; wait';
const SLEEPER_PID = /sleeper (\d+)/;

/**
 * aish on a terminal this test can close the way `tmux kill-session` does: node-pty's destroy
 * closes the master side, then sends SIGHUP to the session.
 */
function closableTerminal() {
  const term = spawnPty(process.execPath, [AISH_BIN], { name: 'xterm-256color', cols: 100, rows: 30, cwd: h.cwd, env: h.env });
  started.push(term.pid);
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => term.onExit(resolve));
  let screen = '';
  const waiting = new Set<() => void>();
  term.onData((data) => {
    screen += data;
    for (const check of waiting) check();
  });
  return {
    pid: term.pid,
    exited,
    line: (text: string) => term.write(`${text}\r`),
    /** The first match of `pattern` on the screen, once there is one. */
    waitFor: (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve) => {
        const check = () => {
          const match = pattern.exec(screen);
          if (!match) return;
          waiting.delete(check);
          resolve(match);
        };
        waiting.add(check);
        check();
      }),
    // The Unix terminal has destroy(); node-pty's typings leave it out.
    close: () => (term as typeof term & { destroy(): void }).destroy(),
  };
}

describe('the terminal goes away', () => {
  it('at an idle prompt: aish exits', async () => {
    const t = closableTerminal();
    await t.waitFor(/aish:fast/);
    t.close();
    await gone(t.pid);
    // An exit of its own, as if by SIGHUP: not an abort in Node's restoring of the lost terminal.
    expect(await t.exited).toEqual({ exitCode: 129, signal: 0 });
  });

  it('while a command runs: aish and the command both end', async () => {
    const t = closableTerminal();
    await t.waitFor(/aish:fast/);
    t.line(SLEEPER);
    const sleeper = Number((await t.waitFor(SLEEPER_PID))[1]);
    started.push(sleeper);
    t.close();
    await gone(t.pid, sleeper);
  });
});

describe.each([
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)('%s while a command runs ends aish and the command', (signal, exitCode) => {
  it(`on a terminal: exit ${exitCode}`, async () => {
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    started.push(t.pid);
    await t.waitFor('[aish:fast]> ');
    t.line(SLEEPER);
    const sleeper = Number(SLEEPER_PID.exec(await t.waitFor(SLEEPER_PID))![1]);
    started.push(sleeper);
    process.kill(t.pid, signal);
    expect((await t.exited).exitCode).toBe(exitCode);
    await gone(sleeper);
  });

  it(`from a pipe: exit ${exitCode}`, async () => {
    const run = startAish({ cwd: h.cwd, env: h.env });
    started.push(run.child.pid!);
    run.write(`${SLEEPER}\n`);
    await run.waitFor(SLEEPER_PID);
    const sleeper = Number(SLEEPER_PID.exec(run.stdout)![1]);
    started.push(sleeper);
    run.child.kill(signal);
    expect(await run.exited).toMatchObject({ code: exitCode, signal: null });
    await gone(sleeper);
  });
});

describe('SIGTERM while the model is asked', () => {
  it('ends the request and aish: exit 143', async () => {
    const server = await ModelServer.start();
    try {
      h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
      // Headers and then nothing: only an abort ends this request before its 60 s timeout.
      server.enqueue({ type: 'stall', sendHeaders: true });
      const run = startAish({ cwd: h.cwd, env: h.env });
      started.push(run.child.pid!);
      run.write('why is the sky blue\n');
      await server.waitForRequests(1);
      run.child.kill('SIGTERM');
      expect(await run.exited).toMatchObject({ code: 143, signal: null });
    } finally {
      await server.close();
    }
  });
});

describe('the reader of stderr goes away', () => {
  it('aish exits instead of spinning on writes that fail', async () => {
    const run = startAish({ cwd: h.cwd, env: h.env });
    started.push(run.child.pid!);
    run.write(':no-such-command\n');
    await run.waitFor('[aish] unknown command');
    run.child.stderr.destroy();
    // Each line is a status line on stderr, which can now only fail with EPIPE.
    run.write(':no-such-command\n:no-such-command\n');
    const end = await run.exited;
    // The reader has what it wanted: as for `aish … | head`, that is not a failure.
    expect(end).toMatchObject({ code: 0, signal: null });
  });
});
