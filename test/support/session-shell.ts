// A session shell as the shell tests start it: bash, zsh or fish in `home`, with a plain environment, an
// 80×24 terminal and a generous start-up limit; `extra` changes any of it.

import { screenText } from '../../src/shell/screen-text.js';
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

export interface RunExtra {
  signal?: AbortSignal;
  /** Default true: the command reads from /dev/null, as a piped line does. */
  inputEnds?: boolean;
  /** Each chunk of output as it comes, with all the output so far. */
  onOutput?: (chunk: string, raw: string) => void;
}

/** `run(command)` in `session`: the result with its raw output and the text a terminal showed of it. */
export function runIn(session: ShellSession) {
  return async (command: string, extra: RunExtra = {}) => {
    let raw = '';
    const result = await session.run(command, {
      onOutput: (t) => {
        raw += t;
        extra.onOutput?.(t, raw);
      },
      inputEnds: extra.inputEnds ?? true,
      ...(extra.signal ? { signal: extra.signal } : {}),
    });
    return { ...result, raw, text: (await screenText(raw, 80)).text };
  };
}
