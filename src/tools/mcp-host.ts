// The MCP registry seen as a ToolHost: what the tool loop needs and nothing else.

import type { McpRegistry } from '../mcp/registry.js';
import type { ToolHost } from '../turn/types.js';

export function mcpToolHost(registry: McpRegistry): ToolHost {
  return {
    definitions: () => registry.toolDefinitions(),
    has: (name) => registry.findTool(name) !== undefined,
    validate: (name, args) => registry.validateArguments(name, args),
    annotations: (name) => registry.findTool(name)?.tool.annotations,
    call: (name, args, { signal, onProgress }) => registry.callTool(name, args, { signal, ...(onProgress ? { onProgress } : {}) }),
  };
}
