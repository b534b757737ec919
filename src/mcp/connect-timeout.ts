// How long one connect of a server may take (docs/mcp.md "Connecting"): its own
// `connect_timeout_ms`, else a minute for a package launcher (`npx -y <server>` fetches the server
// first: 12-33 s on a cold npm cache), else the registry's default (10 s). Pure.

/** Default limit of a whole connect (start, initialize, tools/list). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** The limit of a server started by a package launcher, which may download it first. */
export const LAUNCHER_CONNECT_TIMEOUT_MS = 60_000;

/** Launchers by program name; `pnpm`, `yarn` and `bun` only with their download verb. */
const LAUNCHERS = new Set(['npx', 'pnpx', 'uvx', 'bunx']);
const LAUNCHER_VERBS: Record<string, string> = { pnpm: 'dlx', yarn: 'dlx', bun: 'x' };

/** Whether `command args` starts a package launcher (`npx`, `uvx`, `pnpm dlx`, `bunx`, ...). */
export function isPackageLauncher(command: string, args: readonly string[]): boolean {
  const name = command.split(/[\\/]/).pop()!.replace(/\.(cmd|exe|ps1)$/i, '').toLowerCase();
  return LAUNCHERS.has(name) || (LAUNCHER_VERBS[name] !== undefined && args[0] === LAUNCHER_VERBS[name]);
}

/**
 * The connect limit of `cfg`: `connect_timeout_ms` when set; else, for a package launcher, at
 * least a minute; else `fallback` (the registry's), else 10 s.
 */
export function connectTimeoutOf(cfg: { command?: string | undefined; args?: readonly string[]; connect_timeout_ms?: number | undefined }, fallback = DEFAULT_CONNECT_TIMEOUT_MS): number {
  if (cfg.connect_timeout_ms !== undefined) return cfg.connect_timeout_ms;
  if (cfg.command !== undefined && isPackageLauncher(cfg.command, cfg.args ?? [])) return Math.max(fallback, LAUNCHER_CONNECT_TIMEOUT_MS);
  return fallback;
}
