// The turns of a conversation (SPEC §7) and the rules they follow: the shape of each role and the
// order between them. Pure functions, shared by the Context store and the session loader, so a
// loaded session can always be appended to a Context.

import type { ToolCall } from '../broker/types.js';
import { AishError } from '../errors.js';
import { isRecord } from '../is-record.js';

/** One call the model made: the broker's ToolCall (`arguments` the raw JSON text, maybe invalid). */
export type { ToolCall };

/** What the person sent: typed text, with any pending exec output in front (SPEC §4). */
export interface UserTurn {
  role: 'user';
  content: string;
}

/** A reply. `content` keeps the text streamed before any calls; it may be empty when calls exist. */
export interface AssistantTurn {
  role: 'assistant';
  content: string;
  tool_calls?: ToolCall[];
}

/** The one result of one call. `name` is the called `alias__tool`, for `[tool: <name>]` rendering. */
export interface ToolTurn {
  role: 'tool';
  tool_call_id: string;
  content: string;
  name?: string;
}

export type Turn = UserTurn | AssistantTurn | ToolTurn;
export type Role = Turn['role'];

/** A turn that breaks the conversation's rules: a bad shape, or a place it may not take. */
export class ContextOrderError extends AishError {
  constructor(message: string) {
    super('context', message);
  }
}

/**
 * Checks the shape of a turn for its role and returns a clean, frozen copy holding only the known
 * fields. Tool calls are accepted as stored (`{id, name, arguments}`) or in the OpenAI wire shape
 * (`{id, type, function: {name, arguments}}`); an empty `tool_calls` array is dropped.
 * Throws ContextOrderError naming the field.
 */
export function parseTurn(value: unknown): Turn {
  if (!isRecord(value)) throw new ContextOrderError('a turn must be an object');
  const role = value.role;
  switch (role) {
    case 'user':
      return Object.freeze({ role, content: text(value, 'content', 'user turn') });
    case 'assistant': {
      const content = text(value, 'content', 'assistant turn');
      const raw = value.tool_calls;
      if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) {
        return Object.freeze({ role, content });
      }
      if (!Array.isArray(raw)) throw new ContextOrderError('assistant turn: tool_calls must be an array');
      const calls = raw.map((c, i) => parseToolCall(c, `assistant turn: tool_calls[${i}]`));
      const ids = new Set(calls.map((c) => c.id));
      if (ids.size !== calls.length) throw new ContextOrderError('assistant turn: two tool calls share an id');
      return Object.freeze({ role, content, tool_calls: Object.freeze(calls) as ToolCall[] });
    }
    case 'tool': {
      const id = text(value, 'tool_call_id', 'tool turn');
      if (id === '') throw new ContextOrderError('tool turn: tool_call_id must not be empty');
      const content = text(value, 'content', 'tool turn');
      const name = value.name;
      if (name !== undefined && typeof name !== 'string') throw new ContextOrderError('tool turn: name must be a string');
      return Object.freeze(name ? { role, tool_call_id: id, content, name } : { role, tool_call_id: id, content });
    }
    default:
      throw new ContextOrderError(`unknown turn role ${JSON.stringify(role)}`);
  }
}

function parseToolCall(value: unknown, where: string): ToolCall {
  if (!isRecord(value)) throw new ContextOrderError(`${where} must be an object`);
  const fn = isRecord(value.function) ? value.function : value;
  const id = value.id;
  const name = fn.name;
  let args = fn.arguments ?? '';
  if (typeof id !== 'string' || id === '') throw new ContextOrderError(`${where}: id must be a non-empty string`);
  if (typeof name !== 'string' || name === '') throw new ContextOrderError(`${where}: name must be a non-empty string`);
  if (typeof args !== 'string') args = JSON.stringify(args);
  return Object.freeze({ id, name, arguments: args as string });
}

/**
 * Why `turn` cannot come next, or null when it can. `last` is the last turn so far and `open` the
 * calls of the last assistant turn not yet answered. The rules: the conversation starts with a
 * user turn; never two user or two assistant turns in a row; a tool turn answers an open call of
 * the assistant turn it follows; nothing but tool turns while calls are open — the tool loop must
 * answer every call (declined, failed and cancelled calls included) before anything else.
 */
export function orderProblem(last: Turn | undefined, open: readonly ToolCall[], turn: Turn): string | null {
  const unanswered = () => `tool calls ${open.map((c) => c.id).join(', ')} are unanswered`;
  switch (turn.role) {
    case 'user':
      if (open.length > 0) return `a user turn cannot come while ${unanswered()}`;
      if (last?.role === 'user') return 'two user turns in a row';
      return null;
    case 'assistant':
      if (last === undefined) return 'the conversation must start with a user turn';
      if (open.length > 0) return `an assistant turn cannot come while ${unanswered()}`;
      if (last.role === 'assistant') return 'two assistant turns in a row';
      return null;
    case 'tool':
      if (open.some((c) => c.id === turn.tool_call_id)) return null;
      return open.length > 0
        ? `tool turn for ${turn.tool_call_id} answers no open call (open: ${open.map((c) => c.id).join(', ')})`
        : `tool turn for ${turn.tool_call_id} answers no open call of a preceding assistant turn`;
  }
}

/** The calls still open once `turn` (already accepted) is added. */
export function nextOpenCalls(open: readonly ToolCall[], turn: Turn): ToolCall[] {
  switch (turn.role) {
    case 'assistant':
      return turn.tool_calls ? [...turn.tool_calls] : [];
    case 'tool':
      return open.filter((c) => c.id !== turn.tool_call_id);
    case 'user':
      return [];
  }
}

/** A tool turn with `name` taken from the call it answers when it came without one. */
export function withToolName(turn: Turn, open: readonly ToolCall[]): Turn {
  if (turn.role !== 'tool' || turn.name) return turn;
  const call = open.find((c) => c.id === turn.tool_call_id);
  return call ? Object.freeze({ ...turn, name: call.name }) : turn;
}

/** Characters a turn sends to the model: content plus tool call names and arguments. */
export function turnChars(turn: Turn): number {
  let chars = turn.content.length;
  if (turn.role === 'assistant' && turn.tool_calls) {
    for (const c of turn.tool_calls) chars += c.name.length + c.arguments.length;
  }
  return chars;
}

/** The chars / 4 estimate of SPEC §7, rounded up. */
export function charsToTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

function text(value: Record<string, unknown>, key: string, where: string): string {
  const v = value[key];
  if (typeof v !== 'string') throw new ContextOrderError(`${where}: ${key} must be a string`);
  return v;
}
