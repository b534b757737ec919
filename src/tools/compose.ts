// Several tool hosts seen as one (built-ins and MCP): definitions in order, every other request
// sent to the host that offers the name. Names are unique across hosts: built-ins use the alias
// `aish`, which no MCP server may take.

import { unknownToolOutcome } from '../tool-call.js';
import type { ToolHost } from '../turn/types.js';

export function composeToolHosts(hosts: readonly ToolHost[]): ToolHost {
  const owner = (name: string) => hosts.find((h) => h.definitions().some((d) => d.function.name === name));
  return {
    definitions: (hint) => hosts.flatMap((h) => h.definitions(hint)),
    has: (name) => hosts.some((h) => h.has(name)),
    validate: (name, args) => owner(name)?.validate(name, args) ?? [],
    annotations: (name) => owner(name)?.annotations(name),
    call: async (name, args, opts) => {
      const host = owner(name);
      return host ? host.call(name, args, opts) : unknownToolOutcome(name);
    },
  };
}
