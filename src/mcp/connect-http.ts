// Connecting to an MCP server over HTTP (SPEC §6): streamable HTTP, falling back to legacy SSE only
// when the streamable POST gets 400/404/405; a static token sent once as `Authorization: Bearer`,
// else OAuth through the SDK's `auth()` with aish's provider. Throws only `McpConnectError`
// (`McpLoginNeededError`, `McpLoginStarted` for OAuth), whose message never contains a token.

import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServerConfig } from '../config/schema.js';
import diagnosticsChannel from 'node:diagnostics_channel';
import { Reason, TimedOut } from './abort.js';
import { connectClient, DEFAULT_CONNECT_TIMEOUT_MS, type Connected, type McpLogin } from './connect-client.js';
import { describeMcpFailure, httpStatusOf, McpConnectError, McpLoginNeededError, McpLoginStarted, type FailureContext } from './errors.js';
import { scrubSecrets } from './failure-text.js';
import { AishOAuthProvider, LoginNeeded } from './oauth-provider.js';
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
  const target = displayUrl(url);
  let provider: AishOAuthProvider | undefined;
  try {
    provider = token ? undefined : await oauthProvider(url, cfg, opts);
  } catch (err) {
    throw new McpConnectError(alias, err, `oauth: ${err instanceof Error ? err.message : String(err)}`);
  }
  // A server that took the connection and then said nothing is up, but not answering. The watch
  // ends in the `finally` at the end.
  const sent = watchRequestsTo(url.origin);
  let handshaken = false;
  const failPlain = (err: unknown, prefix = ''): McpConnectError => {
    const accepted = err instanceof TimedOut && (handshaken || sent.any());
    const reason = accepted ? `the server accepted the connection but did not answer within ${err.timeoutMs} ms (connect_timeout_ms sets the limit)` : err instanceof Reason ? err.message : describeMcpFailure(err, ctx);
    const status = httpStatusOf(err);
    return new McpConnectError(alias, err, scrubSecrets(`${prefix}${reason}${status === 401 ? hint : ''}`, secrets));
  };
  // Without a provider a 401 is only reported; one that asks for a Bearer token means a login.
  let challenge: string | null = null;
  const watchChallenge = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    if (res.status === 401) challenge = res.headers.get('www-authenticate');
    return res;
  };

  const attempt = async (kind: 'streamable-http' | 'sse'): Promise<Connected> => {
    // One Headers object, one spelling: a plain object with two spellings sends the token twice.
    const headers = new Headers();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const options = { requestInit: { headers }, ...(provider ? { authProvider: provider } : { fetch: watchChallenge }) };
    const transport = kind === 'sse' ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
    const login: McpLogin | undefined = provider && {
      pending: () => provider.pendingLogin,
      finish: async (waitSignal) => {
        const code = await provider.completeLogin(waitSignal);
        await transport.finishAuth(code);
      },
    };
    let connected: Awaited<ReturnType<typeof connectClient>>;
    try {
      connected = await connectClient(transport, opts, signal, (err) => err, alias);
    } catch (err) {
      if (login?.pending()) throw new McpLoginStarted(alias, login.finish);
      provider?.endLogin();
      throw err;
    }
    const { client, protocolVersion } = connected;
    return {
      kind,
      client,
      transport,
      target,
      secrets,
      stderr: undefined,
      protocolVersion,
      fail: (err) => fail(err),
      ...(login ? { login } : {}),
    };
  };
  const fail = (err: unknown, prefix = ''): McpConnectError => {
    if (err instanceof McpConnectError) return err;
    if (provider?.offersNoLogin) return new McpConnectError(alias, err, NO_OAUTH);
    if (isLoginNeeded(err) || (httpStatusOf(err) === 401 && !token && opts.oauth && (cfg.oauth || /^\s*bearer\b/i.test(challenge ?? '')))) {
      return new McpLoginNeededError(alias, err);
    }
    return failPlain(err, prefix);
  };

  try {
    const connected = await attemptInOrder(cfg.transport, signal, attempt, fail);
    handshaken = true;
    return connected;
  } finally {
    sent.stop();
  }
}

/**
 * Streamable HTTP, then legacy SSE after a 400/404/405 (no `transport`); only SSE for `'sse'`;
 * never SSE for `'http'`. Failures go through `fail`.
 */
async function attemptInOrder(
  transport: McpServerConfig['transport'],
  signal: AbortSignal,
  attempt: (kind: 'streamable-http' | 'sse') => Promise<Connected>,
  fail: (err: unknown, prefix?: string) => McpConnectError,
): Promise<Connected> {
  if (transport === 'sse') {
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
    if (transport === 'http' || signal.aborted || status === undefined || !FALLBACK_STATUSES.has(status)) throw fail(err);
    try {
      return await attempt('sse');
    } catch (sseErr) {
      throw fail(sseErr, `streamable HTTP answered HTTP ${status}, legacy SSE: `);
    }
  }
}

/**
 * Whether a request to `origin` went out on a connected socket while watched (undici's
 * `sendHeaders` diagnostics, published by Node's fetch and by the undici package alike).
 */
function watchRequestsTo(origin: string): { any(): boolean; stop(): void } {
  let seen = false;
  const onSend = (message: unknown) => {
    const request = (message as { request?: { origin?: unknown } }).request;
    if (request && String(request.origin).replace(/\/$/, '') === origin) seen = true;
  };
  diagnosticsChannel.subscribe('undici:client:sendHeaders', onSend);
  return { any: () => seen, stop: () => diagnosticsChannel.unsubscribe('undici:client:sendHeaders', onSend) };
}

/** A 401 from a server that takes a token and offers no login: how to give it one. */
const NO_OAUTH = 'authentication failed (HTTP 401); the server offers no OAuth login: pass its token with --token-env VAR (the variable that holds it), or auth_env in the config';

/** An error of class `kind` anywhere in the cause chain (the SDK wraps what the provider throws). */
function inCauses(err: unknown, kind: new () => Error): boolean {
  let e = err;
  for (let depth = 0; e instanceof Error && depth < 8; depth++) {
    const { cause } = e;
    if (e instanceof kind) return true;
    e = cause;
  }
  return false;
}

function isLoginNeeded(err: unknown): boolean {
  return inCauses(err, LoginNeeded);
}

/**
 * The OAuth provider for a server without a static token, or none. Where no login may start
 * (start-up), a server without stored tokens gets none unless its grant needs no person: a 401
 * then says "login needed" without registering a client first.
 */
async function oauthProvider(url: URL, cfg: McpServerConfig, opts: McpConnectOptions): Promise<AishOAuthProvider | undefined> {
  if (!opts.oauth) return undefined;
  const provider = new AishOAuthProvider({ serverUrl: url.href, config: cfg.oauth, env: opts.env, store: opts.oauth.store, openUrl: opts.oauth.openUrl, report: opts.oauth.report });
  if (provider.machineGrant) return provider;
  if (!opts.oauth.openUrl) return provider.hasTokens ? provider : undefined;
  if (!provider.hasTokens) await provider.prepareLogin();
  return provider;
}
