// Is a shell command destructive? (SPEC §11) The line is parsed like a shell would (quotes,
// `;` `&&` `|`, groups, substitutions, here-documents), each simple command is stripped of its
// wrappers (`sudo`, `env`, `xargs`, `/bin/`…) and judged by its program's rule, and what a command
// hands to a shell (`bash -c`, `eval`, `| sh`, `find -exec`) is judged the same way. Code the
// check cannot read (`python -c`, a command named by `$VAR`) counts as destructive: a false
// positive costs a question, a false negative costs data. Pure: no file system, no processes.

import { ASSIGNMENT, commandName, firstReason, isHiddenName, unwrap, type Call } from './command-line.js';
import { ruleFor } from './command-rules.js';
import { assignmentReason } from './definition-rules.js';
import { redirectReason } from './file-rules.js';
import { hidingRuleFor } from './hidden-commands.js';
import type { Word } from './shell-lexer.js';
import { parseScript, substitutionsOf, type SimpleCommand } from './shell-words.js';

export interface DestructiveOptions {
  /**
   * Whether a file exists, for truncating redirections (`> file`, `tee file`, `cp x file`):
   * without it every such target counts as existing; with it only one that exists does.
   */
  fileExists?: (path: string) => boolean;
  /** The home folder, for `~/x` targets; without it such a target counts as existing. */
  home?: string;
}

export interface DestructiveVerdict {
  destructive: boolean;
  /** The rule that matched, for the HALT gate (`rm -r -f`, `git push --force`); '' when none. */
  reason: string;
}

/** One simple command of a line as the check read it, inner ones (`bash -c`, `$(…)`) included. */
export interface SeenCommand {
  /** The program's name (a path's last part) and its arguments, unwrapped and unquoted. */
  words: string[];
  /** The name is an expansion, a glob or a brace expansion: what runs is not known. */
  hidden: boolean;
  /** The `NAME=value` words before it, wrappers' included (`env PATH=x cmd`). */
  assignments: string[];
}

export interface LineReading {
  /** Why the line is destructive, or undefined. */
  reason: string | undefined;
  commands: SeenCommand[];
  /** The functions it defines, inner scripts' (`eval`, `bash -c`) included. */
  functions: string[];
}

interface Context {
  options: DestructiveOptions;
  depth: number;
  /** How the command runs once per name, when it does (`xargs`, `find -exec`). */
  batch?: string;
  /** A `cd` ran earlier on the line: a relative target is not where the caller would look. */
  movedDir?: boolean;
  seen: SeenCommand[];
  functions: string[];
}

interface Input {
  piped: boolean;
  stdin: string[];
}

/** Deeper than this (`bash -c "eval \"sh -c …\""`) a line is not read further: it asks. */
const MAX_DEPTH = 8;
/** Run on a list of names (`xargs rm`, `find -exec chmod`), these are destructive as they stand. */
const BATCH_DESTRUCTIVE = new Set(['rm', 'unlink', 'shred', 'truncate', 'chmod', 'chown', 'chgrp', 'kill']);
const CHANGES_DIR = new Set(['cd', 'pushd', 'popd']);
const ECHOES = new Set(['echo', 'printf']);
const NO_INPUT: Input = { piped: false, stdin: [] };

/** Whether `command` should stop at the HALT gate, and why. Pure; never throws. */
export function isDestructive(command: string, options: DestructiveOptions = {}): DestructiveVerdict {
  const { reason } = readLine(command, options);
  return reason === undefined ? { destructive: false, reason: '' } : { destructive: true, reason };
}

/** The verdict on `line` and every command the check read in it. Pure; never throws. */
export function readLine(line: string, options: DestructiveOptions = {}): LineReading {
  const seen: SeenCommand[] = [];
  const functions: string[] = [];
  return { reason: judgeScript(line, { options, depth: 0, seen, functions }), commands: seen, functions };
}

function judgeScript(source: string, ctx: Context): string | undefined {
  if (ctx.depth > MAX_DEPTH) return 'nested too deeply to read';
  const { commands, functions } = parseScript(source);
  ctx.functions.push(...functions);
  let movedDir = ctx.movedDir;
  // Every command is read, after a reason too, so the policy sees them all.
  const reasons = commands.map((command) => {
    const here: Context = { ...ctx, movedDir };
    const reason = judgeCommand(command, here);
    const name = unwrap(command.words).words[0];
    if (name && CHANGES_DIR.has(commandName(name))) movedDir = true;
    // A definition's body runs each time the function is called.
    return reason !== undefined && command.inFunction !== undefined ? `${reason} in function '${command.inFunction}'` : reason;
  });
  return reasons.find((r) => r !== undefined) ?? forkBomb(commands);
}

function judgeCommand(command: SimpleCommand, ctx: Context): string | undefined {
  const deeper: Context = { ...ctx, depth: ctx.depth + 1 };
  const exists = existsFor(ctx);
  const reasons = [
    ...substitutionsOf(command).map((inner) => judgeScript(inner, deeper)),
    ...command.redirects.map((r) => redirectReason(r, exists)),
    judgeWords(command.words, inputOf(command), ctx),
  ];
  return reasons.find((r) => r !== undefined);
}

/** `fileExists` as the rules ask it: `~` expanded, a glob, `~user` or a path after `cd` as existing. */
function existsFor({ options: { fileExists, home }, movedDir }: Context): ((path: string) => boolean) | undefined {
  if (!fileExists) return undefined;
  return (target) => {
    if (/[*?[]/.test(target) || /^~[^/]/.test(target)) return true;
    if (target === '~' || target.startsWith('~/')) return home === undefined || fileExists(home + target.slice(1));
    return (movedDir === true && !target.startsWith('/')) || fileExists(target);
  };
}

function judgeWords(words: readonly Word[], input: Input, ctx: Context): string | undefined {
  const unwrapped = unwrap(words);
  const [first, ...args] = unwrapped.words;
  const hidden = first !== undefined && isHiddenName(first);
  const name = first === undefined ? '' : hidden ? first.text : commandName(first);
  const start = first === undefined ? words.length : Math.max(words.indexOf(first), 0);
  const assignments = words.slice(0, start).flatMap((w) => (ASSIGNMENT.test(w.text) ? [w.text] : []));
  ctx.seen.push({ words: first === undefined ? [] : [name, ...args.map((w) => w.text)], hidden, assignments });
  const stored = firstReason(assignments, (a) => assignmentReason(a, (source) => judgeScript(source, { ...ctx, depth: ctx.depth + 1 })));
  if (stored !== undefined || !first) return stored;
  if (hidden) return `a command named by an expansion (${first.text})`;
  const batch = unwrapped.batch ?? ctx.batch;
  if (batch && BATCH_DESTRUCTIVE.has(name)) return `${batch} ${name}`;
  const inner: Context = { ...ctx, depth: ctx.depth + 1, batch };
  const call: Call = {
    name,
    args: args.map((w) => w.text),
    words: args,
    ...input,
    ...(ctx.options.fileExists ? { fileExists: existsFor(ctx) } : {}),
    judgeScript: (source, how) => judgeScript(source, how ? { ...inner, batch: how } : inner),
    judgeCommand: (command, how) => judgeWords(command, NO_INPUT, how ? { ...inner, batch: how } : inner),
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
