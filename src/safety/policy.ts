// The one approval policy: a pure function from an action the model proposed (a `CMD:` line or a
// tool call, in a normal turn or a Norris step) and the configuration to allow, ask or deny, with
// the reason. Nothing else decides; the gate (gate.ts) only carries the decision out.
//
// Commands: `permissions.deny` > `permissions.confirm` > `permissions.allow`, each matched against
// every command of a compound line, as written and unwrapped (normalize.ts); a destructive command
// or one that changes the session's shell for later commands (a function, an alias, a trap,
// `PATH`, `LD_PRELOAD`…: shell-state.ts) always asks, whatever the rules say; otherwise
// `shell.confirm_cmd` decides (Norris runs non-destructive commands without asking).
// Tool calls: `mcp.auto_approve` (exact names, or `alias__*`); in Norris a tool marked
// destructive asks even when auto-approved; the clock and tool search built-ins never ask.

import type { Config } from '../config/schema.js';
import type { ToolAnnotations } from '../tool-call.js';
import { readLine } from './destructive.js';
import { normalize } from './normalize.js';
import { shellChange } from './shell-state.js';
import { commandsOf } from './shell-words.js';

export type Verdict = 'allow' | 'ask' | 'deny';

/** The reason when nothing but `shell.confirm_cmd` asks: the question itself says that much. */
const CONFIRM_CMD = 'shell.confirm_cmd';

export interface Decision {
  verdict: Verdict;
  /** Why, in words for a status line or `:perms check`. */
  reason: string;
  /** The `permissions` pattern that decided, when one did. */
  rule?: string;
}

export type Action =
  | { type: 'command'; command: string; norris?: boolean }
  | { type: 'tool'; name: string; annotations?: ToolAnnotations | undefined; norris?: boolean };

export interface Policy {
  /** `shell.confirm_cmd`. */
  confirmCommands: boolean;
  permissions: { allow: readonly string[]; confirm: readonly string[]; deny: readonly string[] };
  /** `mcp.auto_approve`. */
  autoApprove: readonly string[];
  /** Whether a redirection target exists (only truncating an existing file is destructive). */
  fileExists?: (path: string) => boolean;
  /** The home folder, for a `~/…` target. */
  home?: string;
}

export function policyFromConfig(config: Config, fileExists?: (path: string) => boolean, home?: string): Policy {
  return {
    confirmCommands: config.shell.confirm_cmd,
    permissions: config.permissions,
    autoApprove: config.mcp.auto_approve,
    ...(fileExists ? { fileExists } : {}),
    ...(home ? { home } : {}),
  };
}

/** Decides `action` under `policy`. Pure. */
export function decide(action: Action, policy: Policy): Decision {
  return action.type === 'command' ? decideCommand(action.command, Boolean(action.norris), policy) : decideTool(action.name, action.annotations, Boolean(action.norris), policy);
}

/** Control characters other than tab and newline: in a shell's line editor they act as keys
 * (Ctrl-C drops what came before, CR starts another command, XON/XOFF vanish), so the line that
 * runs is not the line that was judged. (A `CMD:` line holds no newline; a multi-line command
 * is judged whole, as the shell reads it.) */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

function decideCommand(line: string, norris: boolean, policy: Policy): Decision {
  if (CONTROL.test(line)) return { verdict: 'deny', reason: 'holds a control character (it would act as a key in the shell)' };
  const { fileExists, home } = policy;
  const reading = readLine(line, { ...(fileExists ? { fileExists } : {}), ...(home ? { home } : {}) });
  // Each command as written and as it runs (`\rm x` is `rm x`, `sudo curl` is `curl`).
  const written = commandsOf(line);
  const normalized = normalize(reading.commands);
  const forms = [fold(line), ...written, ...normalized];
  const { allow, confirm, deny } = policy.permissions;
  const denied = firstMatchOfAny(deny, forms);
  if (denied) return { verdict: 'deny', reason: `denied by permissions: ${denied}`, rule: denied };
  const confirmed = firstMatchOfAny(confirm, forms);
  if (confirmed) return { verdict: 'ask', reason: `permissions.confirm: ${confirmed}`, rule: confirmed };
  if (reading.reason !== undefined) return { verdict: 'ask', reason: `destructive command (${reading.reason})` };
  const change = shellChange(reading);
  if (change) return { verdict: 'ask', reason: change };
  // allow: every command, in both forms; a hidden name was destructive above.
  const checked = [...written, ...normalized];
  const allowed = checked.map((c) => firstMatch(allow, c));
  if (written.length > 0 && allowed.every((r) => r !== undefined)) {
    const rules = [...new Set(allowed)].join(', ');
    return { verdict: 'allow', reason: `permissions.allow: ${rules}`, rule: rules };
  }
  if (norris) return { verdict: 'allow', reason: 'Norris: not destructive' };
  return policy.confirmCommands ? { verdict: 'ask', reason: CONFIRM_CMD } : { verdict: 'allow', reason: 'shell.confirm_cmd is off' };
}

/**
 * Whether an "ask" came from `shell.confirm_cmd` alone (not a rule, not a destructive command,
 * not a change to the shell): the question needs no reason, and an edit the person made runs.
 */
export function asksOnlyByConfirmCmd(decision: Decision): boolean {
  return decision.verdict === 'ask' && decision.reason === CONFIRM_CMD;
}

/**
 * The reason a question about `decision` shows above itself: why it asks when that is more than
 * `shell.confirm_cmd` (a destructive command, a change to the shell, `permissions.confirm`); null
 * otherwise, and for what is not asked at all. It quotes the command: show it sanitized.
 */
export function reasonToShow(decision: Decision): string | null {
  return decision.verdict === 'ask' && !asksOnlyByConfirmCmd(decision) ? decision.reason : null;
}

function firstMatchOfAny(patterns: readonly string[], forms: readonly string[]): string | undefined {
  for (const form of forms) {
    const rule = firstMatch(patterns, form);
    if (rule) return rule;
  }
  return undefined;
}

/**
 * Built-in tools that read nothing of the person's (no file, no network, no server): the clock and
 * the tool search. They run without asking; the file built-ins ask like any tool. No MCP server
 * can take these names: the alias `aish` is reserved.
 */
export const SELF_CONTAINED_TOOLS: ReadonlySet<string> = new Set(['aish__current_date', 'aish__find_tools']);

function decideTool(name: string, annotations: ToolAnnotations | undefined, norris: boolean, policy: Policy): Decision {
  if (SELF_CONTAINED_TOOLS.has(name)) return { verdict: 'allow', reason: 'built-in tool that reads nothing of yours' };
  const entry = policy.autoApprove.find((e) => autoApproves(e, name));
  if (entry && norris && annotations?.destructiveHint) return { verdict: 'ask', reason: 'the tool is marked destructive' };
  if (entry) return { verdict: 'allow', reason: `mcp.auto_approve: ${entry}`, rule: entry };
  return { verdict: 'ask', reason: 'not in mcp.auto_approve' };
}

/** Whether an auto_approve entry covers `name`: exact, or `alias__*` for that alias only. */
function autoApproves(entry: string, name: string): boolean {
  return entry === name || (entry.endsWith('__*') && name.startsWith(entry.slice(0, -1)));
}

/** Whether `name` is approved by an auto_approve list. `web__*` matches `web__x`, not `webhooks__x`. */
export function isAutoApproved(name: string, list: readonly string[]): boolean {
  return list.some((entry) => autoApproves(entry, name));
}

/**
 * The first of `patterns` (`privacy.private_commands`) that matches a command of `line`, read as
 * the permissions read it: the line whole and each command in it, as written and as it runs
 * (`sudo pass show x` and `cd ~ && pass show x` are `pass show x`). Pure.
 */
export function privateMatch(patterns: readonly string[], line: string): string | undefined {
  if (patterns.length === 0) return undefined;
  const forms = [fold(line), ...commandsOf(line), ...normalize(readLine(line).commands)];
  return firstMatchOfAny(patterns, forms);
}

/**
 * The first pattern that matches the whole command; spaces are folded. A `*` after a space or
 * alone matches any text (`git *`); glued to the end of a word it means that word, then
 * optionally a space and anything (`git diff*` matches `git diff --stat`, not `git difftool`);
 * between two characters of a word it matches within that word (`a*b`).
 */
export function firstMatch(patterns: readonly string[], command: string): string | undefined {
  const text = fold(command);
  return patterns.find((p) => globToRegExp(fold(p)).test(text));
}

function fold(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function globToRegExp(pattern: string): RegExp {
  let body = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c !== '*') {
      body += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
      continue;
    }
    const gluedBefore = i > 0 && pattern[i - 1] !== ' ' && pattern[i - 1] !== '*';
    const gluedAfter = i + 1 < pattern.length && pattern[i + 1] !== ' ';
    body += !gluedBefore ? '[\\s\\S]*' : gluedAfter ? '\\S*' : '(?: [\\s\\S]*)?';
  }
  return new RegExp(`^${body}$`);
}
