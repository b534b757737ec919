// Tab at the prompt: a meta line from the command table, `@path` and `@alias:<uri>` in a line for
// the model, and a shell line from what Tab in the session's shell offers, else aish's own
// completion (completion.ts).

import type { Config } from '../config/schema.js';
import { asksShell, classify } from '../line-router.js';
import type { McpRegistry } from '../mcp/registry.js';
import { completeMeta } from '../meta/dispatch.js';
import { uriCandidates } from '../meta/mcp-lists.js';
import type { BoundCommand } from '../meta/types.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import { ShellCompleter, completePath, shellCandidates } from './completion.js';
import type { Completer, Completion } from './line-reader.js';

export interface LineCompletionParts {
  config: Config;
  commands: readonly BoundCommand[];
  mcp: Pick<McpRegistry, 'connected'>;
  shell: Pick<ShellRunner, 'cwd' | 'env' | 'wordKind' | 'knownKind' | 'complete' | 'routeContext'>;
  /** ~/.inputrc's `completion-ignore-case`, for what aish completes by itself. */
  ignoreCase?: boolean;
}

/** The prompt's Tab. */
export function lineCompleter(parts: LineCompletionParts): Completer {
  const completer = new ShellCompleter();
  const { config, shell } = parts;

  /**
   * `@<word>`: after `@alias:` the server's resource URIs (and its templates up to their first
   * variable) from the cached list; else paths, and `@alias:` of the servers with resources.
   */
  const completeMention = async (word: string): Promise<[string[], string]> => {
    const sessions = parts.mcp.connected().filter((s) => s.lists.offersResources);
    const colon = word.indexOf(':');
    const session = colon > 0 ? sessions.find((s) => s.alias === word.slice(0, colon)) : undefined;
    if (session) {
      await session.lists.ready();
      return [uriCandidates(session, word.slice(colon + 1)).map((u) => `@${session.alias}:${u}`), `@${word}`];
    }
    const paths = completePath(word, { cwd: shell.cwd, env: shell.env }).map((p) => `@${p}`);
    const aliases = sessions.map((s) => `@${s.alias}:`).filter((a) => a.startsWith(`@${word}`));
    return [[...paths, ...aliases], `@${word}`];
  };

  /**
   * The first word of anything may be a command; later words complete on a shell line only (its
   * first word asked of a running shell, never waited for). What Tab in the session's shell
   * offers, else aish's own completion.
   */
  const completeShell = async (line: string): Promise<Completion> => {
    if (/\s/.test(line.trim())) {
      const word = asksShell(line, config);
      const kind = word === null ? undefined : await shell.wordKind(word, 0);
      if (classify(line, config, (w) => (w === word ? kind : shell.knownKind(w)), shell.routeContext()).kind !== 'shell') return [[], line];
    }
    const body = line.startsWith('$') ? line.slice(1).trimStart() : line;
    const answer = await shell.complete(body);
    const fromShell = answer && shellCandidates(answer, line);
    if (fromShell) return fromShell;
    return completer.complete(line, { cwd: shell.cwd, env: shell.env, knownCommands: config.shell.known_commands, ignoreCase: parts.ignoreCase ?? false });
  };

  return (line) => {
    if (line.startsWith(':')) return completeMeta(line, parts.commands);
    // `@path` in a line for the model: the word after `@` completes as a path.
    const mention = /(?:^|\s)@(\S*)$/.exec(line);
    if (mention) return completeMention(mention[1]!);
    return completeShell(line);
  };
}
