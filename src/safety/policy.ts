// The one approval policy: a pure function from an action the model proposed (a `CMD:` line or a
// tool call, in a normal turn or a Norris step) and the configuration to allow, ask or deny, with
// the reason. Nothing else decides; the gate (gate.ts) only carries the decision out.
//
// Commands: `permissions.deny` > `permissions.confirm` > `permissions.allow`, each matched against
// every command of a compound line; a destructive command always asks, whatever the rules say;
// otherwise `shell.confirm_cmd` decides (Norris runs non-destructive commands without asking).
// Tool calls: `mcp.auto_approve` (exact names, or `alias__*`); in Norris a tool marked
// destructive asks even when auto-approved; the clock and tool search built-ins never ask.

import type { Config } from '../config/schema.js';
import type { ToolAnnotations } from '../tool-call.js';
import { isDestructive } from './destructive.js';
import { commandsOf } from './shell-words.js';

export type Verdict = 'allow' | 'ask' | 'deny';

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
}

export function policyFromConfig(config: Config, fileExists?: (path: string) => boolean): Policy {
  return {
    confirmCommands: config.shell.confirm_cmd,
    permissions: config.permissions,
    autoApprove: config.mcp.auto_approve,
    ...(fileExists ? { fileExists } : {}),
  };
}

/** Decides `action` under `policy`. Pure. */
export function decide(action: Action, policy: Policy): Decision {
  return action.type === 'command' ? decideCommand(action.command, Boolean(action.norris), policy) : decideTool(action.name, action.annotations, Boolean(action.norris), policy);
}

function decideCommand(line: string, norris: boolean, policy: Policy): Decision {
  const commands = commandsOf(line);
  const { allow, confirm, deny } = policy.permissions;
  for (const command of commands) {
    const rule = firstMatch(deny, command);
    if (rule) return { verdict: 'deny', reason: `denied by permissions: ${rule}`, rule };
  }
  for (const command of commands) {
    const rule = firstMatch(confirm, command);
    if (rule) return { verdict: 'ask', reason: `permissions.confirm: ${rule}`, rule };
  }
  const destructive = isDestructive(line, policy.fileExists ? { fileExists: policy.fileExists } : {});
  if (destructive.destructive) return { verdict: 'ask', reason: `destructive command (${destructive.reason})` };
  const allowed = commands.map((c) => firstMatch(allow, c));
  if (commands.length > 0 && allowed.every((r) => r !== undefined)) {
    const rules = [...new Set(allowed)].join(', ');
    return { verdict: 'allow', reason: `permissions.allow: ${rules}`, rule: rules };
  }
  if (norris) return { verdict: 'allow', reason: 'Norris: not destructive' };
  return policy.confirmCommands ? { verdict: 'ask', reason: 'shell.confirm_cmd' } : { verdict: 'allow', reason: 'shell.confirm_cmd is off' };
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

/** The first pattern that matches the whole command; `*` matches any text, spaces are folded. */
export function firstMatch(patterns: readonly string[], command: string): string | undefined {
  const text = fold(command);
  return patterns.find((p) => globToRegExp(fold(p)).test(text));
}

function fold(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${body}$`);
}
