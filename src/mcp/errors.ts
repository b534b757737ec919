// Why an MCP server could not be reached or used, in one line a person can act on. Classifies what
// the SDK and fetch throw (HTTP status, errno, JSON-RPC code) without ever quoting a token.

import { AishError, errorMessage } from '../errors.js';

/**
 * A server that could not be connected: `mcp <alias>: <reason>` on one line (refused, host not
 * found, timeout, `authentication failed (HTTP 401)`, HTTP 403, protocol errors, a stdio server
 * that exited). `stderrTail` holds the last output of a stdio server, for `AISH_DEBUG`.
 */
export class McpConnectError extends AishError {
  /** The last few KB a stdio server wrote to stderr before it failed, if any. */
  stderrTail: string | undefined;

  constructor(
    readonly alias: string,
    cause: unknown,
    readonly reason: string = describeMcpFailure(cause),
  ) {
    super('mcp', `mcp ${alias}: ${reason}`, { cause });
  }
}

/** A server that needs an OAuth login before aish may use it: `mcp <alias>: login needed (:mcp login <alias>)`. */
export class McpLoginNeededError extends McpConnectError {
  constructor(alias: string, cause?: unknown) {
    super(alias, cause, `login needed (:mcp login ${alias})`);
  }
}

/**
 * A connect attempt that opened the authorization page; `complete` waits for the browser (only
 * `signal` ends the wait) and trades the code for tokens, after which connecting again succeeds.
 */
export class McpLoginStarted extends McpConnectError {
  constructor(
    alias: string,
    readonly complete: (signal: AbortSignal | undefined) => Promise<void>,
  ) {
    super(alias, undefined, 'waiting for the browser login');
  }
}

/** What went wrong where, so a failure can name the host or the command. */
export interface FailureContext {
  url?: URL;
  command?: string;
  timeoutMs?: number;
}

interface Facts {
  status?: number;
  errno?: string;
  rpcCode?: number;
  aborted?: boolean;
  messages: string[];
}

/** Walks `err` and its `cause` chain for an HTTP status, an errno code and a JSON-RPC code. */
function collectFacts(err: unknown): Facts {
  const facts: Facts = { messages: [] };
  let current: unknown = err;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (typeof current !== 'object') {
      facts.messages.push(String(current));
      break;
    }
    const e = current as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
    const message = typeof e.message === 'string' ? e.message : '';
    if (message) facts.messages.push(message);
    if (e.name === 'AbortError' || e.name === 'TimeoutError') facts.aborted = true;
    if (typeof e.code === 'string' && facts.errno === undefined) facts.errno = e.code;
    if (typeof e.code === 'number') {
      if (e.name === 'McpError' || e.code <= -32000) facts.rpcCode ??= e.code;
      else if (e.code >= 100 && e.code < 600) facts.status ??= e.code;
    }
    const http = /\bHTTP (\d{3})\b/.exec(message);
    if (http && facts.status === undefined) facts.status = Number(http[1]);
    current = e.cause;
  }
  return facts;
}

function firstLine(text: string, max = 160): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function where(ctx: FailureContext): string {
  if (ctx.url) return ctx.url.host;
  return ctx.command ?? '';
}

/** The HTTP status of a failed streamable-HTTP or SSE attempt, if the failure was one. */
export function httpStatusOf(err: unknown): number | undefined {
  return collectFacts(err).status;
}

/** One line on why a connection or request failed; never includes a header or a token. */
export function describeMcpFailure(err: unknown, ctx: FailureContext = {}): string {
  const f = collectFacts(err);
  const all = f.messages.join(' | ');
  if (f.status === 401) return 'authentication failed (HTTP 401)';
  if (f.status === 403) return 'access denied (HTTP 403)';
  if (f.status === 404) return `no MCP endpoint at this URL (HTTP 404)`;
  if (f.status !== undefined && f.status >= 500) return `server error (HTTP ${f.status})`;
  if (f.status !== undefined) return `HTTP ${f.status} from the server`;
  switch (f.errno) {
    case 'ECONNREFUSED':
      return `connection refused (${where(ctx)})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `host not found (${ctx.url?.hostname ?? where(ctx)})`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return 'the server closed the connection';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `connection timed out (${where(ctx)})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `host unreachable (${where(ctx)})`;
    case 'ENOENT':
      return `command not found: ${ctx.command ?? firstLine(all)}`;
    case 'EACCES':
      return `permission denied running ${ctx.command ?? 'the server'}`;
    default:
      break;
  }
  if (f.rpcCode === -32001) return `no answer within ${ctx.timeoutMs ?? '?'} ms`;
  if (f.rpcCode === -32000 && /connection closed/i.test(all)) return 'the server closed the connection';
  if (f.aborted) return 'cancelled';
  const unsupported = /protocol version is not supported: (\S+)/.exec(all);
  if (unsupported) return `protocol error: unsupported protocol version ${unsupported[1]}`;
  const contentType = /Unexpected content type: ([^|]*)/.exec(all);
  if (contentType) return `protocol error: not an MCP endpoint (content type ${contentType[1]!.trim() || 'missing'})`;
  if (f.rpcCode !== undefined) {
    return `protocol error: ${firstLine(all.replace(/^MCP error -?\d+: /, ''))} (JSON-RPC ${f.rpcCode})`;
  }
  // fetch refuses ports of other protocols (6000 X11, 6667 IRC, ...: the Fetch spec's "bad ports").
  if (/\bbad port\b/i.test(all)) return `port ${ctx.url?.port || '?'} is one fetch refuses to use (a "bad port" of the Fetch standard); run the server on another port`;
  if (/fetch failed/i.test(all)) return `request failed (${where(ctx)})`;
  return `protocol error: ${firstLine(errorMessage(err)) || 'unknown failure'}`;
}
