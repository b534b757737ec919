// The tool sub-loop (SPEC §6): send the conversation, take the reply, run its tool calls in order
// through parse → validate → gate → call, append one tool turn per call, and ask again until a
// reply has no calls or the depth cap is reached. The one place broker, tools and context meet.
// Every call the model made gets exactly one tool turn, so the conversation stays well formed.

import type { ChatResult, ModelClient, ToolCall } from '../broker/types.js';
import type { Context } from '../context/context.js';
import type { Turn } from '../context/turns.js';
import { errorMessage } from '../errors.js';
import { isRecord } from '../is-record.js';
import type { SessionRecorder } from '../history/session.js';
import type { ToolAudit } from '../history/session-log.js';
import { CANCELLED_CALL, DECLINED_CALL, type ToolOutcome } from '../tool-call.js';
import type { ToolGate } from '../safety/gate.js';
import type { ToolHost, TurnObserver } from './types.js';

export interface RequestDeps {
  context: Context;
  model: ModelClient;
  tools: ToolHost;
  gate: ToolGate;
  observer: TurnObserver;
  /** Where completed turns and tool audits are kept (the session log); null keeps nothing. */
  recorder: SessionRecorder | null;
  /** The system message, composed fresh for each model request. */
  system(): string;
  maxDepth: number;
  /** Reaching maxDepth is expected (Norris steps): no status line. */
  quietDepthLimit?: boolean;
}

export type RequestResult =
  /** `cut`: the last reply's stream was cut off; its text is kept, marked, and nothing in it is offered. */
  | { outcome: 'done'; text: string; toolCalls: number; cut?: boolean }
  | { outcome: 'depth-limit'; text: string; toolCalls: number }
  | { outcome: 'cancelled'; text: string }
  /** The model request failed. `userTurnRemoved`: nothing of this request stayed in the context. */
  | { outcome: 'failed'; error: unknown; userTurnRemoved: boolean };

export const DEPTH_LIMIT_STATUS = 'tool-call depth limit reached';
export const CUT_STATUS = 'reply cut off: the connection ended before the reply did (no finish_reason, no [DONE])';
/** How a cut-off reply is kept in the conversation, so the model knows it did not finish. */
export const CUT_MARK = '[reply cut off]';

/**
 * Runs one user request to its end. `userContent` null continues after tool results without a new
 * user turn (a Norris step). Never rejects for model or tool failures.
 */
export async function runRequest(deps: RequestDeps, userContent: string | null, signal: AbortSignal): Promise<RequestResult> {
  const { context, observer } = deps;
  const persist = (turn: Turn) => deps.recorder?.turn(turn);
  const user = userContent === null ? null : context.append({ role: 'user', content: userContent });
  const persistUser = once(() => user && persist(user));
  let lastText = '';
  let toolCalls = 0;

  for (let depth = 0; ; depth++) {
    await context.enforceBudget();
    const tools = deps.tools.definitions();
    let text = '';
    observer({ type: 'request-start', depth, model: deps.model.name });
    let result: ChatResult;
    try {
      result = await deps.model.stream(
        context.toMessages(deps.system()),
        (e) => {
          switch (e.type) {
            case 'text':
              text += e.text;
              observer(e);
              break;
            case 'reasoning':
            case 'usage':
              observer(e);
              break;
            case 'tool_call':
              if (e.name) observer({ type: 'tool-call-preparing', name: e.name });
              break;
            case 'warning':
              observer({ type: 'status', message: e.message });
              break;
          }
        },
        { ...(tools.length ? { tools } : {}), signal },
      );
    } catch (error) {
      observer({ type: 'request-end' });
      if (signal.aborted) {
        // The partial reply stays, marked, so the person and the model see what was cut.
        persistUser();
        const content = text === '' ? '[interrupted]' : `${text}\n[interrupted]`;
        persist(context.append({ role: 'assistant', content }));
        return { outcome: 'cancelled', text };
      }
      if (depth === 0 && user) {
        context.popLastUserTurn();
        return { outcome: 'failed', error, userTurnRemoved: true };
      }
      return { outcome: 'failed', error, userTurnRemoved: false };
    }
    observer({ type: 'request-end' });
    lastText = result.text;
    persistUser();
    const calls = result.toolCalls;
    const cut = result.cut === true && calls.length === 0;
    if (cut) observer({ type: 'status', message: CUT_STATUS });
    const assistant = context.append({
      role: 'assistant',
      content: cut ? `${result.text}\n${CUT_MARK}` : result.text,
      ...(calls.length ? { tool_calls: calls } : {}),
    } as Turn);
    persist(assistant);
    if (calls.length === 0) return { outcome: 'done', text: result.text, toolCalls, ...(cut ? { cut } : {}) };

    for (const call of calls) {
      toolCalls++;
      const outcome = await runCall(deps, call, signal);
      const turn = context.append({ role: 'tool', tool_call_id: call.id, name: call.name, content: outcome.content });
      persist(turn);
    }
    if (signal.aborted) return { outcome: 'cancelled', text: lastText };
    if (depth + 1 >= deps.maxDepth) {
      if (!deps.quietDepthLimit) observer({ type: 'status', message: DEPTH_LIMIT_STATUS });
      return { outcome: 'depth-limit', text: lastText, toolCalls };
    }
  }
}

/** parse → validate → gate → call for one tool call; always returns the tool turn's content. */
async function runCall(deps: RequestDeps, call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
  const { observer } = deps;
  const started = Date.now();
  const audit = (decision: ToolAudit['decision'], by: ToolAudit['by'], outcome: ToolOutcome) =>
    deps.recorder?.audit({ name: call.name, arguments: call.arguments, decision, by, duration_ms: Date.now() - started, outcome: outcome.status });
  const frame = (args: Record<string, unknown> | undefined, run: () => Promise<ToolOutcome> | ToolOutcome) => async () => {
    const begun = Date.now();
    observer({ type: 'tool-begin', call, args });
    const outcome = await run();
    observer({ type: 'tool-end', call, outcome, durationMs: Date.now() - begun });
    return outcome;
  };

  if (signal.aborted) {
    const outcome: ToolOutcome = { status: 'cancelled', content: CANCELLED_CALL };
    audit('declined', 'user', outcome);
    return outcome;
  }
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(call.arguments.trim() === '' ? '{}' : call.arguments);
    if (!isRecord(parsed)) throw new Error('expected a JSON object');
    args = parsed;
  } catch (err) {
    const outcome = await frame(undefined, () => ({ status: 'error', content: `[aish] tool arguments not parseable as JSON: ${errorMessage(err)}` }))();
    audit('invalid', 'aish', outcome);
    return outcome;
  }
  // A name no server offers is answered at once: nothing to approve, nothing the person declined.
  if (!deps.tools.has(call.name)) {
    const outcome = await frame(args, () => ({ status: 'error', content: `[aish] no tool named ${call.name} exists; call only the tools offered in this request` }))();
    audit('invalid', 'aish', outcome);
    return outcome;
  }
  const problems = deps.tools.validate(call.name, args);
  if (problems.length > 0) {
    const outcome = await frame(args, () => ({ status: 'error', content: `[aish] tool arguments do not match the tool's input schema: ${problems.join('; ')}` }))();
    audit('invalid', 'aish', outcome);
    return outcome;
  }
  const decision = await deps.gate.decide(call.name, args, deps.tools.annotations(call.name), signal);
  if (!decision.approved) {
    const outcome: ToolOutcome = signal.aborted ? { status: 'cancelled', content: CANCELLED_CALL } : { status: 'denied', content: DECLINED_CALL };
    observer({ type: 'status', message: signal.aborted ? `tool call ${call.name} cancelled` : `tool call ${call.name} declined` });
    audit('declined', decision.by, outcome);
    return outcome;
  }
  const outcome = await frame(args, () => deps.tools.call(call.name, args, { signal }))();
  audit('approved', decision.by, outcome);
  return outcome;
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
