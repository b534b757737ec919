// The commands of a line in the form the approval policy matches its rules against: unwrapped
// (`sudo`, `env`, `nice`, `\rm`, `/bin/rm`, `command` gone), quotes removed, the program by its
// name (`/usr/bin/curl` is `curl`), `git -C dir push` as `git push`, and the commands inside
// (`bash -c`, `eval`, `$(…)`, `find -exec`, `xargs`) as commands of their own. Also: which
// variables that steer later commands (`PATH`, `LD_PRELOAD`…) a line sets or unsets. Pure.

import { gitSubcommand } from './command-rules.js';
import { readLine, type SeenCommand } from './destructive.js';

/** Every simple command of `line`, inner ones included, as its unwrapped words joined by spaces. */
export function normalizedCommands(line: string): string[] {
  return normalize(readLine(line).commands);
}

/** The commands the check read, as `normalizedCommands` gives them. */
export function normalize(commands: readonly SeenCommand[]): string[] {
  return commands.flatMap(({ words: [name, ...args] }) => {
    if (name === undefined) return [];
    if (name !== 'git') return [[name, ...args].join(' ')];
    const sub = gitSubcommand(args);
    return [['git', sub.name, ...sub.args].filter(Boolean).join(' ')];
  });
}

/** Variables that change what later commands run or how (`PATH`, `LD_PRELOAD`, `PAGER`…). */
const STEERING = new Set([
  ...['SHELL', 'PATH', 'BASH_ENV', 'ENV', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'PROMPT_COMMAND', 'IFS'],
  ...['NODE_OPTIONS', 'GIT_SSH_COMMAND', 'PAGER', 'EDITOR', 'VISUAL'],
]);
const DECLARES = new Set(['export', 'unset', 'declare', 'typeset', 'readonly', 'local']);
const VARIABLE = /^([A-Za-z_]\w*)(?:\+?=|$)/;

/** The first steering variable a command sets, exports or unsets (`export PATH=…`, `PATH=x cmd`). */
export function steeringVariable(commands: readonly SeenCommand[]): string | undefined {
  for (const { words, assignments } of commands) {
    const [name = '', ...args] = words;
    const written = [...assignments, ...(DECLARES.has(name) ? args : []), ...(name.includes('=') ? [name] : [])];
    const variable = written.map((w) => VARIABLE.exec(w)?.[1]).find((v) => v !== undefined && STEERING.has(v));
    if (variable) return variable;
  }
  return undefined;
}
