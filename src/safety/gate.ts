// The one gate that asks. It takes the policy's decision (policy.ts) for a `CMD:` line, a tool call
// or a Norris step and, when the verdict is "ask", puts the question to the person: `execute
// '<cmd>'? [y/N/e/p]` (`p` previews it, src/preview/; the policy's reason above it when it is more
// than `shell.confirm_cmd`), `call '<name>'? [y/N/a]` (with the
// arguments shown in full first), or the Norris HALT `proceed / skip / abort`. Each is answered
// by one key on a terminal; the command or arguments it quotes go with it as its subject, for the
// asker to show whole (render/question.ts).
// Anything but an explicit yes declines; with nobody to ask (piped input) the answer is no, and a
// HALT aborts. "a" approves a tool for this session, on this instance only.

import type { ToolAnnotations } from '../tool-call.js';
import { keysFromLine, plainQuestion, type AskFn, type AskKeyFn, type KeyQuestion } from './confirm.js';
import { asksOnlyByConfirmCmd, decide, reasonToShow, type Action, type Decision, type Policy } from './policy.js';

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
  /** Asks the person for a line (an edited command); null when nobody can answer (no terminal). */
  ask: AskFn | null;
  /** Asks a question answered by one key; when not given, `ask` is asked and its line read as the key. */
  askKey?: AskKeyFn | null;
  /** Shows what a question is about before it is asked: a sampling prompt, or a call's name and arguments ('arguments': shown whole, readable). */
  show: (text: string, kind?: 'arguments') => void;
  /** Runs a command in a throwaway view and shows what it would change (`p` at `execute …?`); none: not offered. */
  preview?: (command: string, signal: AbortSignal) => Promise<void>;
}

export class ApprovalGate implements ToolGate {
  readonly #always = new Set<string>();
  readonly #opts: ApprovalGateOptions;
  readonly #askKey: AskKeyFn | null;

  constructor(opts: ApprovalGateOptions) {
    this.#opts = opts;
    this.#askKey = opts.askKey ?? (opts.ask ? keysFromLine(opts.ask) : null);
  }

  /** Whether anyone can be asked. */
  get canAsk(): boolean {
    return this.#askKey !== null;
  }

  /** Asks `q`; null when nobody can answer or nobody did. */
  async #key(q: KeyQuestion): Promise<string | null> {
    return this.#askKey ? this.#askKey(q) : null;
  }

  /** The policy's decision, without asking. */
  judge(action: Action): Decision {
    return decide(action, this.#opts.policy);
  }

  /**
   * A `CMD:` line outside Norris: the decision, whether it runs, and the command that runs. `e`
   * puts the command on the input line to edit; the edited command goes through the same policy
   * (denied, or asked again when destructive or under permissions.confirm; otherwise Enter runs it).
   * An edit that changes nothing asks again: `e` then Enter out of habit must not run it. With a
   * previewer, `p` previews the command and asks again without `p` (an edited command offers it
   * anew); a command the policy denies is never asked about, so never previewed.
   */
  async command(command: string, signal: AbortSignal): Promise<CommandApproval> {
    let current = command;
    let decision = this.judge({ type: 'command', command: current });
    let previewed: string | null = null;
    let edits = 0;
    const { ask, preview } = this.#opts;
    for (;;) {
      if (decision.verdict !== 'ask') return { decision, command: current, approved: decision.verdict === 'allow', by: 'policy' };
      if (!this.#askKey || signal.aborted) return { decision, command: current, approved: false, by: this.#askKey ? 'user' : 'no-terminal' };
      const offerPreview = preview !== undefined && previewed !== current;
      const choices = offerPreview ? 'y/N/e/p' : 'y/N/e';
      const why = reasonToShow(decision);
      const key = await this.#key({ before: "execute '", subject: current, after: `'? [${choices}] `, kind: 'command', keys: offerPreview ? 'ynep' : 'yne', fallback: 'n', ...(why ? { why } : {}) });
      if (key === 'p' && offerPreview && !signal.aborted) {
        await preview(current, signal);
        previewed = current;
        continue;
      }
      const edit = key === 'e' && edits < MAX_EDITS && ask !== null;
      if (!edit || signal.aborted) return { decision, command: current, approved: key === 'y' && !signal.aborted, by: 'user' };
      edits++;
      const edited = (await ask('edit: ', current))?.trim();
      if (!edited || signal.aborted) return { decision, command: current, approved: false, by: 'user' };
      if (edited === current) continue;
      current = edited;
      decision = this.judge({ type: 'command', command: current });
      // Edited by the person: Enter runs it unless the rules themselves ask (not only confirm_cmd).
      if (asksOnlyByConfirmCmd(decision)) {
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
    const { show } = this.#opts;
    if (!this.#askKey) return { approved: false, by: 'no-terminal' };
    if (signal.aborted) return { approved: false, by: 'user' };
    show(`${name}${annotationLabel(annotations)} ${describeArguments(args)}`, 'arguments');
    const key = await this.#key(plainQuestion(`call '${name}'? [y/N/a] `, 'yna', 'n'));
    if (signal.aborted) return { approved: false, by: 'user' };
    if (key === 'a') this.#always.add(name);
    return { approved: key === 'y' || key === 'a', by: 'user' };
  }

  /**
   * A server's request for a model answer (MCP sampling): the prompt is shown in full, then
   * `[aish] mcp <alias> asks the model: <start of its question>  [y/N]`. With nobody to ask, `mcp.sampling`
   * decides (`whenAlone`).
   */
  async sampling(alias: string, prompt: string, question: string, whenAlone: 'deny' | 'allow', signal: AbortSignal): Promise<GateDecision> {
    const { show } = this.#opts;
    if (!this.#askKey) return { approved: whenAlone === 'allow', by: 'policy' };
    if (signal.aborted) return { approved: false, by: 'user' };
    show(prompt);
    const flat = question.replace(/\s+/g, ' ').trim();
    const preview = flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
    const key = await this.#key(plainQuestion(`[aish] mcp ${alias} asks the model: ${preview}  [y/N] `, 'yn', 'n'));
    return { approved: key === 'y' && !signal.aborted, by: 'user' };
  }

  /**
   * Norris without a sandbox: `[Norris] no sandbox here: run '<cmd>'? [y/N/a]` ("a": the rest of
   * this run). Defaults to no; with nobody to ask the answer is 'nobody' (the run aborts).
   */
  async unboxed(command: string): Promise<'yes' | 'no' | 'always' | 'nobody'> {
    if (!this.#askKey) return 'nobody';
    const key = await this.#key({ before: "[Norris] no sandbox here: run '", subject: command, after: "'? [y/N/a] ", kind: 'command', keys: 'yna', fallback: 'n' });
    return key === 'y' ? 'yes' : key === 'a' ? 'always' : 'no';
  }

  /**
   * The Norris HALT question: `what`, then the command (or a call's arguments) it is about, shown
   * whole; with nobody to ask it aborts.
   */
  async halt(what: string, subject = '', kind: KeyQuestion['kind'] = 'command'): Promise<HaltAnswer> {
    if (!this.#askKey) return 'abort';
    const key = await this.#key({ before: `[Norris] ${what}`, subject, after: '\n  proceed / skip / abort? [p/s/A] ', kind, keys: 'psa', fallback: 'a' });
    if (key === 'p') return 'proceed';
    if (key === 's') return 'skip';
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
