// Tools switched on and off at runtime (`:tools enable|disable <group|tool|pattern>`, seed 003 tool
// groups): an ordered list of rules, the last one that matches a tool deciding, so a pattern also
// covers tools of a server that connects later. A disabled tool is not offered, and a call to it
// (a model that remembers it) gets a tool turn saying so.

import type { ToolHost, ToolRule } from '../turn/types.js';

type ToolDefinition = ReturnType<ToolHost['definitions']>[number];

/** An entry of `mcp.groups` or a target: `name`, or a pattern with `*` (`fs__*`, `*_file`). */
export function matchesEntry(entry: string, name: string): boolean {
  if (!entry.includes('*')) return entry === name;
  const body = entry.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}$`).test(name);
}

export class ToolSwitches {
  #rules: ToolRule[] = [];
  readonly #groups: Record<string, readonly string[]>;

  constructor(groups: Record<string, readonly string[]>) {
    this.#groups = groups;
  }

  get rules(): readonly ToolRule[] {
    return this.#rules;
  }

  groupNames(): string[] {
    return Object.keys(this.#groups);
  }

  /** The first group naming `tool`. */
  groupOf(tool: string): string | undefined {
    return Object.entries(this.#groups).find(([, entries]) => entries.some((e) => matchesEntry(e, tool)))?.[0];
  }

  isEnabled(tool: string): boolean {
    let enabled = true;
    for (const rule of this.#rules) if (this.#covers(rule.target, tool)) enabled = rule.op === 'enable';
    return enabled;
  }

  /** Adds a rule (replacing an earlier one for the same target); `all` are the tools there are. */
  apply(rule: ToolRule, all: readonly string[]): { touched: string[] } | { problem: string } {
    const touched = all.filter((t) => this.#covers(rule.target, t));
    const known = this.#groups[rule.target] !== undefined || rule.target.includes('*');
    if (!known && touched.length === 0) return { problem: `no group or tool named ${rule.target} (:tools lists them)` };
    this.#rules = [...this.#rules.filter((r) => r.target !== rule.target), rule];
    return { touched };
  }

  restore(rules: readonly ToolRule[]): void {
    this.#rules = [...rules];
  }

  #covers(target: string, tool: string): boolean {
    const group = this.#groups[target];
    return group ? group.some((e) => matchesEntry(e, tool)) : matchesEntry(target, tool);
  }
}

/** `inner` without the tools `switches` turned off. */
export function switchedTools(inner: ToolHost, switches: ToolSwitches): ToolHost {
  return {
    definitions: (hint) => inner.definitions(hint).filter((d: ToolDefinition) => switches.isEnabled(d.function.name)),
    // A tool switched off still exists: a call to it hears that it is off, not that it is unknown.
    has: (name) => inner.has(name),
    validate: (name, args) => inner.validate(name, args),
    annotations: (name) => inner.annotations(name),
    call: async (name, args, options) =>
      switches.isEnabled(name) ? inner.call(name, args, options) : { status: 'error', content: `[aish] tool ${name} is switched off in this session (:tools enable ${name})` },
  };
}
