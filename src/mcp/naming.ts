// Tool names on the wire: `<alias>__<tool>`, matching ^[a-zA-Z0-9_-]{1,128}$ (SPEC §6, seed 000).
// Pure functions: aliases derived from a URL or a command line, server tool names that do not fit
// mapped to safe names (and back), and the split of a wire name at its leftmost `__`.

/** What a tool name sent to a model must match (the strictest provider rule, Bedrock's). */
export const WIRE_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

/** Between alias and tool name. Aliases never contain it, so the leftmost one is the split. */
export const ALIAS_SEPARATOR = '__';

/** Longest alias aish accepts; leaves at least 78 characters of a wire name for the tool. */
export const MAX_ALIAS_LENGTH = 48;

/** The alias of aish's own tools (`aish__current_date`, ...); no server may take it. */
export const BUILTIN_ALIAS = 'aish';

const MAX_WIRE_NAME_LENGTH = 128;
const ALIAS_CHARS = /^[a-zA-Z0-9_-]+$/;

/**
 * Why `alias` cannot be used, or undefined when it can. Besides the charset: no `__` and no
 * trailing `_` (in `a___tool` the leftmost `__` would cut the alias short).
 */
export function aliasProblem(alias: string): string | undefined {
  if (alias.length === 0) return 'an alias may not be empty';
  if (alias === BUILTIN_ALIAS) return `alias "${alias}" is reserved for aish's built-in tools`;
  if (!ALIAS_CHARS.test(alias)) return `alias "${alias}" may use only letters, digits, _ and -`;
  if (alias.includes(ALIAS_SEPARATOR)) return `alias "${alias}" may not contain "__"`;
  if (alias.endsWith('_')) return `alias "${alias}" may not end with "_"`;
  if (alias.length > MAX_ALIAS_LENGTH) return `alias "${alias}" is longer than ${MAX_ALIAS_LENGTH} characters`;
  return undefined;
}

/** `<alias>__<tool>`; the caller guarantees both parts are safe (see `mapToolNames`). */
export function toWireName(alias: string, tool: string): string {
  return `${alias}${ALIAS_SEPARATOR}${tool}`;
}

/** Splits at the leftmost `__`; undefined when there is none or either side is empty. */
export function splitWireName(name: string): { alias: string; tool: string } | undefined {
  const at = name.indexOf(ALIAS_SEPARATOR);
  if (at <= 0) return undefined;
  const tool = name.slice(at + ALIAS_SEPARATOR.length);
  if (tool.length === 0) return undefined;
  return { alias: name.slice(0, at), tool };
}

/** Turns any text into alias characters: runs of anything else become `-`, `_` runs collapse. */
function sanitizeAlias(raw: string): string {
  const cleaned = raw
    .replace(/[^a-zA-Z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^[-_]+|[-_]+$/g, '');
  return cleaned.slice(0, MAX_ALIAS_LENGTH).replace(/[-_]+$/, '');
}

/** `base`, or `base-2`, `base-3`, ... : the first not in `taken`, cut so it stays within the limit. */
export function uniqueAlias(base: string, taken: ReadonlySet<string>): string {
  const root = base || 'mcp';
  if (!taken.has(root) && root !== BUILTIN_ALIAS) return root;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${root.slice(0, MAX_ALIAS_LENGTH - suffix.length).replace(/[-_]+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The alias for an HTTP server: the URL host's first label (`boltzmann` from
 * `http://boltzmann.fritz.box:8080/mcp`). Loopback hosts (`localhost`, `127.x.x.x`, `[::1]`) give
 * `local`; another IPv4 address gives `ip-192-168-1-5`, another IPv6 address `ip6`. Made unique
 * against `taken` with `-2`, `-3`, ...
 */
export function deriveAlias(url: string | URL, taken: ReadonlySet<string>): string {
  let host: string;
  try {
    host = (typeof url === 'string' ? new URL(url) : url).hostname.toLowerCase();
  } catch {
    host = '';
  }
  let base: string;
  if (host === 'localhost' || host.endsWith('.localhost') || host.startsWith('127.') || host === '[::1]') {
    base = 'local';
  } else if (IPV4.test(host)) {
    base = `ip-${host.replaceAll('.', '-')}`;
  } else if (host.startsWith('[')) {
    base = 'ip6';
  } else {
    base = sanitizeAlias(host.split('.')[0] ?? '');
  }
  return uniqueAlias(base || 'mcp', taken);
}

/** Programs that run the real server named by one of their arguments. */
const LAUNCHERS = new Set([
  'node', 'nodejs', 'npx', 'bunx', 'bun', 'deno', 'tsx', 'ts-node', 'uvx', 'uv', 'pipx',
  'python', 'python3', 'py', 'pnpm', 'yarn', 'npm', 'docker', 'podman', 'env',
]);
/** Words that come between a launcher and the thing it runs (`uv run x`, `pnpm dlx x`). */
const SUBCOMMANDS = new Set(['run', 'dlx', 'exec', 'x', 'tool', '--']);
/** Launcher flags whose value is the next argument (so it is not taken for the server). */
const FLAGS_WITH_VALUE = new Set([
  '-r', '--require', '--import', '--loader', '-e', '--env', '-v', '--volume', '--name', '-p',
  '--package', '--from', '--with', '-w', '--workdir', '--network', '--config', '-c',
]);
/** File names that say nothing about the server; the folder above names it instead. */
const GENERIC_FILES = new Set(['index', 'main', 'server', 'cli', 'app', 'mod', '__main__']);
/** Folders that say nothing about the server. */
const GENERIC_DIRS = new Set(['dist', 'build', 'src', 'bin', 'lib', 'out', 'esm', 'cjs']);

/** The last path segment of a command, package or image, without version, tag or extension. */
function baseNameOf(arg: string): string {
  let s = arg.replace(/[\\/]+$/, '');
  // npm specs: @scope/name@1.2.3 ; docker images: registry/name:tag
  s = s.replace(/(?<=.)@[^/@]*$/, '').replace(/:[^/:]*$/, '');
  const segments = s.split(/[\\/]/).filter(Boolean);
  let i = segments.length - 1;
  let name = (segments[i] ?? '').replace(/\.(m?[jt]s|c[jt]s|py|exe|sh)$/i, '');
  const generic = (n: string) => GENERIC_FILES.has(n.toLowerCase()) || GENERIC_DIRS.has(n.toLowerCase());
  while (i > 0 && generic(name) && !/^\.{1,2}$/.test(segments[i - 1]!)) {
    i--;
    name = segments[i]!;
  }
  return name;
}

/** `mcp-server-git` → `git`, `server-everything` → `everything`, `weather-mcp` → `weather`. */
function stripServerWords(name: string): string {
  const stripped = name
    .replace(/^(mcp[-_])?server[-_]/i, '')
    .replace(/^mcp[-_]/i, '')
    .replace(/[-_](mcp[-_])?server$/i, '')
    .replace(/[-_]mcp$/i, '');
  return stripped || name;
}

/**
 * The alias for a stdio server (`command` and its `args`): the basename of the command, or for a
 * launcher (`node`, `npx`, `uvx`, `python -m`, `docker run`, ...) of the script, package or image
 * it runs; words that only say "MCP server" are dropped (`@modelcontextprotocol/server-everything`
 * → `everything`, `mcp-server-time` → `time`). A heuristic: an explicit alias always wins.
 */
export function deriveStdioAlias(command: string, args: readonly string[], taken: ReadonlySet<string>): string {
  let subject = command;
  if (LAUNCHERS.has(baseNameOf(command).toLowerCase())) {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (FLAGS_WITH_VALUE.has(arg)) {
        i++;
        continue;
      }
      if (arg.startsWith('-') || arg.includes('=') || SUBCOMMANDS.has(arg)) continue;
      subject = arg;
      break;
    }
  }
  return uniqueAlias(sanitizeAlias(stripServerWords(baseNameOf(subject))) || 'stdio', taken);
}

/** 32-bit FNV-1a as 8 hex digits: a short, stable tag for a name that had to be changed. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Server tool names and the safe names aish puts on the wire for them, both ways. */
export interface ToolNameMap {
  /** original → safe tool name (without the alias). */
  readonly toSafe: ReadonlyMap<string, string>;
  /** safe tool name → original, for `tools/call`. */
  readonly toOriginal: ReadonlyMap<string, string>;
}

/**
 * Safe tool names for one server's tools under `alias`. A name that already fits keeps its name;
 * any other has each character outside [a-zA-Z0-9_-] replaced by `_` and is cut to fit 128
 * characters with the alias; if that collides with another tool (or was cut), it ends in `_` and
 * 8 hex digits of a hash of the original. Deterministic for a given list.
 */
export function mapToolNames(alias: string, names: readonly string[]): ToolNameMap {
  const room = MAX_WIRE_NAME_LENGTH - alias.length - ALIAS_SEPARATOR.length;
  const fits = (n: string) => n.length > 0 && n.length <= room && /^[a-zA-Z0-9_-]+$/.test(n);
  const toSafe = new Map<string, string>();
  const toOriginal = new Map<string, string>();
  for (const name of names) {
    if (fits(name) && !toOriginal.has(name)) {
      toSafe.set(name, name);
      toOriginal.set(name, name);
    }
  }
  for (const name of names) {
    if (toSafe.has(name)) continue;
    const replaced = name.replace(/[^a-zA-Z0-9_-]/g, '_');
    let safe = replaced.slice(0, room);
    if (safe.length === 0 || safe !== replaced || toOriginal.has(safe)) {
      const tag = `_${shortHash(name)}`;
      safe = `${replaced.slice(0, room - tag.length)}${tag}`;
      for (let n = 2; toOriginal.has(safe); n++) {
        const more = `${tag}${n}`;
        safe = `${replaced.slice(0, room - more.length)}${more}`;
      }
    }
    toSafe.set(name, safe);
    toOriginal.set(safe, name);
  }
  return { toSafe, toOriginal };
}
