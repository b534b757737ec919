// The setup of the end-to-end MCP client tests: server-everything over streamable HTTP for the
// whole file, and per test a fresh HOME and loopback model server, with the config `configure`
// writes. Also the two helpers they share: a scripted tool call and the tool turn sent back for it.

import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { makeHome, type AishHome } from './aish-env.js';
import { startEverything, stopAllServers, type RunningServer } from './mcp-servers.js';
import { ModelServer, toolCallReply } from './model-server.js';

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
  let h: AishHome;
  let server: ModelServer;
  const writeConfig = (extra: Record<string, unknown> = {}) =>
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, mcp: { servers: servers(everything), ...mcp, ...extra } });
  beforeAll(async () => {
    everything = await startEverything('streamableHttp');
  });
  afterAll(async () => {
    await stopAllServers();
  });
  beforeEach(async () => {
    h = makeHome();
    server = await ModelServer.start();
    writeConfig();
  });
  afterEach(async () => {
    await server.close();
    h.cleanup();
  });
  return {
    get h() {
      return h;
    },
    get server() {
      return server;
    },
    writeConfig,
    call: (id, name, args = {}) => toolCallReply([{ id, name, arguments: JSON.stringify(args) }]),
    toolTurn: (id) => server.requests.flatMap((r) => r.body.messages).find((m: { tool_call_id?: string }) => m.tool_call_id === id),
  };
}
