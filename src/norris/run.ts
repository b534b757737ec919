// Norris mode (SPEC §11): an autonomous loop toward a goal, one model round trip per step. Tool
// calls are handled first, then CMD: lines; non-destructive commands run without asking, a
// destructive one (or a tool call without auto-approval, or a tool marked destructive) stops at
// the HALT gate: proceed / skip / abort. Ends on the exact line `GOAL: complete` (after all of
// that reply's actions ran), on abort, when stalled, or when the step budget is spent; the
// conversation is kept in every case.

import path from 'node:path';
import { annotationLabel, describeArguments, type ApprovalGate, type GateDecision, type ToolGate } from '../safety/gate.js';
import type { ToolAnnotations } from '../tool-call.js';
import { extractCmdLines } from '../cmd-contract.js';
import type { RequestResult } from '../turn/tool-loop.js';

export type NorrisEnd = 'done' | 'stalled' | 'aborted' | 'halted' | 'budget' | 'error';

export const GOAL_LINE = 'GOAL: complete';
export const SKIPPED_CMD = '[aish] CMD skipped by user';

/**
 * A step's preview (`norris.preview`, src/preview/): the files that existed and it would delete or
 * change, and those it would create (real paths), with how to name them; or why there is none.
 */
export type StepPreview =
  | { type: 'done'; touched: readonly string[]; created: readonly string[]; show: (file: string) => string }
  | { type: 'none'; why: string };

export interface NorrisHost {
  /** One model round trip (tool calls included, depth 1); null content continues after tools. */
  request(content: string | null, gate: ToolGate, norrisSuffix: string, signal: AbortSignal): Promise<RequestResult>;
  /** Runs a command exactly as a typed shell line (step `step` of the run); its output goes to the pending buffer. */
  runCommand(command: string, signal: AbortSignal, step: number): Promise<void>;
  /** Adds a note for the model to the pending output. */
  note(text: string): void;
  /** The one approval gate: the policy decides, HALT asks (nobody to ask: abort). */
  gate: ApprovalGate;
  status(message: string): void;
  /** Turns summarizing on eviction off for the run (SPEC §11), and back on after. */
  setSummarizing(enabled: boolean): void;
  maxSteps: number;
  /**
   * Where commands run: 'boxed' (the sandbox), or without one, 'ask' before each command the
   * policy let through (`[Norris] no sandbox here: run '<cmd>'? [y/N/a]`) or 'allow' them.
   */
  box: 'boxed' | 'ask' | 'allow';
  /** For 'boxed': what the box allows, told to the model with the goal. */
  boxRules?: string;
  /**
   * `norris.second_opinion`: asks another model whether a command the static check passed is
   * destructive; true (or a failure to answer) means HALT. Cached per session by the host.
   */
  secondOpinion?: (command: string, signal: AbortSignal) => Promise<boolean>;
  /**
   * `norris.preview`: runs a command in a preview first (shown to the person). A step whose
   * preview would delete or change a file that existed before the run, or that has no preview,
   * HALTs; files the run's own earlier steps created do not count.
   */
  preview?: (command: string, signal: AbortSignal) => Promise<StepPreview>;
}

/** The block that ends the system message while Norris runs; it carries the goal. */
export function norrisSuffix(goal: string, boxRules?: string): string {
  return [
    '[NORRIS MODE] You are working autonomously toward this goal:',
    goal,
    'Work in small steps. In each reply, call tools or propose shell commands as `CMD: ` lines; their results come back to you in the next turn.',
    'Non-destructive commands run without asking; destructive ones wait for the user.',
    ...(boxRules ? [boxRules] : []),
    `When the goal is fully achieved, reply with the exact line \`${GOAL_LINE}\`.`,
  ].join('\n');
}

/** Runs the loop for `goal`; resolves how it ended. Ctrl-C (the signal) ends it as 'halted'. */
export async function runNorris(goal: string, host: NorrisHost, signal: AbortSignal): Promise<NorrisEnd> {
  let aborted = false;
  let skipsInRow = 0;
  let unboxedAllowed = host.box === 'allow';
  /** What the steps that ran created, by their previews: changing those later does not HALT. */
  const made = new Set<string>();
  const suffix = norrisSuffix(goal, host.box === 'boxed' ? host.boxRules : undefined);

  const escalate = async (): Promise<boolean> => {
    if (skipsInRow < 3) return true;
    skipsInRow = 0;
    const answer = await host.gate.halt('three actions skipped in a row: carry on?');
    return answer === 'proceed';
  };

  const gate: ToolGate = {
    async decide(name: string, args: Record<string, unknown>, annotations: ToolAnnotations | undefined): Promise<GateDecision> {
      if (aborted) return { approved: false, by: 'user' };
      const decision = host.gate.judge({ type: 'tool', name, annotations, norris: true });
      if (decision.verdict !== 'ask') return { approved: decision.verdict === 'allow', by: 'policy' };
      const answer = await host.gate.halt(`tool call ${name}${annotationLabel(annotations)} `, describeArguments(args), 'arguments');
      if (answer === 'abort') aborted = true;
      if (answer === 'skip') skipsInRow++;
      else if (answer === 'proceed') skipsInRow = 0;
      return { approved: answer === 'proceed', by: host.gate.canAsk ? 'user' : 'no-terminal' };
    },
  };

  host.setSummarizing(false);
  try {
    let content: string | null = `[Norris] goal: ${goal}`;
    for (let step = 1; step <= host.maxSteps; step++) {
      if (signal.aborted) return 'halted';
      host.status(`[Norris] step ${step}/${host.maxSteps}`);
      const result = await host.request(content, gate, suffix, signal);
      if (result.outcome === 'cancelled' || signal.aborted) return 'halted';
      if (result.outcome === 'failed') return 'error';
      if (aborted) return 'aborted';
      if (!(await escalate())) return 'aborted';
      // A reply cut off mid-stream may end inside a command: nothing of it runs, and the model is
      // asked to say it again.
      if (result.outcome === 'done' && result.cut) {
        host.status('[Norris] the reply was cut off: none of its commands run');
        content = `[Norris] step ${step}: your reply was cut off before it finished; say again what to do.`;
        continue;
      }

      let ranCommands = false;
      /** A command the person said no to: the model is told; three in a row ask whether to go on. */
      const skip = (command: string): Promise<boolean> => {
        skipsInRow++;
        host.note(`${SKIPPED_CMD}: ${command}`);
        ranCommands = true;
        return escalate();
      };
      for (const command of extractCmdLines(result.text)) {
        if (signal.aborted) return 'halted';
        let decision = host.gate.judge({ type: 'command', command, norris: true });
        if (decision.verdict === 'deny') {
          host.status(decision.reason);
          host.note(`[aish] CMD not run, ${decision.reason}: ${command}`);
          ranCommands = true;
          continue;
        }
        let created: readonly string[] = [];
        if (host.preview) {
          const preview = await host.preview(command, signal);
          if (signal.aborted) return 'halted';
          const reason = previewReason(preview, made);
          if (preview.type === 'done') created = preview.created;
          if (reason && decision.verdict === 'allow') decision = { verdict: 'ask', reason };
        }
        if (decision.verdict === 'allow' && host.secondOpinion && (await host.secondOpinion(command, signal))) {
          if (signal.aborted) return 'halted';
          decision = { verdict: 'ask', reason: 'second opinion disagrees' };
        }
        if (decision.verdict === 'ask') {
          const answer = await host.gate.halt(`${decision.reason}: `, command);
          if (answer === 'abort') return 'aborted';
          if (answer === 'skip') {
            if (!(await skip(command))) return 'aborted';
            continue;
          }
        } else if (host.box === 'ask' && !unboxedAllowed) {
          // No sandbox: what the policy lets through still asks (a HALT just answered did).
          const answer = await host.gate.unboxed(command);
          if (signal.aborted) return 'halted';
          if (answer === 'nobody') {
            host.status(`[Norris] no sandbox and nobody to ask: '${command}' not run`);
            return 'aborted';
          }
          if (answer === 'always') unboxedAllowed = true;
          if (answer === 'no') {
            if (!(await skip(command))) return 'aborted';
            continue;
          }
        }
        skipsInRow = 0;
        await host.runCommand(command, signal, step);
        for (const file of created) made.add(file);
        ranCommands = true;
      }
      if (signal.aborted) return 'halted';
      if (result.text.split('\n').some((line) => line.trim() === GOAL_LINE)) return 'done';
      const acted = ranCommands || result.toolCalls > 0;
      if (!acted) return 'stalled';
      // Tool results already follow in the conversation; command output needs a user turn.
      content = ranCommands ? `[Norris] step ${step} done; continue toward the goal.` : null;
    }
    return 'budget';
  } finally {
    host.setSummarizing(true);
  }
}

/** Why a step's preview HALTs it: no preview, or files that existed before the run would go or change. */
export function previewReason(preview: StepPreview, made: ReadonlySet<string>): string | null {
  if (preview.type === 'none') return `no preview (${preview.why})`;
  const touched = preview.touched.filter((file) => !madeByRun(file, made));
  if (touched.length === 0) return null;
  const names = touched.slice(0, 3).map(preview.show);
  const more = touched.length > 3 ? ` and ${touched.length - 3} more` : '';
  return `the preview would delete or change what existed before the run (${names.join(', ')}${more})`;
}

/** Whether `file` is, or is inside, something the run's earlier steps created. */
function madeByRun(file: string, made: ReadonlySet<string>): boolean {
  for (let p = file; ; p = path.dirname(p)) {
    if (made.has(p)) return true;
    if (path.dirname(p) === p) return false;
  }
}
