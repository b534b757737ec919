// A session shell as the shell tests start it: bash, zsh or fish in `home`, with a plain environment, an
// 80×24 terminal and a generous start-up limit; `extra` changes any of it.

import { ShellSession, type SessionShell, type ShellSessionOptions } from '../../src/shell/session.js';

export function testSession(kind: SessionShell, home: string, extra: Partial<ShellSessionOptions> = {}): ShellSession {
  return new ShellSession({
    program: kind,
    kind,
    cwd: home,
    env: { HOME: home, PATH: process.env.PATH, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
    size: () => ({ cols: 80, rows: 24 }),
    startTimeoutMs: 10_000,
    tmpDir: home,
    status: () => {},
    ...extra,
  });
}
