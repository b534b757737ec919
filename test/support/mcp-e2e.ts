// The setup of the end-to-end MCP client tests: server-everything over streamable HTTP for the
// whole file, and per test a fresh HOME and loopback model server (model-e2e.ts), with the config `configure`
// writes. Also the two helpers they share: a scripted tool call and the tool turn sent back for it.

import { afterAll, beforeAll } from 'vitest';
import type { AishHome } from './aish-env.js';
import { startEverything, stopAllServers, type RunningServer } from './mcp-servers.js';
import { modelE2e } from './model-e2e.js';
import { type ModelServer, toolCallReply } from './model-server.js';

export interface McpE2e {
  readonly h: AishHome;
  readonly server: ModelServer;
  /** Writes the config again with these `mcp` keys added. */
  writeConfig(mcp?: Record<string, unknown>): void;
  /** A model reply calling one tool. */
  call(id: string, name: string, args?: Record<string, unknown>): ReturnType<typeof toolCallReply>;
  /** The tool turn the model was sent back for call `id`. */
  toolTurn(id: string): { content: string };
}

export function mcpE2e(servers: (everything: RunningServer) => Record<string, unknown>, mcp: Record<string, unknown> = {}): McpE2e {
  let everything: RunningServer;
  beforeAll(async () => {
    everything = await startEverything('streamableHttp');
  });
  afterAll(async () => {
    await stopAllServers();
  });
  const base = modelE2e((extra) => ({ mcp: { servers: servers(everything), ...mcp, ...extra } }));
  return {
    get h() {
      return base.h;
    },
    get server() {
      return base.server;
    },
    writeConfig: base.writeConfig,
    call: (id, name, args = {}) => toolCallReply([{ id, name, arguments: JSON.stringify(args) }]),
    toolTurn: (id) => base.server.requests.flatMap((r) => r.body.messages).find((m: { tool_call_id?: string }) => m.tool_call_id === id),
  };
}
