// :tools — every tool of the session (built-ins and MCP) with its group and state, what the next
// request carries, `enable|disable <group|tool|pattern>` switches kept with the session, and
// `last`: the last call's arguments and whole result, which the turn view folds to one line.

import { UsageError } from '../errors.js';
import { listWidth, table } from './mcp.js';
import type { SessionStore } from '../history/session.js';
import type { TurnCore } from '../turn/core.js';
import type { ToolControls } from '../turn/types.js';
import type { Renderer } from '../render/renderer.js';
import type { MetaCommand } from './types.js';

export interface ToolsPort {
  /** The list is fitted to a terminal's width. */
  readonly render: Pick<Renderer, 'info' | 'status' | 'io' | 'outputIsTerminal'>;
  /** The tools used so far (they stay in the next request). */
  readonly core: Pick<TurnCore, 'context'>;
  readonly tools: Pick<ToolControls, 'rows' | 'nextRequest' | 'apply' | 'rules' | 'groups'>;
  /** The session log keeps the switches, for `:resume`. */
  readonly sessions: Pick<SessionStore, 'toolRules'>;
}

const USAGE = 'usage: :tools [last | enable|disable <group|tool|alias__*>]';

function usedTools(ctx: ToolsPort): string[] {
  return ctx.core.context.turns.flatMap((t) => (t.role === 'assistant' ? (t.tool_calls ?? []).map((c) => c.name) : []));
}

function list(ctx: ToolsPort): void {
  const rows = ctx.tools.rows();
  const next = ctx.tools.nextRequest({ words: '', used: usedTools(ctx) });
  const on = rows.filter((r) => r.enabled).length;
  if (rows.length > 0) ctx.render.info(table(rows.map((r) => [r.name, r.group ?? '-', r.enabled ? 'on' : 'off']), listWidth(ctx.render)));
  ctx.render.info(`${rows.length} tools, ${on} on; the next request carries ${next.tools} tools, about ${next.tokens} tokens of schema`);
}

/** Arguments as indented JSON; as the model sent them when they are not JSON. */
function argumentsText(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/**
 * The last call in the conversation and its result, as the model read it (after
 * `mcp.max_result_chars`). Shown through `render.info`, so secrets are redacted and control
 * characters made visible like every other text from outside.
 */
function last(ctx: ToolsPort): void {
  const turns = ctx.core.context.turns;
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    const call = turn.role === 'assistant' ? turn.tool_calls?.at(-1) : undefined;
    if (!call) continue;
    const result = turns.slice(i + 1).find((t) => t.role === 'tool' && t.tool_call_id === call.id);
    const shown = result ? `result:\n${result.content}` : 'result: none (the call has no result in the conversation)';
    ctx.render.info(`${call.name} (call ${call.id})\narguments:\n${argumentsText(call.arguments)}\n${shown}`);
    return;
  }
  throw new UsageError('no tool call in the conversation yet');
}

function toggle(op: 'enable' | 'disable', target: string | undefined, ctx: ToolsPort): void {
  if (!target) throw new UsageError(USAGE);
  const result = ctx.tools.apply({ op, target });
  if ('problem' in result) throw new UsageError(result.problem);
  ctx.sessions.toolRules(ctx.tools.rules());
  const n = result.touched.length;
  ctx.render.status(`${op}d ${target}: ${n} tool${n === 1 ? '' : 's'}${n ? ` (${result.touched.join(', ')})` : ''}`);
}

export const toolsCommands: MetaCommand<ToolsPort>[] = [
  {
    name: 'tools',
    usage: '[last | enable|disable <group|tool|alias__*>]',
    summary: 'tools with group and state, the size of the next request; the last call in full; switch tools on and off',
    complete(prefix, ctx) {
      const [sub, arg] = prefix.split(/\s+/, 2);
      if (arg === undefined) return ['last', 'enable', 'disable'].filter((s) => s.startsWith(sub ?? ''));
      if (sub === 'last') return [];
      return [...ctx.tools.groups(), ...ctx.tools.rows().map((r) => r.name)].filter((n) => n.startsWith(arg)).map((n) => `${sub} ${n}`);
    },
    run(args, ctx) {
      const [sub, target, ...rest] = args.trim().split(/\s+/).filter(Boolean);
      if (sub === undefined) return list(ctx);
      if (sub === 'last' && target === undefined) return last(ctx);
      if ((sub !== 'enable' && sub !== 'disable') || rest.length > 0) throw new UsageError(USAGE);
      toggle(sub, target, ctx);
    },
  },
];
