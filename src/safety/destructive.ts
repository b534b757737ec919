// Is a shell command destructive? (SPEC §11) The line is parsed like a shell would (quotes,
// `;` `&&` `|`, groups, substitutions, here-documents), each simple command is stripped of its
// wrappers (`sudo`, `env`, `xargs`, `/bin/`…) and judged by its program's rule, and what a command
// hands to a shell (`bash -c`, `eval`, `| sh`, `find -exec`) is judged the same way. Code the
// check cannot read (`python -c`, a command named by `$VAR`) counts as destructive: a false
// positive costs a question, a false negative costs data. Pure: no file system, no processes.

import { commandName, firstReason, isHiddenName, unwrap, type Call } from './command-line.js';
import { redirectReason, ruleFor } from './command-rules.js';
import { hidingRuleFor } from './hidden-commands.js';
import type { Word } from './shell-lexer.js';
import { parseShell, substitutionsOf, type SimpleCommand } from './shell-words.js';

export interface DestructiveOptions {
  /**
   * Whether a file exists, for truncating redirections (`> file`, `tee file`): without it every
   * such target counts as existing; with it only one that exists does.
   */
  fileExists?: (path: string) => boolean;
}

export interface DestructiveVerdict {
  destructive: boolean;
  /** The rule that matched, for the HALT gate (`rm -r -f`, `git push --force`); '' when none. */
  reason: string;
}

interface Context {
  options: DestructiveOptions;
  depth: number;
  /** How the command runs once per name, when it does (`xargs`, `find -exec`). */
  batch?: string;
}

interface Input {
  piped: boolean;
  stdin: string[];
}

/** Deeper than this (`bash -c "eval \"sh -c …\""`) a line is not read further: it asks. */
const MAX_DEPTH = 8;
/** Run on a list of names (`xargs rm`, `find -exec chmod`), these are destructive as they stand. */
const BATCH_DESTRUCTIVE = new Set(['rm', 'unlink', 'shred', 'truncate', 'chmod', 'chown', 'chgrp', 'kill']);
const ECHOES = new Set(['echo', 'printf']);
const NO_INPUT: Input = { piped: false, stdin: [] };

/** Whether `command` should stop at the HALT gate, and why. Pure; never throws. */
export function isDestructive(command: string, options: DestructiveOptions = {}): DestructiveVerdict {
  const reason = judgeScript(command, { options, depth: 0 });
  return reason === undefined ? { destructive: false, reason: '' } : { destructive: true, reason };
}

function judgeScript(source: string, ctx: Context): string | undefined {
  if (ctx.depth > MAX_DEPTH) return 'nested too deeply to read';
  const commands = parseShell(source);
  const deeper: Context = { ...ctx, depth: ctx.depth + 1 };
  const judgeCommand = (command: SimpleCommand) =>
    firstReason(substitutionsOf(command), (inner) => judgeScript(inner, deeper)) ??
    firstReason(command.redirects, (r) => redirectReason(r, ctx.options.fileExists)) ??
    judgeWords(command.words, inputOf(command), ctx);
  return firstReason(commands, judgeCommand) ?? forkBomb(commands);
}

function judgeWords(words: readonly Word[], input: Input, ctx: Context): string | undefined {
  const unwrapped = unwrap(words);
  const [first, ...args] = unwrapped.words;
  if (!first) return undefined;
  if (isHiddenName(first)) return `a command named by an expansion (${first.text})`;
  const name = commandName(first);
  const batch = unwrapped.batch ?? ctx.batch;
  if (batch && BATCH_DESTRUCTIVE.has(name)) return `${batch} ${name}`;
  const inner: Context = { ...ctx, depth: ctx.depth + 1, batch };
  const call: Call = {
    name,
    args: args.map((w) => w.text),
    words: args,
    ...input,
    fileExists: ctx.options.fileExists,
    judgeScript: (source) => judgeScript(source, inner),
    judgeCommand: (command, how) => judgeWords(command, NO_INPUT, { ...inner, batch: how }),
  };
  return (hidingRuleFor(name) ?? ruleFor(name))?.(call);
}

/** What a command reads on its input, as far as the line shows it. */
function inputOf(command: SimpleCommand): Input {
  const { upstream } = command;
  const echoed = upstream?.words[0] && ECHOES.has(commandName(upstream.words[0])) ? [upstream.words.slice(1).map((w) => w.text).join(' ')] : [];
  return { piped: command.piped, stdin: [...bodiesOf(command), ...(upstream ? bodiesOf(upstream) : []), ...echoed] };
}

function bodiesOf(command: SimpleCommand): string[] {
  return command.redirects.flatMap((r) => (r.body === undefined ? [] : [r.body]));
}

/** A function that calls itself twice in its own body (`:(){ :|:& };:`). */
function forkBomb(commands: readonly SimpleCommand[]): string | undefined {
  const selfCalls = commands.flatMap((c) => (c.inFunction !== undefined && c.words[0]?.text === c.inFunction ? [c.inFunction] : []));
  return selfCalls.some((name, i) => selfCalls.indexOf(name) !== i) ? 'a fork bomb' : undefined;
}
