// Norris mode (SPEC §11): an autonomous loop toward a goal, one model round trip per step. Tool
// calls are handled first, then CMD: lines; non-destructive commands run without asking, a
// destructive one (or a tool call without auto-approval, or a tool marked destructive) stops at
// the HALT gate: proceed / skip / abort. Ends on the exact line `GOAL: complete` (after all of
// that reply's actions ran), on abort, when stalled, or when the step budget is spent; the
// conversation is kept in every case.

import type { AskFn } from '../safety/confirm.js';
import { isAutoApproved, describeArguments, annotationLabel, type GateDecision, type ToolGate } from '../safety/tool-gate.js';
import type { ToolAnnotations } from '../tool-call.js';
import { extractCmdLines } from '../cmd-contract.js';
import type { RequestResult } from '../turn/tool-loop.js';
import { isDestructive } from './destructive.js';

export type NorrisEnd = 'done' | 'stalled' | 'aborted' | 'halted' | 'budget' | 'error';

export const GOAL_LINE = 'GOAL: complete';
export const SKIPPED_CMD = '[aish] CMD skipped by user';

export interface NorrisHost {
  /** One model round trip (tool calls included, depth 1); null content continues after tools. */
  request(content: string | null, gate: ToolGate, norrisSuffix: string, signal: AbortSignal): Promise<RequestResult>;
  /** Runs a command exactly as a typed shell line; its output goes to the pending buffer. */
  runCommand(command: string, signal: AbortSignal): Promise<void>;
  /** Adds a note for the model to the pending exec output. */
  note(text: string): void;
  /** The HALT gate's question; null when nobody can answer (piped input: treated as abort). */
  ask: AskFn | null;
  status(message: string): void;
  /** Turns summarizing on eviction off for the run (SPEC §11), and back on after. */
  setSummarizing(enabled: boolean): void;
  autoApprove: readonly string[];
  maxSteps: number;
  /**
   * `norris.second_opinion`: asks another model whether a command the static check passed is
   * destructive; true (or a failure to answer) means HALT. Cached per session by the host.
   */
  secondOpinion?: (command: string, signal: AbortSignal) => Promise<boolean>;
}

/** The block that ends the system message while Norris runs; it carries the goal. */
export function norrisSuffix(goal: string): string {
  return [
    '[NORRIS MODE] You are working autonomously toward this goal:',
    goal,
    'Work in small steps. In each reply, call tools or propose shell commands as `CMD: ` lines; their results come back to you in the next turn.',
    'Non-destructive commands run without asking; destructive ones wait for the user.',
    `When the goal is fully achieved, reply with the exact line \`${GOAL_LINE}\`.`,
  ].join('\n');
}

type HaltAnswer = 'proceed' | 'skip' | 'abort';

async function halt(ask: AskFn | null, what: string): Promise<HaltAnswer> {
  if (!ask) return 'abort';
  const answer = ((await ask(`[Norris] ${what}\n  proceed / skip / abort? [p/s/A] `)) ?? '').trim().toLowerCase();
  if (answer === 'p' || answer === 'proceed') return 'proceed';
  if (answer === 's' || answer === 'skip') return 'skip';
  return 'abort';
}

/** Runs the loop for `goal`; resolves how it ended. Ctrl-C (the signal) ends it as 'halted'. */
export async function runNorris(goal: string, host: NorrisHost, signal: AbortSignal): Promise<NorrisEnd> {
  let aborted = false;
  let skipsInRow = 0;
  const suffix = norrisSuffix(goal);

  const escalate = async (): Promise<boolean> => {
    if (skipsInRow < 3) return true;
    skipsInRow = 0;
    const answer = await halt(host.ask, 'three actions skipped in a row: carry on?');
    return answer === 'proceed';
  };

  const gate: ToolGate = {
    async decide(name: string, args: Record<string, unknown>, annotations: ToolAnnotations | undefined): Promise<GateDecision> {
      if (aborted) return { approved: false, by: 'user' };
      if (isAutoApproved(name, host.autoApprove) && !annotations?.destructiveHint) return { approved: true, by: 'policy' };
      const answer = await halt(host.ask, `tool call ${name}${annotationLabel(annotations)} ${describeArguments(args)}`);
      if (answer === 'abort') aborted = true;
      if (answer === 'skip') skipsInRow++;
      else if (answer === 'proceed') skipsInRow = 0;
      return { approved: answer === 'proceed', by: host.ask ? 'user' : 'no-terminal' };
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

      let ranCommands = false;
      for (const command of extractCmdLines(result.text)) {
        if (signal.aborted) return 'halted';
        let verdict = isDestructive(command);
        if (!verdict.destructive && host.secondOpinion && (await host.secondOpinion(command, signal))) {
          verdict = { destructive: true, reason: 'second opinion disagrees' };
        }
        if (verdict.destructive) {
          const answer = await halt(host.ask, `destructive command (${verdict.reason}): ${command}`);
          if (answer === 'abort') return 'aborted';
          if (answer === 'skip') {
            skipsInRow++;
            host.note(`${SKIPPED_CMD}: ${command}`);
            ranCommands = true;
            if (!(await escalate())) return 'aborted';
            continue;
          }
        }
        skipsInRow = 0;
        await host.runCommand(command, signal);
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
