// The commands of a line in the form the approval policy matches its rules against: unwrapped
// (`sudo`, `env`, `nice`, `\rm`, `/bin/rm`, `command` gone), quotes removed, the program by its
// name (`/usr/bin/curl` is `curl`), `git -C dir push` as `git push`, and the commands inside
// (`bash -c`, `eval`, `$(…)`, `find -exec`, `xargs`) as commands of their own. Pure.

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
