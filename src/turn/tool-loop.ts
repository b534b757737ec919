// The tool sub-loop (SPEC §6): send the conversation, take the reply, run its tool calls in order
// through parse → validate → gate → call, append one tool turn per call, and ask again until a
// reply has no calls or the depth cap is reached. The one place broker, tools and context meet.
// Every call the model made gets exactly one tool turn, so the conversation stays well formed.
// A call a small model wrote as text (leaked-calls.ts) is recovered into a real one, held back
// from the screen while it streams; one that cannot be read gets one corrective retry.

import type { ChatMessage, ChatResult, ModelClient, ToolCall, ToolDefinition } from '../broker/types.js';
import type { Context } from '../context/context.js';
import type { Turn } from '../context/turns.js';
import { errorMessage } from '../errors.js';
import { isRecord } from '../is-record.js';
import type { SessionRecorder } from '../history/session.js';
import type { ToolAudit } from '../history/session-log.js';
import { CANCELLED_CALL, DECLINED_CALL, NEEDS_APPROVAL_CALL, schemaMismatchOutcome, type ToolOutcome, type ToolProgress } from '../tool-call.js';
import type { ToolGate } from '../safety/gate.js';
import { TextBuffer } from '../text-buffer.js';
import { HeldText } from './held-text.js';
import { readLeakedCalls } from './leaked-calls.js';
import type { ToolHint, ToolHost, TurnObserver } from './types.js';

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
  /**
   * Nobody will ever be asked (`aish -p`): a call the policy would ask about ends `needs_approval`
   * and its tool turn says so. The piped REPL keeps SPEC §6's "declined by user".
   */
  unattended?: boolean;
  /** Most calls of one reply that run (`broker.max_tool_calls`); the rest are answered as not run. */
  maxToolCalls?: number;
}

export type RequestResult =
  /** `cut`: the last reply's stream was cut off (or at `broker.max_reply_chars`); its text is kept, marked, and nothing in it is offered. */
  | { outcome: 'done'; text: string; toolCalls: number; cut?: boolean }
  | { outcome: 'depth-limit'; text: string; toolCalls: number }
  | { outcome: 'cancelled'; text: string }
  /** The model request failed. `userTurnRemoved`: nothing of this request stayed in the context. */
  | { outcome: 'failed'; error: unknown; userTurnRemoved: boolean };

export const DEPTH_LIMIT_STATUS = 'tool-call depth limit reached';
export const CUT_STATUS = 'reply cut off: the connection ended before the reply did (no finish_reason, no [DONE])';
/** How a cut-off reply is kept in the conversation, so the model knows it did not finish. */
export const CUT_MARK = '[reply cut off]';
/** Deepest nesting of tool arguments accepted; real tools take a handful of levels. */
export const MAX_ARGUMENT_DEPTH = 64;
/** The tool turn of a call left open when its turn failed (followed by the reason in parentheses). */
export const FAILED_TURN_CALL = '[aish] tool call not run: the turn failed';

/**
 * Runs one user request to its end. `userContent` null continues after tool results without a new
 * user turn (a Norris step). Never rejects: a model or tool failure, and anything thrown on the way
 * (a reply too long for a string, arguments too deep to print), ends the turn as `failed` with the
 * conversation well formed (see `closeFailedTurn`).
 */
export async function runRequest(deps: RequestDeps, userContent: string | null, signal: AbortSignal): Promise<RequestResult> {
  const turn: TurnState = { userContent, user: null, userPersisted: false };
  try {
    return await loop(deps, turn, signal);
  } catch (error) {
    return closeFailedTurn(deps, turn, error);
  }
}

/** What the request added so far: its user turn, and whether the log has it. */
interface TurnState {
  userContent: string | null;
  user: Turn | null;
  userPersisted: boolean;
}

async function loop(deps: RequestDeps, turn: TurnState, signal: AbortSignal): Promise<RequestResult> {
  const { context, observer } = deps;
  const persist = (t: Turn) => deps.recorder?.turn(t);
  // The user turn reaches the log with the first turn that answers it, never alone.
  const persistUser = () => {
    if (turn.user === null || turn.userPersisted) return;
    turn.userPersisted = true;
    persist(turn.user);
  };
  if (turn.userContent !== null) turn.user = context.append({ role: 'user', content: turn.userContent });
  let lastText = '';
  let toolCalls = 0;

  for (let depth = 0; ; depth++) {
    await context.enforceBudget(signal);
    const tools = deps.tools.definitions(toolHint(context.turns));
    const offered = new Set(tools.map((t) => t.function.name));
    const messages = context.toMessages(deps.system());
    // Cancelled while the summary ran: no request, the turn ends like one cancelled at the spinner.
    let attempt: Attempt = signal.aborted ? { ok: false, error: signal.reason, text: '' } : await askModel(deps, messages, tools, offered, depth, signal, false);
    if (attempt.ok && attempt.reply.malformed !== undefined) {
      // One corrective retry (seed 004): the failed attempt and a format correction go to the model
      // for this request only; the retry streams held back like any reply.
      const failed: ChatMessage[] = [
        { role: 'assistant', content: attempt.reply.content },
        { role: 'user', content: correctionFor(attempt.reply.malformed) },
      ];
      attempt = await askModel(deps, [...messages, ...failed], tools, offered, depth, signal, true);
    }
    if (!attempt.ok) {
      const { text, error } = attempt;
      if (signal.aborted) {
        // The partial reply stays, marked, so the person and the model see what was cut.
        const content = text === '' ? '[interrupted]' : `${text}\n[interrupted]`;
        const assistant = context.append({ role: 'assistant', content });
        persistUser();
        persist(assistant);
        return { outcome: 'cancelled', text };
      }
      // Nothing of this request is kept when it failed at once; after tool turns the exchange
      // stands as it is (it ends with tool turns, which is well formed).
      return closeFailedTurn(deps, turn, error);
    }
    const { reply } = attempt;
    lastText = reply.content;
    const calls = reply.calls;
    const cut = reply.cut && calls.length === 0;
    if (cut) observer({ type: 'status', message: CUT_STATUS });
    if (reply.capped !== undefined) observer({ type: 'status', message: capStatus(reply.capped) });
    const mark = reply.capped !== undefined ? capMark(reply.capped) : cut ? CUT_MARK : null;
    const assistant = context.append({
      role: 'assistant',
      content: mark === null ? reply.content : `${reply.content}\n${mark}`,
      ...(calls.length ? { tool_calls: calls } : {}),
    } as Turn);
    persistUser();
    persist(assistant);
    if (calls.length === 0) return { outcome: 'done', text: reply.content, toolCalls, ...(cut || reply.capped !== undefined ? { cut: true } : {}) };

    const refused = refusedCalls(deps, calls, reply.capped);
    for (const [n, call] of calls.entries()) {
      toolCalls++;
      const outcome = n < calls.length - refused.count ? await runCall(deps, call, signal) : refusedCall(deps, call, refused.why);
      const answer = context.append({ role: 'tool', tool_call_id: call.id, name: call.name, content: outcome.content });
      persist(answer);
    }
    if (signal.aborted) return { outcome: 'cancelled', text: lastText };
    if (reply.capped !== undefined) return { outcome: 'done', text: reply.content, toolCalls, cut: true };
    if (depth + 1 >= deps.maxDepth) {
      if (!deps.quietDepthLimit) observer({ type: 'status', message: DEPTH_LIMIT_STATUS });
      return { outcome: 'depth-limit', text: lastText, toolCalls };
    }
  }
}

/**
 * Ends a failed request with the conversation well formed, whatever failed and wherever: calls of
 * the last reply still open get a tool turn saying why; a user turn nothing answered is taken back
 * (the caller restores the pending output) and the question is kept in the log as unanswered, so
 * it is never lost. Never throws: a log that cannot be written has said so itself.
 */
function closeFailedTurn(deps: RequestDeps, turn: TurnState, error: unknown): RequestResult {
  const { context } = deps;
  const reason = errorMessage(error);
  const open = context.openToolCalls();
  if (open.length > 0) {
    for (const call of open) {
      const answer = context.append({ role: 'tool', tool_call_id: call.id, name: call.name, content: `${FAILED_TURN_CALL} (${reason})` });
      record(() => deps.recorder?.turn(answer));
    }
    return { outcome: 'failed', error, userTurnRemoved: false };
  }
  if (turn.userContent !== null && !turn.userPersisted) {
    if (turn.user !== null && context.turns.at(-1) === turn.user) context.popLastUserTurn();
    record(() => deps.recorder?.unanswered(turn.userContent!, reason));
    return { outcome: 'failed', error, userTurnRemoved: true };
  }
  return { outcome: 'failed', error, userTurnRemoved: false };
}

/** A record for the log made while a turn fails: its own failure must not hide the first one. */
function record(write: () => void): void {
  try {
    write();
  } catch {
    // The session log reports its own write failures; this one is past reporting.
  }
}

/** How many calls of a reply are not run (from the end), and the tool turn that says why. */
function refusedCalls(deps: RequestDeps, calls: readonly ToolCall[], capped: number | undefined): { count: number; why: string } {
  if (capped !== undefined) return { count: calls.length, why: `[aish] tool call not run: the reply was cut at ${capped} chars (broker.max_reply_chars), its calls may be cut too` };
  const max = deps.maxToolCalls ?? Infinity;
  if (calls.length <= max) return { count: 0, why: '' };
  deps.observer({ type: 'status', message: `the reply made ${calls.length} tool calls; the first ${max} run, the rest are answered as not run (broker.max_tool_calls)` });
  return { count: calls.length - max, why: `[aish] tool call not run: more than ${max} calls in one reply (broker.max_tool_calls)` };
}

/** The tool turn of a call that is not run, with its audit record. */
function refusedCall(deps: RequestDeps, call: ToolCall, why: string): ToolOutcome {
  const outcome: ToolOutcome = { status: 'error', content: why };
  deps.recorder?.audit({ name: call.name, arguments: call.arguments, decision: 'invalid', by: 'aish', duration_ms: 0, outcome: outcome.status });
  return outcome;
}

/** The status line of a reply cut at `broker.max_reply_chars`. */
export function capStatus(chars: number): string {
  return `reply cut at ${chars} chars (broker.max_reply_chars): aish stopped reading it`;
}

/** How a reply cut at `broker.max_reply_chars` is kept in the conversation. */
export function capMark(chars: number): string {
  return `[reply cut at ${chars} chars]`;
}

type Attempt = { ok: true; reply: Reply } | { ok: false; error: unknown; text: string };

/**
 * One streamed model request, judged. Text reaches the observer only once it is known to be text
 * (a call written as text is held back). On the `lastTry` an unreadable call is kept as text.
 */
async function askModel(
  deps: RequestDeps,
  messages: ChatMessage[],
  tools: ToolDefinition[],
  offered: ReadonlySet<string>,
  depth: number,
  signal: AbortSignal,
  lastTry: boolean,
): Promise<Attempt> {
  const { observer } = deps;
  // The reply's one copy while it streams: the broker collects it, and it is the partial text kept
  // when the request fails or is cancelled.
  const text = new TextBuffer();
  const held = new HeldText(offered, (shown) => observer({ type: 'text', text: shown }));
  observer({ type: 'request-start', depth, model: deps.model.name });
  try {
    const result = await deps.model.stream(
      messages,
      (e) => {
        switch (e.type) {
          case 'text':
            held.push(e.text);
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
          case 'debug':
            observer({ type: 'status', message: `debug: ${e.message}` });
            break;
        }
      },
      { ...(tools.length ? { tools } : {}), signal, text },
    );
    return { ok: true, reply: judgeReply(observer, result, held, offered, lastTry) };
  } catch (error) {
    return { ok: false, error, text: partialText(text) };
  } finally {
    observer({ type: 'request-end' });
  }
}

/** The text of a reply that failed, '' when even that cannot be had (a string too long to make). */
function partialText(text: TextBuffer): string {
  try {
    return text.toString();
  } catch {
    return '';
  }
}

interface Reply {
  /** The assistant turn's content: the text, or the prose before calls recovered from it. */
  content: string;
  calls: ToolCall[];
  /** Set when the text looks like a call that cannot be read (and a retry is allowed): why. */
  malformed?: string;
  /** The stream ended with neither finish_reason nor [DONE]: cut off. */
  cut: boolean;
  /** aish stopped reading at `broker.max_reply_chars`: that many chars were kept. */
  capped?: number;
}

/**
 * Real calls, calls recovered from the text, plain text, or a call that cannot be read; releases
 * the held text that turned out to be text, before the reply's end is reported.
 */
function judgeReply(observer: TurnObserver, result: ChatResult, held: HeldText, offered: ReadonlySet<string>, lastTry: boolean): Reply {
  const cut = result.cut === true;
  const end = result.capped === undefined ? { cut } : { cut, capped: result.capped };
  const verdict = result.toolCalls.length > 0 ? ({ type: 'text' } as const) : readLeakedCalls(result.text, offered);
  switch (verdict.type) {
    case 'text':
      held.release();
      return { content: result.text, calls: result.toolCalls, ...end };
    case 'calls': {
      held.release(verdict.before.length);
      const n = verdict.calls.length;
      observer({ type: 'status', message: `recovered ${n === 1 ? 'a tool call' : `${n} tool calls`} the model wrote as text` });
      return { content: verdict.before, calls: verdict.calls.map((c) => ({ id: leakedCallId(), ...c })), ...end };
    }
    case 'malformed':
      // A reply cut short is not asked again: the retry would be as long.
      if (lastTry || result.capped !== undefined) {
        held.release();
        observer({ type: 'status', message: `${lastTry ? 'the retry was no readable tool call either' : 'the cut reply looks like a tool call aish cannot read'} (${verdict.reason}); kept as text` });
        return { content: result.text, calls: [], ...end };
      }
      held.release(verdict.before.length);
      observer({ type: 'status', message: `the model wrote a tool call aish could not read (${verdict.reason}); asking it again` });
      return { content: result.text, calls: [], malformed: verdict.reason, ...end };
  }
}

/** The person's latest words and the tools called so far, for hosts that offer a selection. */
function toolHint(turns: readonly Turn[]): ToolHint {
  const lastUser = turns.findLast((t) => t.role === 'user');
  return {
    words: lastUser?.content ?? '',
    used: turns.flatMap((t) => (t.role === 'assistant' ? (t.tool_calls ?? []).map((c) => c.name) : [])),
  };
}

/** The short format correction sent with the one retry. */
export function correctionFor(reason: string): string {
  return (
    `[aish] Your last reply looks like a tool call, but it could not be read (${reason}). ` +
    'To call a tool, use the tool-call interface, or reply with only: tool_name[ARGS]{"argument": "value"} ' +
    'using a tool offered in this request. If you meant to answer in words, answer again in plain text.'
  );
}

/** An id for a recovered call: nine letters and digits, the shape strict templates (Mistral) accept. */
function leakedCallId(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let id = '';
  for (let i = 0; i < 9; i++) id += chars[Math.floor(Math.random() * chars.length)];
  return id;
}

/**
 * parse → validate → gate → call for one tool call; always returns the tool turn's content, also
 * when something on the way throws (the call is answered with what went wrong).
 */
async function runCall(deps: RequestDeps, call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
  try {
    return await tryCall(deps, call, signal);
  } catch (err) {
    if (signal.aborted) return { status: 'cancelled', content: CANCELLED_CALL };
    const reason = `internal error: ${errorMessage(err)}`;
    deps.observer({ type: 'status', message: `tool call ${call.name} failed: ${reason}` });
    const outcome: ToolOutcome = { status: 'error', content: `[aish] tool call failed: ${reason}` };
    record(() => deps.recorder?.audit({ name: call.name, arguments: call.arguments, decision: 'invalid', by: 'aish', duration_ms: 0, outcome: outcome.status }));
    return outcome;
  }
}

async function tryCall(deps: RequestDeps, call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
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
  if (nestedDeeperThan(args, MAX_ARGUMENT_DEPTH)) {
    const outcome = await frame(undefined, () => ({ status: 'error', content: `[aish] tool arguments nested deeper than ${MAX_ARGUMENT_DEPTH} levels; not run` }))();
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
    const outcome = await frame(args, () => schemaMismatchOutcome(problems))();
    audit('invalid', 'aish', outcome);
    return outcome;
  }
  const decision = await deps.gate.decide(call.name, args, deps.tools.annotations(call.name), signal);
  if (!decision.approved) {
    const unasked = deps.unattended === true && decision.by === 'no-terminal';
    const outcome: ToolOutcome = signal.aborted
      ? { status: 'cancelled', content: CANCELLED_CALL }
      : unasked
        ? { status: 'needs_approval', content: NEEDS_APPROVAL_CALL }
        : { status: 'denied', content: DECLINED_CALL };
    const how = signal.aborted ? 'cancelled' : unasked ? 'not run: it needs approval (mcp.auto_approve)' : 'declined';
    observer({ type: 'status', message: `tool call ${call.name} ${how}` });
    observer({ type: 'tool-declined', call, args, outcome });
    audit('declined', decision.by, outcome);
    return outcome;
  }
  const onProgress = (progress: ToolProgress) => observer({ type: 'tool-progress', call, progress });
  const outcome = await frame(args, () => deps.tools.call(call.name, args, { signal, onProgress }))();
  audit('approved', decision.by, outcome);
  return outcome;
}

/**
 * Whether a parsed JSON value nests objects and arrays deeper than `max`, found without recursion:
 * printing, validating or approving arguments nested thousands deep overflows the stack.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
