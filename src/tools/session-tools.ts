// The tools of a session as the turn core sees them: aish's built-ins (as `tools.builtin` enables
// them) followed by every connected MCP server's, through one ToolHost, within the tool budget.
// The REPL and one-shot build theirs here, so both offer the same tools.

import type { McpRegistry } from '../mcp/registry.js';
import type { ToolHost } from '../turn/types.js';
import { budgetTools, FIND_TOOLS } from './budget.js';
import { builtinToolHost } from './builtin.js';
import { composeToolHosts } from './compose.js';
import { mcpToolHost } from './mcp-host.js';

export interface SessionToolsOptions {
  mcp: McpRegistry;
  /** Built-in tool names to offer (`enabledBuiltins(config.tools.builtin)`). */
  builtins: readonly string[];
  /** The shell's current directory, which follows `cd`. */
  cwd: () => string;
  /** `mcp.max_result_chars`: the cap of `aish__read_file`. */
  maxChars: number;
  /** `mcp.max_tools`. */
  maxTools: number;
}

export function sessionTools(opts: SessionToolsOptions): ToolHost {
  const builtins = builtinToolHost({
    enabled: opts.builtins,
    cwd: opts.cwd,
    now: () => new Date(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    maxChars: opts.maxChars,
  });
  return budgetTools(composeToolHosts([builtins, mcpToolHost(opts.mcp)]), { maxTools: opts.maxTools, findTools: opts.builtins.includes(FIND_TOOLS) });
}
