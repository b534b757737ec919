// A server's whole tool list as aish offers it (SPEC §6 "Names on the wire"): every page of
// `tools/list`, each tool under `<alias>__<safe name>`, with the map back to the server's names.
// Rejects as the SDK's `listTools` does; the session keeps its old list on failure.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { mapToolNames, toWireName, type ToolNameMap } from './naming.js';
import type { McpTool } from './session-types.js';

/** Fetches up to 100 pages of `tools/list` and maps the tools to safe wire names. */
export async function fetchToolList(
  client: Client,
  alias: string,
  signal: AbortSignal | undefined,
  timeout: number,
): Promise<{ names: ToolNameMap; tools: McpTool[] }> {
  const listed: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, { signal, timeout });
    listed.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  const names = mapToolNames(alias, listed.map((t) => t.name));
  const tools = listed.map((t): McpTool => {
    const wireName = toWireName(alias, names.toSafe.get(t.name)!);
    return {
      alias,
      wireName,
      name: t.name,
      ...(t.title !== undefined ? { title: t.title } : {}),
      description: t.description ?? t.title ?? t.annotations?.title ?? '',
      inputSchema: t.inputSchema as Record<string, unknown>,
      annotations: t.annotations ?? {},
    };
  });
  return { names, tools };
}
