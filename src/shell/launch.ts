// How each session shell is started (docs/shell.md "What starts, and when"): its command line, its
// environment and the per-session rc file holding the secret, written into a private folder the
// session removes at the first prompt. One branch per shell; the session itself knows none of
// them. Also each shell's way of running a typed line with its input at its end (a piped run).

import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** The shells aish has integration scripts for. */
export type SessionShell = 'bash' | 'zsh' | 'fish';

/** Which integration a shell program gets, from its name; null when it has none. */
export function sessionShellOf(program: string): SessionShell | null {
  const name = path.basename(program);
  if (name === 'bash' || name.startsWith('bash-')) return 'bash';
  if (name === 'zsh' || name.startsWith('zsh-')) return 'zsh';
  if (name === 'fish' || name.startsWith('fish-')) return 'fish';
  return null;
}

export interface LaunchOptions {
  kind: SessionShell;
  program: string;
  /** The session's secret: written only into the rc file in `dir`, never into argv or the environment. */
  secret: string;
  /** Whether the person's rc files are read (false after they exited or hung). */
  withRc: boolean;
  /** A private folder of this start's, for the rc file. */
  dir: string;
  /** Where the integration scripts are (src/shell/integration, or dist/shell-integration). */
  integration: string;
  /** The shell's environment; the launch may add to it. */
  env: Record<string, string>;
}

export interface Launch {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** Writes the rc file for a new shell of `opts.kind` and says how to start it. */
export function launchShell(opts: LaunchOptions): Launch {
  const { kind, program, secret, dir, integration, env } = opts;
  const rc = opts.withRc ? 1 : 0;
  switch (kind) {
    case 'bash': {
      const file = path.join(dir, 'bashrc');
      writeFileSync(file, `__aish_k=${secret}\n__aish_rc=${rc}\n. ${shellQuote(path.join(integration, 'bash.sh'))}\n`, { mode: 0o600 });
      return { file: program, args: ['--rcfile', file, '-i'], env };
    }
    case 'zsh': {
      writeFileSync(path.join(dir, '.zshenv'), `__aish_rc=${rc}\nsource ${shellQuote(path.join(integration, 'zsh', '.zshenv'))}\n`, { mode: 0o600 });
      writeFileSync(path.join(dir, '.zshrc'), `__aish_k=${secret}\n__aish_rc=${rc}\nsource ${shellQuote(path.join(integration, 'zsh', '.zshrc'))}\n`, { mode: 0o600 });
      if (env.ZDOTDIR !== undefined) env.__aish_user_zdotdir = env.ZDOTDIR;
      env.ZDOTDIR = dir;
      return { file: program, args: ['-i'], env };
    }
    case 'fish': {
      // fish reads the person's config (config.fish, conf.d, /etc/fish) by itself; `-C` runs
      // aish's rc after it and before the first prompt. Without rc files, `--no-config` skips all
      // of them. The secret stays in the file: a `-C` argument would be in /proc/<pid>/cmdline.
      const file = path.join(dir, 'init.fish');
      writeFileSync(file, `set -g __aish_k ${secret}\nsource ${fishQuote(path.join(integration, 'fish', 'aish.fish'))}\n`, { mode: 0o600 });
      return { file: program, args: [...(opts.withRc ? [] : ['--no-config']), '-i', '-C', `source ${fishQuote(file)}`], env };
    }
  }
}

/**
 * `command` as typed for a run nobody types into: its input at its end (`/dev/null`), as a group
 * so that the whole line reads from it. A leading space stays first, where the shell looks for it
 * (kept out of its history).
 */
export function pipedLine(kind: SessionShell, command: string): string {
  const lead = /^ */.exec(command)![0];
  const body = command.trimStart();
  return kind === 'fish' ? `${lead}begin\n${body}\nend </dev/null` : `${lead}{ ${body}\n} </dev/null`;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** In fish's single quotes a backslash escapes a quote or a backslash. */
function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}
