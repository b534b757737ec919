// Finds and runs a meta command from the table; an unknown name gets the closest match.

import leven from 'leven';
import { UsageError } from '../errors.js';
import type { BoundCommand, CommandInfo } from './types.js';

/** The command a name (or alias) refers to. */
export function findCommand<C extends CommandInfo>(commands: readonly C[], name: string): C | undefined {
  return commands.find((c) => c.name === name || c.aliases?.includes(name));
}

/** The known name closest to `name`, if any is close enough to be a likely typo. */
export function closestCommand(commands: readonly CommandInfo[], name: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of commands) {
    for (const candidate of [c.name, ...(c.aliases ?? [])]) {
      const d = candidate.startsWith(name) && name.length > 0 ? 0.5 : leven(name, candidate);
      if (d < bestDistance) {
        bestDistance = d;
        best = c.name;
      }
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 2)) ? best : undefined;
}

/** Runs `:<payload>`; unknown commands and bad arguments throw UsageError. */
export async function dispatchMeta(payload: string, commands: readonly BoundCommand[], signal: AbortSignal): Promise<void> {
  const m = /^(\S*)\s*([\s\S]*)$/.exec(payload)!;
  const name = m[1]!;
  const args = m[2]!;
  if (name === '') throw new UsageError('empty meta command (try :help)');
  const command = findCommand(commands, name);
  if (!command) {
    const near = closestCommand(commands, name);
    throw new UsageError(`unknown command :${name}${near ? ` (did you mean :${near}?)` : ' (try :help)'}`);
  }
  await command.run(args, signal);
}

/**
 * Tab completion for a meta line (`:mo` → `:model`, `:model f` → `:model fast`); a promise when
 * the command asks a server.
 */
export function completeMeta(line: string, commands: readonly BoundCommand[]): [string[], string] | Promise<[string[], string]> {
  const m = /^:(\S*)(\s+)?(.*)$/s.exec(line);
  if (!m) return [[], line];
  const [, name = '', space, rest = ''] = m;
  if (space === undefined) {
    const names = commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]).filter((n) => n.startsWith(name));
    return [names.map((n) => `:${n} `), line];
  }
  const command = findCommand(commands, name);
  if (!command?.complete) return [[], line];
  const argStart = rest.lastIndexOf(' ') + 1;
  const prefix = rest.slice(argStart);
  const candidates = command.complete(prefix, rest);
  return Array.isArray(candidates) ? [candidates, prefix] : candidates.then((c): [string[], string] => [c, prefix]);
}
