// The tools of a session as the turn core sees them: aish's built-ins (as `tools.builtin` enables
// them) followed by every connected MCP server's, without those switched off (`:tools`), within
// the tool budget. The REPL and one-shot build theirs here, so both offer the same tools.

import type { McpRegistry } from '../mcp/registry.js';
import type { ToolControls, ToolHint, ToolHost, ToolRule } from '../turn/types.js';
import { budgetTools, FIND_TOOLS } from './budget.js';
import { builtinToolHost } from './builtin.js';
import { composeToolHosts } from './compose.js';
import { mcpToolHost } from './mcp-host.js';
import { switchedTools, ToolSwitches } from './switches.js';

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
  /** `mcp.groups`. */
  groups?: Record<string, readonly string[]>;
  /** Told once when the tools sent are trimmed to `maxTools` (a status line naming `:tools`). */
  onTrimmed?: (message: string) => void;
}

/** The session's ToolHost (`host`) and its runtime switches. */
export class SessionTools implements ToolControls {
  readonly host: ToolHost;
  readonly #all: ToolHost;
  readonly #switches: ToolSwitches;

  constructor(opts: SessionToolsOptions) {
    const builtins = builtinToolHost({
      enabled: opts.builtins,
      cwd: opts.cwd,
      now: () => new Date(),
      timeZone: () => Intl.DateTimeFormat().resolvedOptions().timeZone,
      maxChars: opts.maxChars,
    });
    this.#all = composeToolHosts([builtins, mcpToolHost(opts.mcp)]);
    this.#switches = new ToolSwitches(opts.groups ?? {});
    this.host = budgetTools(switchedTools(this.#all, this.#switches), {
      maxTools: opts.maxTools,
      findTools: opts.builtins.includes(FIND_TOOLS),
      ...(opts.onTrimmed ? { onTrimmed: opts.onTrimmed } : {}),
    });
  }

  #names(): string[] {
    return this.#all.definitions().map((d) => d.function.name);
  }

  rows() {
    return this.#names().map((name) => ({ name, group: this.#switches.groupOf(name), enabled: this.#switches.isEnabled(name) }));
  }

  apply(rule: ToolRule) {
    return this.#switches.apply(rule, this.#names());
  }

  rules() {
    return this.#switches.rules;
  }

  restore(rules: readonly ToolRule[]) {
    this.#switches.restore(rules);
  }

  nextRequest(hint: ToolHint) {
    const defs = this.host.definitions(hint);
    // About four characters a token: rough, and the same for every model.
    return { tools: defs.length, tokens: Math.ceil(JSON.stringify(defs).length / 4) };
  }

  groups() {
    return this.#switches.groupNames();
  }
}
