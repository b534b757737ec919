// MCP at start-up (SPEC §6): the session's registry built from the `mcp.*` settings, and the
// configured servers connected in parallel, best effort: one error line per failure, the alias
// absent until `:mcp connect`. Used by the REPL and by one-shot `-p` alike.

import type { Config } from '../config/schema.js';
import { McpRegistry } from './registry.js';

/** How start-up is shown: a busy line while connecting (its stop function), and failures. */
export interface StartupView {
  busy(label: string): () => void;
  error(message: string): void;
  status(message: string): void;
}

/** The session's MCP registry, with the `mcp.*` settings of the config. */
export function createRegistry(config: Config, env: Record<string, string | undefined>, version: string, view: Pick<StartupView, 'status'>): McpRegistry {
  return new McpRegistry({
    env,
    clientVersion: version,
    onStatus: (message) => view.status(message),
    callTimeoutMs: config.mcp.call_timeout_ms,
    maxResultChars: config.mcp.max_result_chars,
  });
}

/** Connects `mcp.servers` in parallel, best effort; resolves when every attempt has ended. */
export async function connectConfiguredServers(registry: McpRegistry, config: Config, view: StartupView): Promise<void> {
  const count = Object.keys(config.mcp.servers).length;
  if (count === 0) return;
  const stop = view.busy(`connecting ${count} MCP server${count === 1 ? '' : 's'}`);
  try {
    const failures = await registry.connectAll(config.mcp.servers);
    stop();
    for (const failure of failures) view.error(failure.error.message);
  } finally {
    stop();
  }
}
