// `:mcp resources [alias]`, `:mcp read <alias>:<uri>` and `:mcp prompts [alias]` (issue 27): what
// the connected servers offer the person, shown without asking the model. Every server string is
// made one line and neutralized before the columns are padded, so they line up and cannot act.

import { UsageError } from '../errors.js';
import { capText } from '../mcp/outcome.js';
import type { McpSession } from '../mcp/session.js';
import { alignColumns } from '../render/columns.js';
import { isClean, neutralize } from '../render/sanitize.js';
import type { McpRegistry } from '../mcp/registry.js';
import type { Renderer } from '../render/renderer.js';

/** What the resource and prompt lists, `:mcp read` and their Tab use. */
export interface McpListsPort {
  /** The lists are fitted to a terminal's width; on a pipe a row is one line, for a script to read. */
  readonly render: Pick<Renderer, 'info' | 'status' | 'io' | 'outputIsTerminal'>;
  readonly mcp: Pick<McpRegistry, 'connected' | 'connectedSession' | 'readResource'>;
}

/** Rows as aligned columns (the last column is not padded), fitted to `width` when given (columns.ts). */
export function table(rows: string[][], width = Infinity): string {
  return alignColumns(rows, width).join('\n');
}

/** The width a listing is fitted to: the terminal's, or none on a pipe (a row stays one line). */
export function listWidth(render: Pick<Renderer, 'io' | 'outputIsTerminal'>): number {
  return render.outputIsTerminal ? render.io.columns() : Infinity;
}

/** A server string as one visible line, cut at `max` characters. */
export function cell(text: string | undefined, max = 80): string {
  const line = neutralize((text ?? '').replace(/\s*\n\s*/g, ' ').trim());
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `12 KB` for a size in bytes; '' when not given. */
function size(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The sessions a list is about: the one named (which must offer `what`), else every connected one that does. */
async function sessionsFor(ctx: McpListsPort, alias: string | undefined, what: 'resources' | 'prompts'): Promise<McpSession[]> {
  const offers = (s: McpSession) => (what === 'resources' ? s.lists.offersResources : s.lists.offersPrompts);
  if (alias !== undefined) {
    const session = ctx.mcp.connectedSession(alias);
    if (!offers(session)) throw new UsageError(`mcp ${alias} offers no ${what}`);
    await session.lists.ready();
    return [session];
  }
  const sessions = ctx.mcp.connected().filter(offers);
  await Promise.all(sessions.map((s) => s.lists.ready()));
  return sessions;
}

/** One block per server offering `what` (or the one named), then a hint; a line when none does. */
async function showLists(ctx: McpListsPort, alias: string | undefined, what: 'resources' | 'prompts', block: (s: McpSession, width: number) => string, hint: string): Promise<void> {
  const sessions = await sessionsFor(ctx, alias, what);
  if (sessions.length === 0) {
    ctx.render.info(`no connected MCP server offers ${what}`);
    return;
  }
  ctx.render.info(`${sessions.map((s) => block(s, listWidth(ctx.render))).join('\n\n')}\n\n${hint.replace('<first>', sessions[0]!.alias)}`);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `:mcp resources [alias]`: each server's resources (name, URI, type, size) and templates. */
export function listResources(ctx: McpListsPort, alias: string | undefined): Promise<void> {
  return showLists(
    ctx,
    alias,
    'resources',
    (s, width) => {
      const { resources, templates } = s.lists;
      const lines = [`${s.alias}: ${plural(resources.length, 'resource')}, ${plural(templates.length, 'template')}`];
      if (resources.length) {
        lines.push(table([['  name', 'uri', 'type', 'size'], ...resources.map((r) => [`  ${cell(r.title ?? r.name, 40)}`, cell(r.uri, 120), cell(r.mimeType, 30), size(r.size)])], width));
      }
      if (templates.length) {
        lines.push(table([['  template', 'name', 'description'], ...templates.map((t) => [`  ${cell(t.uriTemplate, 120)}`, cell(t.title ?? t.name, 40), cell(t.description)])], width));
      }
      return lines.join('\n');
    },
    '@<first>:<uri> in a question attaches one; :mcp read <alias>:<uri> shows one',
  );
}

/** `:mcp prompts [alias]`: each server's prompts with their arguments (required ones marked). */
export function listPrompts(ctx: McpListsPort, alias: string | undefined): Promise<void> {
  return showLists(
    ctx,
    alias,
    'prompts',
    (s, width) => {
      const { prompts } = s.lists;
      const head = `${s.alias}: ${plural(prompts.length, 'prompt')}`;
      if (prompts.length === 0) return head;
      const rows = prompts.map((p) => {
        const args = p.arguments.map((a) => `${cell(a.name, 40)}${a.required ? ' (required)' : ''}`).join(', ');
        return [`  ${s.alias}:${cell(p.name, 60)}`, args || '-', cell(p.description ?? p.title)];
      });
      return `${head}\n${table([['  prompt', 'arguments', 'description'], ...rows], width)}`;
    },
    ':prompt <alias>:<name> [key=value ...] sends one to the model',
  );
}

/** `<alias>:<uri>` split at the first colon; a UsageError with `usage` when it is not one. */
export function aliasAndRest(text: string | undefined, usage: string): [string, string] {
  const colon = text?.indexOf(':') ?? -1;
  if (!text || colon <= 0 || colon === text.length - 1) throw new UsageError(usage);
  return [text.slice(0, colon), text.slice(colon + 1)];
}

const READ_USAGE = 'usage: :mcp read <alias>:<uri> [--all]';

/** The most of a resource's text `:mcp read` shows without `--all` (an attachment's default cap). */
export const READ_SHOWN_CHARS = 16_000;

/**
 * `:mcp read <alias>:<uri> [--all]`: the resource's text (or blob summary) on the terminal,
 * nothing to the model. A text over `READ_SHOWN_CHARS` is cut head and tail (an app's 1.2 MB
 * bundle would fill the scrollback), with a line saying how much was shown and that `--all`
 * shows the rest.
 */
export async function readResource(ctx: McpListsPort, args: readonly string[], signal: AbortSignal): Promise<void> {
  const all = args.includes('--all');
  const rest = args.filter((a) => a !== '--all');
  if (rest.length > 1 || rest.some((a) => a.startsWith('--'))) throw new UsageError(READ_USAGE);
  const [alias, uri] = aliasAndRest(rest[0], READ_USAGE);
  let parts;
  try {
    parts = await ctx.mcp.readResource(alias, uri, signal);
  } catch (err) {
    if (signal.aborted || !(err instanceof UsageError)) throw err;
    throw new UsageError(`${alias}:${uri}: ${err.message}`);
  }
  for (const part of parts) {
    const mime = part.mimeType ? ` (${part.mimeType})` : '';
    ctx.render.status(`${alias}:${part.uri}${mime}`);
    if ('summary' in part) {
      ctx.render.info(part.summary);
      continue;
    }
    const text = part.text.replace(/\n+$/, '');
    if (all || text.length <= READ_SHOWN_CHARS) {
      ctx.render.info(text);
      continue;
    }
    ctx.render.info(capText(text, READ_SHOWN_CHARS));
    ctx.render.status(`showed ${READ_SHOWN_CHARS} of ${text.length} chars (head and tail); :mcp read ${alias}:${uri} --all shows all of it`);
  }
}

/** Tab candidates `alias:<uri>` (and `alias:` for the servers) from the cached lists (a fetch in flight is waited for). */
export async function resourceTargets(ctx: McpListsPort, prefix: string): Promise<string[]> {
  const colon = prefix.indexOf(':');
  const sessions = ctx.mcp.connected().filter((s) => s.lists.offersResources);
  if (colon === -1) return sessions.map((s) => `${s.alias}:`).filter((a) => a.startsWith(prefix));
  const session = sessions.find((s) => s.alias === prefix.slice(0, colon));
  if (!session) return [];
  await session.lists.ready();
  return uriCandidates(session, prefix.slice(colon + 1)).map((u) => `${session.alias}:${u}`);
}

/** A session's resource URIs, and its templates up to their first variable, that start with `typed`. */
export function uriCandidates(session: McpSession, typed: string): string[] {
  const uris = [...session.lists.resources.map((r) => r.uri), ...session.lists.templates.map((t) => t.uriTemplate.split('{')[0]!)];
  // A URI that does not show as it is, or is not one word, is never offered to be typed back.
  return [...new Set(uris)].filter((u) => u !== '' && u.startsWith(typed) && isClean(u) && !/\s/.test(u)).sort();
}
