// The confirm gate for tool calls (SPEC §6): `mcp.auto_approve` names (exact, or `alias__*` for one
// server) pass; otherwise the person is asked `call '<name>'? [y/N/a]` with the arguments in full.
// "a" approves that tool for the rest of the session (kept on this instance, not globally).

import type { ToolAnnotations } from '../tool-call.js';
import { parseAnswer, type AskFn } from './confirm.js';

/** Whether `name` is approved by an auto_approve list. `web__*` matches `web__x`, not `webhooks__x`. */
export function isAutoApproved(name: string, policy: readonly string[]): boolean {
  for (const entry of policy) {
    if (entry === name) return true;
    if (entry.endsWith('__*') && name.startsWith(entry.slice(0, -1))) return true;
  }
  return false;
}

/** Pretty JSON with control characters made visible (`\u001b` stays escaped, as JSON does). */
export function describeArguments(args: Record<string, unknown>): string {
  return JSON.stringify(args, null, 2);
}

/** Hints a server gave about a tool, for the prompt: `[read-only]`, `[destructive]`. */
export function annotationLabel(a: ToolAnnotations | undefined): string {
  if (!a) return '';
  const labels: string[] = [];
  if (a.readOnlyHint) labels.push('read-only');
  if (a.destructiveHint) labels.push('destructive');
  if (a.destructiveHint === false && !a.readOnlyHint) labels.push('not destructive');
  return labels.length ? ` [${labels.join(', ')}]` : '';
}

export interface GateDecision {
  approved: boolean;
  /** Who decided: the auto_approve policy, the person, an earlier "always", or nobody (no terminal). */
  by: 'policy' | 'user' | 'always' | 'no-terminal';
}

/** Decides whether a tool call runs; the signal cancels a question being asked. */
export interface ToolGate {
  decide(name: string, args: Record<string, unknown>, annotations: ToolAnnotations | undefined, signal: AbortSignal): Promise<GateDecision>;
}

export interface ConfirmToolGateOptions {
  policy: readonly string[];
  /** Asks the person; null when nobody can answer (no terminal). */
  ask: AskFn | null;
  /** Shows the arguments before the question. */
  show: (text: string) => void;
}

export class ConfirmToolGate implements ToolGate {
  readonly #always = new Set<string>();

  constructor(private readonly opts: ConfirmToolGateOptions) {}

  async decide(name: string, args: Record<string, unknown>, annotations: ToolAnnotations | undefined, signal: AbortSignal): Promise<GateDecision> {
    if (isAutoApproved(name, this.opts.policy)) return { approved: true, by: 'policy' };
    if (this.#always.has(name)) return { approved: true, by: 'always' };
    if (!this.opts.ask) return { approved: false, by: 'no-terminal' };
    if (signal.aborted) return { approved: false, by: 'user' };
    this.opts.show(`${name}${annotationLabel(annotations)} ${describeArguments(args)}`);
    const answer = parseAnswer(await this.opts.ask(`call '${name}'? [y/N/a] `), true);
    if (signal.aborted) return { approved: false, by: 'user' };
    if (answer === 'always') this.#always.add(name);
    return { approved: answer !== 'no', by: 'user' };
  }
}
