// :mcp connect | disconnect | list | tools | tool — the MCP servers of this session.

import { UsageError } from '../errors.js';
import type { MetaCommand, MetaContext } from './types.js';

const SUBCOMMANDS = ['connect', 'disconnect', 'list', 'tools', 'tool'];

/** Rows as aligned columns (the last column is not padded). */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

async function connect(args: string[], ctx: MetaContext, signal: AbortSignal): Promise<void> {
  let tokenEnv: string | undefined;
  const i = args.indexOf('--token-env');
  if (i !== -1) {
    tokenEnv = args[i + 1];
    if (!tokenEnv) throw new UsageError('--token-env needs a variable name');
    args.splice(i, 2);
  }
  const [target, ...rest] = args;
  if (!target) throw new UsageError('usage: :mcp connect <url|command line> [alias] [--token-env VAR]');
  // A URL takes an optional alias; a command line is everything typed (quote it to give an alias).
  const isUrl = /^https?:\/\//.test(target);
  const alias = isUrl ? rest[0] : undefined;
  const commandLine = isUrl ? target : [target, ...rest].join(' ');
  const session = await ctx.mcp.connect(commandLine, alias, { ...(tokenEnv ? { tokenEnv } : {}), signal });
  ctx.render.status(`mcp ${session.alias}: connected (${session.transport}, ${session.tools.length} tools)`);
}

export const mcpCommands: MetaCommand[] = [
  {
    name: 'mcp',
    usage: 'connect <url|command> [alias] [--token-env VAR] | disconnect <alias> | list | tools | tool <alias__name>',
    summary: 'MCP servers: connect, disconnect, list them and their tools',
    complete(prefix, ctx) {
      return SUBCOMMANDS.filter((s) => s.startsWith(prefix))
        .concat(ctx.mcp.list().map((r) => r.alias).filter((a) => a.startsWith(prefix)))
        .concat(ctx.mcp.allTools().map((t) => t.wireName).filter((n) => n.startsWith(prefix) && prefix.length > 0));
    },
    async run(argText, ctx, signal) {
      const args = argText.trim().split(/\s+/).filter(Boolean);
      const sub = args.shift() ?? 'list';
      switch (sub) {
        case 'connect':
          await connect(args, ctx, signal);
          return;
        case 'disconnect': {
          const alias = args[0];
          if (!alias) throw new UsageError('usage: :mcp disconnect <alias>');
          if (!(await ctx.mcp.disconnect(alias))) throw new UsageError(`no MCP server named ${alias}`);
          ctx.render.status(`mcp ${alias}: disconnected`);
          return;
        }
        case 'list': {
          const rows = ctx.mcp.list();
          if (rows.length === 0) {
            ctx.render.info('no MCP servers (config mcp.servers, or :mcp connect <url>)');
            return;
          }
          ctx.render.info(
            table([
              ['alias', 'target', 'transport', 'tools', 'status'],
              ...rows.map((r) => [r.alias, r.target, r.transport, String(r.toolCount), r.status]),
            ]),
          );
          return;
        }
        case 'tools': {
          const tools = ctx.mcp.allTools();
          if (tools.length === 0) {
            ctx.render.info('no MCP tools');
            return;
          }
          const width = Math.max(...tools.map((t) => t.wireName.length));
          ctx.render.info(tools.map((t) => `${t.wireName.padEnd(width)}  ${(t.description ?? '').split('\n')[0]}`).join('\n'));
          return;
        }
        case 'tool': {
          const name = args[0];
          if (!name) throw new UsageError('usage: :mcp tool <alias__name>');
          const found = ctx.mcp.findTool(name);
          if (!found) throw new UsageError(`no tool named ${name} (:mcp tools lists them)`);
          const t = found.tool;
          ctx.render.info(
            [`${t.wireName}${t.name !== t.wireName.slice(t.alias.length + 2) ? ` (server name: ${t.name})` : ''}`, t.description ?? '', JSON.stringify(t.inputSchema, null, 2)]
              .filter(Boolean)
              .join('\n'),
          );
          return;
        }
        default:
          throw new UsageError(`unknown :mcp subcommand "${sub}" (${SUBCOMMANDS.join(', ')})`);
      }
    },
  },
];
