// The tool sub-loop (SPEC §6): send the conversation, take the reply, run its tool calls in order
// through parse → validate → gate → call, append one tool turn per call, and ask again until a
// reply has no calls or the depth cap is reached. The one place broker, tools and context meet.
// Every call the model made gets exactly one tool turn, so the conversation stays well formed.

import type { ChatResult, ToolCall } from '../broker/types.js';
import type { Context } from '../context/context.js';
import type { Turn } from '../context/turns.js';
import { errorMessage } from '../errors.js';
import type { ModelClient, ToolGate, ToolHost, ToolOutcome, TurnObserver } from './types.js';

export interface RequestDeps {
  context: Context;
  model: ModelClient;
  tools: ToolHost;
  gate: ToolGate;
  observer: TurnObserver;
  /** The system message, composed fresh for each model request. */
  system(): string;
  maxDepth: number;
  /** Reaching maxDepth is expected (Norris steps): no status line. */
  quietDepthLimit?: boolean;
}

export type RequestResult =
  | { outcome: 'done'; text: string; toolCalls: number }
  | { outcome: 'depth-limit'; text: string; toolCalls: number }
  | { outcome: 'cancelled'; text: string }
  /** The model request failed. `userTurnRemoved`: nothing of this request stayed in the context. */
  | { outcome: 'failed'; error: unknown; userTurnRemoved: boolean };

export const DEPTH_LIMIT_STATUS = 'tool-call depth limit reached';
export const DECLINED = '[aish] tool call declined by user';
export const CANCELLED = '[aish] tool call cancelled by user (Ctrl-C)';

/**
 * Runs one user request to its end. `userContent` null continues after tool results without a new
 * user turn (a Norris step). Never rejects for model or tool failures.
 */
export async function runRequest(deps: RequestDeps, userContent: string | null, signal: AbortSignal): Promise<RequestResult> {
  const { context, observer } = deps;
  const user = userContent === null ? null : context.append({ role: 'user', content: userContent });
  const persistUser = once(() => user && observer.persist(user));
  let lastText = '';
  let toolCalls = 0;

  for (let depth = 0; ; depth++) {
    await context.enforceBudget();
    const tools = deps.tools.definitions();
    let text = '';
    observer.requestStart(depth, deps.model.name);
    let result: ChatResult;
    try {
      result = await deps.model.stream(
        context.toMessages(deps.system()),
        (e) => {
          if (e.type === 'text') text += e.text;
          observer.event(e);
        },
        { ...(tools.length ? { tools } : {}), signal },
      );
    } catch (error) {
      observer.requestEnd();
      if (signal.aborted) {
        // The partial reply stays, marked, so the person and the model see what was cut.
        persistUser();
        const content = text === '' ? '[interrupted]' : `${text}\n[interrupted]`;
        observer.persist(context.append({ role: 'assistant', content }));
        return { outcome: 'cancelled', text };
      }
      if (depth === 0 && user) {
        context.popLastUserTurn();
        return { outcome: 'failed', error, userTurnRemoved: true };
      }
      return { outcome: 'failed', error, userTurnRemoved: false };
    }
    observer.requestEnd();
    lastText = result.text;
    persistUser();
    const calls = result.toolCalls;
    const assistant = context.append({
      role: 'assistant',
      content: result.text,
      ...(calls.length ? { tool_calls: calls } : {}),
    } as Turn);
    observer.persist(assistant);
    if (calls.length === 0) return { outcome: 'done', text: result.text, toolCalls };

    for (const call of calls) {
      toolCalls++;
      const outcome = await runCall(deps, call, signal);
      const turn = context.append({ role: 'tool', tool_call_id: call.id, name: call.name, content: outcome.content });
      observer.persist(turn);
    }
    if (signal.aborted) return { outcome: 'cancelled', text: lastText };
    if (depth + 1 >= deps.maxDepth) {
      if (!deps.quietDepthLimit) observer.status(DEPTH_LIMIT_STATUS);
      return { outcome: 'depth-limit', text: lastText, toolCalls };
    }
  }
}

/** parse → validate → gate → call for one tool call; always returns the tool turn's content. */
async function runCall(deps: RequestDeps, call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
  const { observer } = deps;
  const started = Date.now();
  const audit = (decision: 'approved' | 'declined' | 'invalid', by: Parameters<TurnObserver['audit']>[0]['by'], outcome: ToolOutcome) =>
    observer.audit({ name: call.name, arguments: call.arguments, decision, by, duration_ms: Date.now() - started, outcome: outcome.status });

  if (signal.aborted) {
    const outcome: ToolOutcome = { status: 'cancelled', content: CANCELLED };
    audit('declined', 'user', outcome);
    return outcome;
  }
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(call.arguments.trim() === '' ? '{}' : call.arguments);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('expected a JSON object');
    args = parsed as Record<string, unknown>;
  } catch (err) {
    const outcome: ToolOutcome = { status: 'error', content: `[aish] tool arguments not parseable as JSON: ${errorMessage(err)}` };
    observer.toolBegin(call, undefined);
    observer.toolEnd(call, outcome);
    audit('invalid', 'aish', outcome);
    return outcome;
  }
  const problems = deps.tools.validate(call.name, args);
  if (problems.length > 0) {
    const outcome: ToolOutcome = { status: 'error', content: `[aish] tool arguments do not match the tool's input schema: ${problems.join('; ')}` };
    observer.toolBegin(call, args);
    observer.toolEnd(call, outcome);
    audit('invalid', 'aish', outcome);
    return outcome;
  }
  const decision = await deps.gate.decide(call.name, args, deps.tools.annotations(call.name), signal);
  if (!decision.approved) {
    const outcome: ToolOutcome = signal.aborted ? { status: 'cancelled', content: CANCELLED } : { status: 'denied', content: DECLINED };
    observer.status(signal.aborted ? `tool call ${call.name} cancelled` : `tool call ${call.name} declined`);
    audit('declined', decision.by, outcome);
    return outcome;
  }
  observer.toolBegin(call, args);
  const outcome = await deps.tools.call(call.name, args, { signal });
  observer.toolEnd(call, outcome);
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
