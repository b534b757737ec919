// The one gate that asks. It takes the policy's decision (policy.ts) for a `CMD:` line, a tool call
// or a Norris step and, when the verdict is "ask", puts the question to the person: `execute
// '<cmd>'? [y/N]`, `call '<name>'? [y/N/a]` (with the arguments shown in full first), or the
// Norris HALT `proceed / skip / abort`. Anything but an explicit yes declines; with nobody to ask
// (piped input) the answer is no, and a HALT aborts. "a" approves a tool for this session, on this
// instance only.

import type { ToolAnnotations } from '../tool-call.js';
import { parseAnswer, type AskFn } from './confirm.js';
import { decide, type Action, type Decision, type Policy } from './policy.js';

export interface GateDecision {
  approved: boolean;
  /** Who decided: the policy, the person, an earlier "always", or nobody (no terminal). */
  by: 'policy' | 'user' | 'always' | 'no-terminal';
}

/** Decides whether a tool call runs; the signal cancels a question being asked. */
export interface ToolGate {
  decide(name: string, args: Record<string, unknown>, annotations: ToolAnnotations | undefined, signal: AbortSignal): Promise<GateDecision>;
}

export type HaltAnswer = 'proceed' | 'skip' | 'abort';

/** What the gate decided about a `CMD:` line; `command` is what runs (edited, perhaps). */
export interface CommandApproval extends GateDecision {
  decision: Decision;
  command: string;
}

/** How many times one command may be edited at its question. */
const MAX_EDITS = 5;

export interface ApprovalGateOptions {
  policy: Policy;
  /** Asks the person; null when nobody can answer (no terminal). */
  ask: AskFn | null;
  /** Shows what a question is about (tool arguments) before it is asked. */
  show: (text: string) => void;
}

export class ApprovalGate implements ToolGate {
  readonly #always = new Set<string>();
  readonly #opts: ApprovalGateOptions;

  constructor(opts: ApprovalGateOptions) {
    this.#opts = opts;
  }

  /** Whether anyone can be asked. */
  get canAsk(): boolean {
    return this.#opts.ask !== null;
  }

  /** The policy's decision, without asking. */
  judge(action: Action): Decision {
    return decide(action, this.#opts.policy);
  }

  /**
   * A `CMD:` line outside Norris: the decision, whether it runs, and the command that runs. `e`
   * puts the command on the input line to edit; the edited command goes through the same policy
   * (denied, or asked again when destructive or under permissions.confirm; otherwise Enter runs it).
   */
  async command(command: string, signal: AbortSignal): Promise<CommandApproval> {
    let current = command;
    let decision = this.judge({ type: 'command', command: current });
    const { ask } = this.#opts;
    for (let edits = 0; ; edits++) {
      if (decision.verdict !== 'ask') return { decision, command: current, approved: decision.verdict === 'allow', by: 'policy' };
      if (!ask || signal.aborted) return { decision, command: current, approved: false, by: ask ? 'user' : 'no-terminal' };
      const answer = parseAnswer(await ask(`execute '${current}'? [y/N/e] `), false, edits < MAX_EDITS);
      if (answer !== 'edit' || signal.aborted) return { decision, command: current, approved: answer === 'yes' && !signal.aborted, by: 'user' };
      const edited = (await ask('edit: ', current))?.trim();
      if (!edited || signal.aborted) return { decision, command: current, approved: false, by: 'user' };
      current = edited;
      decision = this.judge({ type: 'command', command: current });
      // Edited by the person: Enter runs it unless the rules themselves ask (not only confirm_cmd).
      if (decision.verdict === 'ask' && decision.reason === 'shell.confirm_cmd') {
        return { decision: { verdict: 'allow', reason: 'edited and run by the user' }, command: current, approved: true, by: 'user' };
      }
    }
  }

  /** A tool call outside Norris (ToolGate). */
  async decide(name: string, args: Record<string, unknown>, annotations: ToolAnnotations | undefined, signal: AbortSignal): Promise<GateDecision> {
    const decision = this.judge({ type: 'tool', name, annotations });
    if (decision.verdict === 'allow') return { approved: true, by: 'policy' };
    if (decision.verdict === 'deny') return { approved: false, by: 'policy' };
    if (this.#always.has(name)) return { approved: true, by: 'always' };
    const { ask, show } = this.#opts;
    if (!ask) return { approved: false, by: 'no-terminal' };
    if (signal.aborted) return { approved: false, by: 'user' };
    show(`${name}${annotationLabel(annotations)} ${describeArguments(args)}`);
    const answer = parseAnswer(await ask(`call '${name}'? [y/N/a] `), true);
    if (signal.aborted) return { approved: false, by: 'user' };
    if (answer === 'always') this.#always.add(name);
    return { approved: answer !== 'no', by: 'user' };
  }

  /**
   * A server's request for a model answer (MCP sampling): the prompt is shown in full, then
   * `[aish] mcp <alias> asks the model: <start of its question>  [y/N]`. With nobody to ask, `mcp.sampling`
   * decides (`whenAlone`).
   */
  async sampling(alias: string, prompt: string, question: string, whenAlone: 'deny' | 'allow', signal: AbortSignal): Promise<GateDecision> {
    const { ask, show } = this.#opts;
    if (!ask) return { approved: whenAlone === 'allow', by: 'policy' };
    if (signal.aborted) return { approved: false, by: 'user' };
    show(prompt);
    const flat = question.replace(/\s+/g, ' ').trim();
    const preview = flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
    const answer = parseAnswer(await ask(`[aish] mcp ${alias} asks the model: ${preview}  [y/N] `), false);
    return { approved: answer === 'yes' && !signal.aborted, by: 'user' };
  }

  /**
   * Norris without a sandbox: `[Norris] no sandbox here: run '<cmd>'? [y/N/a]` ("a": the rest of
   * this run). Defaults to no; with nobody to ask the answer is 'nobody' (the run aborts).
   */
  async unboxed(command: string): Promise<'yes' | 'no' | 'always' | 'nobody'> {
    const { ask } = this.#opts;
    if (!ask) return 'nobody';
    return parseAnswer(await ask(`[Norris] no sandbox here: run '${command}'? [y/N/a] `), true) as 'yes' | 'no' | 'always';
  }

  /** The Norris HALT question about `what`; with nobody to ask it aborts. */
  async halt(what: string): Promise<HaltAnswer> {
    const { ask } = this.#opts;
    if (!ask) return 'abort';
    const answer = ((await ask(`[Norris] ${what}\n  proceed / skip / abort? [p/s/A] `)) ?? '').trim().toLowerCase();
    if (answer === 'p' || answer === 'proceed') return 'proceed';
    if (answer === 's' || answer === 'skip') return 'skip';
    return 'abort';
  }
}

/** Pretty JSON of a call's arguments, for the question (the sanitizer makes the rest visible). */
export function describeArguments(args: Record<string, unknown>): string {
  return JSON.stringify(args, null, 2);
}

/** Hints a server gave about a tool, for the question: `[read-only]`, `[destructive]`. */
export function annotationLabel(a: ToolAnnotations | undefined): string {
  if (!a) return '';
  const labels: string[] = [];
  if (a.readOnlyHint) labels.push('read-only');
  if (a.destructiveHint) labels.push('destructive');
  if (a.destructiveHint === false && !a.readOnlyHint) labels.push('not destructive');
  return labels.length ? ` [${labels.join(', ')}]` : '';
}
