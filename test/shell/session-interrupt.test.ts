// A Ctrl-C that comes while the shell is still taking in the line (the instant after aish typed
// it) waits for the command's start: typed at once it cut a piped run's `{ …\n} </dev/null`
// where the shell had read to, and the rest ran as a line of its own (`bash: syntax error near
// unexpected token '}'`, exit 2, seen in CI). Real bash and zsh on a real pseudo-terminal, the
// pty's traffic recorded in order.

import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { ShellSession, type SessionShell, type SpawnPty } from '../../src/shell/session.js';
import { screenText } from '../../src/shell/screen-text.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** A session whose pty records what aish wrote and what the shell said, and calls `onCommand` once a command is typed. */
function recorded(kind: SessionShell) {
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'aish-interrupt-')));
  homes.push(home);
  const traffic: string[] = [];
  let onCommand: (() => void) | null = null;
  const spawnPty: SpawnPty = (file, args, opts) => {
    const pty = spawn(file, args, opts);
    pty.onData((d) => traffic.push(`shell:${d}`));
    return {
      get pid() {
        return pty.pid;
      },
      write: (data: string) => {
        traffic.push(`aish:${data}`);
        pty.write(data);
        if (data.includes('\x1b[200~') && onCommand) {
          const then = onCommand;
          onCommand = null;
          then();
        }
      },
      resize: (cols: number, rows: number) => pty.resize(cols, rows),
      kill: (signal?: string) => pty.kill(signal),
      onData: (listener: (data: string) => void) => pty.onData(listener),
      onExit: (listener: (e: { exitCode: number; signal?: number }) => void) => pty.onExit(listener),
    };
  };
  const session = new ShellSession({
    program: kind,
    kind,
    cwd: home,
    env: { HOME: home, PATH: process.env.PATH, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
    size: () => ({ cols: 80, rows: 24 }),
    startTimeoutMs: 10_000,
    tmpDir: home,
    status: () => {},
    spawnPty,
  });
  return { session, traffic, whenTyped: (then: () => void) => (onCommand = then) };
}

describe.each(['bash', 'zsh'] as const)('%s', (kind) => {
  it.each([
    ['the line is cancelled', 'signal'],
    ['Ctrl-C is typed', 'key'],
  ] as const)('%s the instant a piped command is typed: Ctrl-C reaches the shell after its start, and the command ends 130', async (_what, how) => {
    const { session, traffic, whenTyped } = recorded(kind);
    const controller = new AbortController();
    whenTyped(() => (how === 'signal' ? controller.abort() : session.write('\x03')));
    let raw = '';
    const run = await session.run('sleep 30; echo not-reached', { onOutput: (t) => (raw += t), inputEnds: true, signal: controller.signal });
    const started = traffic.findIndex((t) => t.startsWith('shell:') && t.includes('\x1b]6973;C;'));
    const ctrlC = traffic.findIndex((t) => t === 'aish:\x03');
    expect(started).toBeGreaterThanOrEqual(0);
    expect(ctrlC).toBeGreaterThan(started);
    expect(run.exitCode).toBe(130);
    const text = (await screenText(raw, 80)).text;
    expect(text).not.toMatch(/syntax error|not-reached/);
    expect((await session.run('echo still-here', { onOutput: () => {}, inputEnds: true })).exitCode).toBe(0);
    await session.close();
  });
});
