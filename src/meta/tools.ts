// :tools — every tool of the session (built-ins and MCP) with its group and state, what the next
// request carries, and `enable|disable <group|tool|pattern>` switches kept with the session.

import { UsageError } from '../errors.js';
import { table } from './mcp.js';
import type { SessionStore } from '../history/session.js';
import type { TurnCore } from '../turn/core.js';
import type { ToolControls } from '../turn/types.js';
import type { MetaCommand, Say } from './types.js';

export interface ToolsPort extends Say {
  /** The tools used so far (they stay in the next request). */
  readonly core: Pick<TurnCore, 'context'>;
  readonly tools: Pick<ToolControls, 'rows' | 'nextRequest' | 'apply' | 'rules' | 'groups'>;
  /** The session log keeps the switches, for `:resume`. */
  readonly sessions: Pick<SessionStore, 'toolRules'>;
}

const USAGE = 'usage: :tools [enable|disable <group|tool|alias__*>]';

function usedTools(ctx: ToolsPort): string[] {
  return ctx.core.context.turns.flatMap((t) => (t.role === 'assistant' ? (t.tool_calls ?? []).map((c) => c.name) : []));
}

function list(ctx: ToolsPort): void {
  const rows = ctx.tools.rows();
  const next = ctx.tools.nextRequest({ words: '', used: usedTools(ctx) });
  const on = rows.filter((r) => r.enabled).length;
  if (rows.length > 0) ctx.render.info(table(rows.map((r) => [r.name, r.group ?? '-', r.enabled ? 'on' : 'off'])));
  ctx.render.info(`${rows.length} tools, ${on} on; the next request carries ${next.tools} tools, about ${next.tokens} tokens of schema`);
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
    usage: '[enable|disable <group|tool|alias__*>]',
    summary: 'tools with group and state, the size of the next request; switch tools on and off',
    complete(prefix, ctx) {
      const [sub, arg] = prefix.split(/\s+/, 2);
      if (arg === undefined) return ['enable', 'disable'].filter((s) => s.startsWith(sub ?? ''));
      return [...ctx.tools.groups(), ...ctx.tools.rows().map((r) => r.name)].filter((n) => n.startsWith(arg)).map((n) => `${sub} ${n}`);
    },
    run(args, ctx) {
      const [sub, target, ...rest] = args.trim().split(/\s+/).filter(Boolean);
      if (sub === undefined) return list(ctx);
      if ((sub !== 'enable' && sub !== 'disable') || rest.length > 0) throw new UsageError(USAGE);
      toggle(sub, target, ctx);
    },
  },
];
