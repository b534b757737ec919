// :mcp connect | disconnect | login | logout | list | tools | tool | resources | read | prompts — the
// MCP servers of this session.

import { UsageError } from '../errors.js';
import type { McpRegistry } from '../mcp/registry.js';
import type { Renderer } from '../render/renderer.js';
import { cell, listPrompts, listResources, listWidth, readResource, resourceTargets, table, type McpListsPort } from './mcp-lists.js';
import type { MetaCommand } from './types.js';

export interface McpPort extends McpListsPort {
  readonly mcp: McpListsPort['mcp'] & Pick<McpRegistry, 'connect' | 'disconnect' | 'login' | 'logout' | 'list' | 'allTools' | 'findTool'>;
}

export { listWidth, table } from './mcp-lists.js';

const SUBCOMMANDS = ['connect', 'disconnect', 'login', 'logout', 'list', 'tools', 'tool', 'resources', 'read', 'prompts'];
const CONNECT_USAGE = 'usage: :mcp connect <url [alias] | command line [--alias NAME] | configured alias> [--token-env VAR]';

/** Takes `--flag VALUE` out of `args`; undefined when absent. */
function takeOption(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (!value || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
  args.splice(i, 2);
  return value;
}

async function connect(args: string[], ctx: McpPort, signal: AbortSignal): Promise<void> {
  const tokenEnv = takeOption(args, '--token-env');
  const aliasOption = takeOption(args, '--alias');
  const [target, ...rest] = args;
  if (!target) throw new UsageError(CONNECT_USAGE);
  // A URL takes an optional alias word; a command line is everything typed, its alias `--alias`.
  const isUrl = /^https?:\/\//.test(target);
  if (isUrl && rest.length > 1) throw new UsageError(CONNECT_USAGE);
  const alias = aliasOption ?? (isUrl ? rest[0] : undefined);
  const commandLine = isUrl ? target : [target, ...rest].join(' ');
  const session = await ctx.mcp.connect(commandLine, alias, { ...(tokenEnv ? { tokenEnv } : {}), signal });
  ctx.render.status(`mcp ${session.alias}: connected (${session.transport}, ${session.tools.length} tools)${offers(session)}`);
}

/** What a server offers besides tools, and where to see it: `; resources: :mcp resources ev`. */
function offers(session: { alias: string; lists: { offersResources: boolean; offersPrompts: boolean } }): string {
  const more = [
    ...(session.lists.offersResources ? [`resources: :mcp resources ${session.alias}`] : []),
    ...(session.lists.offersPrompts ? [`prompts: :mcp prompts ${session.alias}`] : []),
  ];
  return more.length > 0 ? `; ${more.join(', ')}` : '';
}

/** One `:mcp list` status cell: the state, and why a server failed. */
function statusCell(status: string, reason: string | undefined): string {
  return reason ? `${status}: ${reason}` : status;
}

export const mcpCommands: MetaCommand<McpPort>[] = [
  {
    name: 'mcp',
    usage:
      'connect <url [alias] | command [--alias NAME] | alias> [--token-env VAR] | disconnect <alias> | login <alias> | logout <alias> | list | tools | tool <alias__name> | resources [alias] | read <alias>:<uri> [--all] | prompts [alias]',
    summary: 'MCP servers: connect, disconnect, log in and out, list them, their tools, resources and prompts; read a resource',
    complete(prefix, ctx, args = '') {
      if (/^read\s+\S*$/.test(args)) return resourceTargets(ctx, prefix);
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
        case 'login': {
          const alias = args[0];
          if (!alias) throw new UsageError('usage: :mcp login <alias>');
          const session = await ctx.mcp.login(alias, signal);
          ctx.render.status(`mcp ${session.alias}: logged in and connected (${session.transport}, ${session.tools.length} tools)${offers(session)}`);
          return;
        }
        case 'logout': {
          const alias = args[0];
          if (!alias) throw new UsageError('usage: :mcp logout <alias>');
          const forgot = await ctx.mcp.logout(alias);
          ctx.render.status(`mcp ${alias}: ${forgot ? 'logged out (tokens forgotten)' : 'no login was kept'}`);
          return;
        }
        case 'list': {
          const rows = ctx.mcp.list();
          if (rows.length === 0) {
            ctx.render.info('no MCP servers (config mcp.servers, or :mcp connect <url>)');
            return;
          }
          // Fitted to a terminal's width; on a pipe one line per server, for a script to read.
          ctx.render.info(
            table(
              [
                ['alias', 'target', 'transport', 'tools', 'status'],
                ...rows.map((r) => [r.alias, r.target, r.transport, String(r.toolCount), statusCell(r.status, r.reason)]),
              ],
              listWidth(ctx.render),
            ),
          );
          return;
        }
        case 'tools': {
          const tools = ctx.mcp.allTools();
          if (tools.length === 0) {
            ctx.render.info('no MCP tools');
            return;
          }
          ctx.render.info(table(tools.map((t) => [t.wireName, cell((t.description ?? '').split('\n')[0], 200)]), listWidth(ctx.render)));
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
        case 'resources':
          await listResources(ctx, args[0]);
          return;
        case 'prompts':
          await listPrompts(ctx, args[0]);
          return;
        case 'read':
          await readResource(ctx, args, signal);
          return;
        default:
          throw new UsageError(`unknown :mcp subcommand "${sub}" (${SUBCOMMANDS.join(', ')})`);
      }
    },
  },
];
