// Connecting to an MCP server over HTTP (SPEC §6): streamable HTTP, falling back to legacy SSE only
// when the streamable POST gets 400/404/405; the token sent once as `Authorization: Bearer`. Throws
// only `McpConnectError`, whose message never contains the token.

import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServerConfig } from '../config/schema.js';
import { Reason } from './abort.js';
import { connectClient, DEFAULT_CONNECT_TIMEOUT_MS, type Connected } from './connect-client.js';
import { describeMcpFailure, httpStatusOf, McpConnectError, type FailureContext } from './errors.js';
import { scrubSecrets } from './failure-text.js';
import type { McpConnectOptions } from './session-types.js';

const FALLBACK_STATUSES = new Set([400, 404, 405]);

/** `url` without user:password, for display. */
function displayUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  return shown.href;
}

/**
 * Handshake over streamable HTTP, or legacy SSE: `transport: 'sse'` forces it; with no
 * `transport` it is the fallback after HTTP 400/404/405 only; `transport: 'http'` never falls back.
 */
export async function connectHttp(alias: string, cfg: McpServerConfig, opts: McpConnectOptions, signal: AbortSignal): Promise<Connected> {
  let url: URL;
  try {
    url = new URL(cfg.url ?? '');
  } catch {
    throw new McpConnectError(alias, undefined, 'invalid URL');
  }
  if (url.username || url.password) {
    throw new McpConnectError(alias, undefined, 'credentials in the URL are not supported; use auth_token or auth_env');
  }
  const token = cfg.auth_token ?? (cfg.auth_env !== undefined ? opts.env[cfg.auth_env] || undefined : undefined);
  let hint = '';
  if (cfg.auth_token === undefined && cfg.auth_env !== undefined && token === undefined) {
    hint = ` (${cfg.auth_env} is not set)`;
    opts.onStatus?.(`mcp ${alias}: ${cfg.auth_env} is not set; connecting without a token`);
  }
  const secrets = token ? [token] : [];
  const ctx: FailureContext = { url, timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS };
  const fail = (err: unknown, prefix = ''): McpConnectError => {
    if (err instanceof McpConnectError) return err;
    const reason = err instanceof Reason ? err.message : describeMcpFailure(err, ctx);
    const status = httpStatusOf(err);
    return new McpConnectError(alias, err, scrubSecrets(`${prefix}${reason}${status === 401 ? hint : ''}`, secrets));
  };
  const target = displayUrl(url);

  const attempt = async (kind: 'streamable-http' | 'sse'): Promise<Connected> => {
    // One Headers object, one spelling: a plain object with two spellings sends the token twice.
    const headers = new Headers();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const transport =
      kind === 'sse'
        ? new SSEClientTransport(url, { requestInit: { headers } })
        : new StreamableHTTPClientTransport(url, { requestInit: { headers } });
    const { client, protocolVersion } = await connectClient(transport, opts, signal, (err) => err);
    return { kind, client, transport, target, secrets, stderr: undefined, protocolVersion, fail: (err) => fail(err) };
  };

  if (cfg.transport === 'sse') {
    try {
      return await attempt('sse');
    } catch (err) {
      throw fail(err);
    }
  }
  try {
    return await attempt('streamable-http');
  } catch (err) {
    const status = httpStatusOf(err);
    if (cfg.transport === 'http' || signal.aborted || status === undefined || !FALLBACK_STATUSES.has(status)) throw fail(err);
    try {
      return await attempt('sse');
    } catch (sseErr) {
      throw fail(sseErr, `streamable HTTP answered HTTP ${status}, legacy SSE: `);
    }
  }
}
