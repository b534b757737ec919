// A tool host with no tools: what the loop uses before any MCP server is connected. A call to an
// unknown tool still gets its tool turn, so the conversation stays well formed.

import { unknownToolOutcome } from '../tool-call.js';
import type { ToolHost } from '../turn/types.js';

export const noTools: ToolHost = {
  definitions: () => [],
  has: () => false,
  validate: () => [],
  annotations: () => undefined,
  call: async (name) => unknownToolOutcome(name),
};
