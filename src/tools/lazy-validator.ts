// JSON Schema checks for tools aish defines itself, with the same validator as MCP tools. ajv is
// loaded on first use, off the start-up path: `check` answers [] until it has loaded, `checkNow`
// waits for it, so a tool that checks again before running never runs on unchecked arguments.

import type { ArgumentValidator } from '../mcp/validate.js';

export interface LazyValidator {
  /** Errors for `args`; [] while the validator is still loading (it starts loading here). */
  check(schema: Record<string, unknown>, args: unknown): string[];
  /** Errors for `args`, loading the validator first if needed. */
  checkNow(schema: Record<string, unknown>, args: unknown): Promise<string[]>;
}

export function lazyValidator(): LazyValidator {
  let loaded: ArgumentValidator | undefined;
  let loading: Promise<ArgumentValidator> | undefined;
  const load = () => (loading ??= import('../mcp/validate.js').then((m) => (loaded = new m.ArgumentValidator())));
  const errorsOf = (v: ArgumentValidator, schema: Record<string, unknown>, args: unknown) => {
    const result = v.check(schema, args);
    return 'errors' in result ? result.errors : [];
  };
  return {
    check(schema, args) {
      if (!loaded) {
        load().catch(() => {}); // checkNow reports a failed load
        return [];
      }
      return errorsOf(loaded, schema, args);
    },
    async checkNow(schema, args) {
      return errorsOf(await load(), schema, args);
    },
  };
}
