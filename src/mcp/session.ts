// One MCP server connection (SPEC §6): owns an SDK `Client` over streamable HTTP (legacy SSE as the
// fallback for 400/404/405 only), SSE or stdio; caches the tool list under safe wire names and
// refetches it on list_changed. `callTool` never rejects; `close` never throws and is idempotent.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
  ToolListChangedNotificationSchema,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { statSync } from 'node:fs';
import type { McpServerConfig } from '../config/schema.js';
import { joinCommandLine } from './command-line.js';
import { describeMcpFailure, httpStatusOf, McpConnectError, type FailureContext } from './errors.js';
import { aliasProblem, mapToolNames, toWireName, type ToolNameMap } from './naming.js';
import {
  cancelledOutcome,
  DEFAULT_MAX_RESULT_CHARS,
  dispatchFailedOutcome,
  outcomeFromResult,
  transportErrorOutcome,
  type ToolOutcome,
} from './outcome.js';

/** How a session talks to its server, as `:mcp list` shows it. */
export type McpTransportKind = 'streamable-http' | 'sse' | 'stdio';

/** `connected`; `disconnected` when the server went away (process exit, unreachable); `closed` by aish. */
export type McpSessionStatus = 'connected' | 'disconnected' | 'closed';

/** A server's tool as aish offers it to the model. */
export interface McpTool {
  /** The session's alias. */
  alias: string;
  /** `<alias>__<safe name>`, what the model sees and calls. */
  wireName: string;
  /** The server's own name, sent in `tools/call`. */
  name: string;
  title?: string;
  description: string;
  /** JSON Schema of the arguments, as the server sent it. */
  inputSchema: Record<string, unknown>;
  /** Hints only (readOnlyHint, destructiveHint, idempotentHint, openWorldHint, title). */
  annotations: ToolAnnotations;
}

/** Options of `McpSession.connect`. */
export interface McpConnectOptions {
  /** aish's environment: `auth_env` is read from it; stdio servers get only a safe part of it. */
  env: Record<string, string | undefined>;
  /** Cancels the connect attempt. */
  signal?: AbortSignal;
  /** Limit for the whole connect (start, initialize, tools/list). Default 10 s. */
  timeoutMs?: number;
  /** aish's version, sent as `clientInfo.version`. */
  clientVersion: string;
  /** One-line status messages (protocol mismatch, unset auth_env, tool list refresh failure). */
  onStatus?: (message: string) => void;
  /** Called after the tool list was refetched on `notifications/tools/list_changed`. */
  onToolsChanged?: (tools: readonly McpTool[]) => void;
  /** Default cap of a result's content (`mcp.max_result_chars`). */
  maxResultChars?: number;
  /** Default `callTool` timeout (`mcp.call_timeout_ms`). Default 60 s. */
  callTimeoutMs?: number;
}

/** Options of one `callTool`. */
export interface McpCallOptions {
  /** The line's signal: Ctrl-C resolves the call as `cancelled` and tells the server. */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxResultChars?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const STDERR_TAIL_CHARS = 4096;
const FALLBACK_STATUSES = new Set([400, 404, 405]);

/**
 * What a stdio server inherits from aish: enough to find programs, a home, a locale, a temp dir
 * and a proxy. No tokens or keys: those go in the server's `env` in the config.
 */
const INHERITED_ENV = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TERM',
  'TMPDIR', 'TZ', 'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy',
  'SYSTEMROOT', 'SystemRoot', 'COMSPEC', 'PATHEXT', 'WINDIR', 'TEMP', 'TMP', 'USERPROFILE',
  'APPDATA', 'LOCALAPPDATA', 'HOMEDRIVE', 'HOMEPATH', 'PROGRAMFILES', 'USERNAME',
];

/** The environment of a stdio server: the safe part of `env`, then the config's `env` on top. */
export function stdioEnvironment(
  env: Record<string, string | undefined>,
  extra: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = env[key];
    // Exported shell functions (`() { ...`) are how Shellshock travelled; never pass them on.
    if (value !== undefined && !value.startsWith('()')) out[key] = value;
  }
  return { ...out, ...extra };
}

/** An error whose message is already the one-line reason. */
class Reason extends Error {}

/**
 * A connected MCP server. Create with `McpSession.connect`; `tools` is the cached list;
 * `callTool` resolves a `ToolOutcome` and never rejects; `close` is idempotent and quiet.
 */
export class McpSession {
  /** URL (credentials removed) or the stdio command line, for `:mcp list`. */
  readonly target: string;
  /** Called after the tool list changed on the server's notice. */
  onToolsChanged: ((tools: readonly McpTool[]) => void) | undefined;

  #status: McpSessionStatus = 'connected';
  #lastError: string | undefined;
  #client: Client;
  #transport: Transport;
  #tools: McpTool[] = [];
  #byWireName = new Map<string, McpTool>();
  #byName = new Map<string, McpTool>();
  #names: ToolNameMap = { toSafe: new Map(), toOriginal: new Map() };
  #inFlight = new Set<(reason: string) => void>();
  #probing: Promise<boolean> | undefined;
  #refreshing: Promise<void> | undefined;
  #refreshAgain = false;
  #closing: Promise<void> | undefined;
  #secrets: string[];
  #stderr: { text: string } | undefined;
  #onStatus: (message: string) => void;
  #maxResultChars: number;
  #callTimeoutMs: number;

  private constructor(
    readonly alias: string,
    readonly transport: McpTransportKind,
    readonly protocolVersion: string,
    readonly serverInfo: { name: string; version: string },
    init: {
      target: string;
      client: Client;
      transport: Transport;
      secrets: string[];
      stderr: { text: string } | undefined;
      opts: McpConnectOptions;
    },
  ) {
    this.target = init.target;
    this.#client = init.client;
    this.#transport = init.transport;
    this.#secrets = init.secrets;
    this.#stderr = init.stderr;
    this.#onStatus = init.opts.onStatus ?? (() => {});
    this.#maxResultChars = init.opts.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    this.#callTimeoutMs = init.opts.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.onToolsChanged = init.opts.onToolsChanged;
  }

  /**
   * Connects, initializes and fetches the tool list, all within `timeoutMs`. Throws only
   * `McpConnectError` (one line, `mcp <alias>: ...`, never containing the token). Reports a
   * protocol version other than the one offered through `onStatus` and carries on.
   */
  static async connect(alias: string, cfg: McpServerConfig, opts: McpConnectOptions): Promise<McpSession> {
    const problem = aliasProblem(alias);
    if (problem) throw new McpConnectError(alias, undefined, problem);
    const timeoutMs = opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const attempt = new AbortController();
    const timer = setTimeout(() => attempt.abort(new Reason(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => attempt.abort(new Reason('cancelled'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const signal = attempt.signal;
    try {
      if (opts.signal?.aborted) throw new McpConnectError(alias, undefined, 'cancelled');
      const connected = cfg.command !== undefined
        ? await connectStdio(alias, cfg, opts, signal)
        : await connectHttp(alias, cfg, opts, signal);
      try {
        return await raceAbort(McpSession.#open(alias, connected, opts, signal), signal, () => connected.client.close());
      } catch (err) {
        await connected.client.close().catch(() => {});
        throw connected.fail(err);
      }
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  static async #open(alias: string, connected: Connected, opts: McpConnectOptions, signal: AbortSignal): Promise<McpSession> {
    const { client } = connected;
    const server = client.getServerVersion();
    const negotiated = connected.protocolVersion() ?? LATEST_PROTOCOL_VERSION;
    const session = new McpSession(alias, connected.kind, negotiated, { name: server?.name ?? '?', version: server?.version ?? '?' }, {
      target: connected.target,
      client,
      transport: connected.transport,
      secrets: connected.secrets,
      stderr: connected.stderr,
      opts,
    });
    client.onerror = (err) => session.#onTransportError(err);
    client.onclose = () => session.#onTransportClosed();
    // A notice before the first fetch is covered by that fetch.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void session.refreshTools();
    });
    await session.#fetchTools(signal);
    if (negotiated !== LATEST_PROTOCOL_VERSION) {
      opts.onStatus?.(`mcp ${alias}: protocol version mismatch (sent ${LATEST_PROTOCOL_VERSION}, got ${negotiated}); proceeding`);
    }
    return session;
  }

  /** `connected`, `disconnected` (the server went away) or `closed`. */
  get status(): McpSessionStatus {
    return this.#status;
  }

  /** Why the session is not connected, or the last transport error (for `AISH_DEBUG`). */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** The cached tool list (refreshed on `notifications/tools/list_changed`). */
  get tools(): readonly McpTool[] {
    return this.#tools;
  }

  /** The tool with this wire name or original name. */
  findTool(name: string): McpTool | undefined {
    return this.#byWireName.get(name) ?? this.#byName.get(name);
  }

  /**
   * Refetches the tool list now; concurrent calls share one fetch (and one more after it, if a
   * notice came in meanwhile). A failure keeps the old list and reports a status line.
   */
  refreshTools(): Promise<void> {
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      try {
        do {
          this.#refreshAgain = false;
          await this.#fetchTools();
        } while (this.#refreshAgain && this.status === 'connected');
        this.onToolsChanged?.(this.#tools);
      } catch (err) {
        if (this.status === 'connected') {
          this.#onStatus(`mcp ${this.alias}: could not refresh the tool list: ${this.#describe(err)}`);
        }
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  async #fetchTools(signal?: AbortSignal): Promise<void> {
    const listed: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const result = await this.#client.listTools(cursor === undefined ? undefined : { cursor }, { signal, timeout: this.#callTimeoutMs });
      listed.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    const names = mapToolNames(this.alias, listed.map((t) => t.name));
    const tools = listed.map((t): McpTool => {
      const wireName = toWireName(this.alias, names.toSafe.get(t.name)!);
      return {
        alias: this.alias,
        wireName,
        name: t.name,
        ...(t.title !== undefined ? { title: t.title } : {}),
        description: t.description ?? t.title ?? t.annotations?.title ?? '',
        inputSchema: t.inputSchema as Record<string, unknown>,
        annotations: t.annotations ?? {},
      };
    });
    this.#names = names;
    this.#tools = tools;
    this.#byWireName = new Map(tools.map((t) => [t.wireName, t]));
    this.#byName = new Map(tools.map((t) => [t.name, t]));
  }

  /**
   * Calls a tool by wire name or original name. Never rejects: a result is `ok` (with `isError`
   * passed through), a JSON-RPC error `[aish] tool dispatch failed: ...`, a transport failure,
   * dead server or timeout `[aish] tool transport error: ...`, an aborted `signal` `cancelled`.
   */
  async callTool(name: string, args: Record<string, unknown> | undefined, options: McpCallOptions = {}): Promise<ToolOutcome> {
    const { signal } = options;
    if (signal?.aborted) return cancelledOutcome();
    if (this.status !== 'connected') {
      return transportErrorOutcome(`mcp ${this.alias} is ${this.status}${this.#lastError ? ` (${this.#lastError})` : ''}`);
    }
    const prefix = `${this.alias}__`;
    const bare = name.startsWith(prefix) ? name.slice(prefix.length) : name;
    const original = this.findTool(name)?.name ?? this.#names.toOriginal.get(bare) ?? bare;
    const timeoutMs = options.timeoutMs ?? this.#callTimeoutMs;
    // A signal per call: the SDK never removes its abort listener, and an abort after the answer
    // must not send notifications/cancelled for a finished request.
    const call = new AbortController();
    let failure: string | undefined;
    const fail = (reason: string) => {
      failure ??= reason;
      call.abort();
    };
    const onAbort = () => call.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#inFlight.add(fail);
    try {
      const result = await this.#client.callTool({ name: original, arguments: args ?? {} }, undefined, {
        signal: call.signal,
        timeout: timeoutMs,
      });
      return outcomeFromResult(result as Parameters<typeof outcomeFromResult>[0], options.maxResultChars ?? this.#maxResultChars);
    } catch (err) {
      if (signal?.aborted) return cancelledOutcome();
      if (failure !== undefined) return transportErrorOutcome(this.#scrub(failure));
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return transportErrorOutcome(`timed out after ${timeoutMs} ms`);
      if (isConnectionClosed(err)) {
        return transportErrorOutcome(this.status === 'connected' ? 'the connection closed' : this.#goneReason());
      }
      if (err instanceof McpError) return dispatchFailedOutcome(this.#scrub(rpcMessage(err)));
      if (err instanceof Error && err.name === 'ZodError') return dispatchFailedOutcome('the server sent a malformed result');
      const reason = this.#describe(err);
      if (this.transport !== 'stdio' && this.status === 'connected' && !(await this.#probe())) {
        return transportErrorOutcome(this.#lastError ?? reason);
      }
      return transportErrorOutcome(reason);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.#inFlight.delete(fail);
    }
  }

  /** The last few KB the stdio server wrote to stderr ('' for HTTP). */
  get stderrTail(): string {
    return this.#stderr?.text ?? '';
  }

  /**
   * Ends the session: pending calls resolve as transport errors, a streamable-HTTP session is
   * terminated (DELETE, best effort, 1 s at most), the client closed (a stdio server gets EOF,
   * then SIGTERM). Never throws, prints nothing; calling it again returns the same promise.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#status = 'closed';
      for (const fail of [...this.#inFlight]) fail('the session was closed');
      this.#client.onerror = () => {};
      const transport = this.#transport;
      if (transport instanceof StreamableHTTPClientTransport) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          transport.terminateSession().catch(() => {}),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, 1000);
          }),
        ]);
        clearTimeout(timer);
      }
      await this.#client.close().catch(() => {});
    })();
    return this.#closing;
  }

  #onTransportError(err: Error): void {
    if (this.status === 'closed') return;
    this.#lastError = this.#describe(err);
    // Over HTTP a server that dies mid-call leaves the request waiting for a stream that is gone:
    // when the transport reports trouble during calls, a ping decides whether the server is there.
    if (this.transport !== 'stdio' && this.#inFlight.size > 0) void this.#probe();
  }

  /**
   * Pings the server (3 s at most; concurrent probes share one). When it does not answer the
   * session becomes `disconnected` and pending calls fail. Resolves whether it answered.
   */
  #probe(): Promise<boolean> {
    this.#probing ??= this.#client
      .ping({ timeout: 3000 })
      .then(
        () => true,
        (pingErr: unknown) => {
          if (this.status !== 'connected') return false;
          this.#status = 'disconnected';
          this.#lastError = `the server went away: ${this.#describe(pingErr)}`;
          for (const fail of [...this.#inFlight]) fail(this.#lastError);
          return false;
        },
      )
      .finally(() => {
        this.#probing = undefined;
      });
    return this.#probing;
  }

  #onTransportClosed(): void {
    if (this.status !== 'connected') return;
    this.#status = 'disconnected';
    this.#lastError = this.#goneReason();
  }

  #goneReason(): string {
    if (this.status === 'closed') return 'the session was closed';
    if (this.transport !== 'stdio') return this.#lastError ?? 'the connection closed';
    const last = lastLine(this.stderrTail);
    return `the server process exited${last ? `: ${last}` : ''}`;
  }

  #describe(err: unknown): string {
    return this.#scrub(describeMcpFailure(err, failureContext(this.target, this.transport)));
  }

  #scrub(text: string): string {
    return scrubSecrets(text, this.#secrets);
  }
}

/** A finished handshake, before the session object exists. */
interface Connected {
  kind: McpTransportKind;
  client: Client;
  transport: Transport;
  target: string;
  secrets: string[];
  stderr: { text: string } | undefined;
  protocolVersion: () => string | undefined;
  /** The `McpConnectError` for a failure after the handshake (tools/list, abort). */
  fail: (err: unknown) => McpConnectError;
}

function newClient(opts: McpConnectOptions): Client {
  return new Client({ name: 'aish', version: opts.clientVersion }, { capabilities: {} });
}

/** Records the protocol version the client settles on; stdio transports have no hook of their own. */
function watchProtocolVersion(transport: Transport): () => string | undefined {
  let version: string | undefined;
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v: string) => {
    version = v;
    original?.(v);
  };
  return () => version;
}

function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.replaceAll(s, '***');
  return out;
}

function lastLine(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).filter(Boolean).at(-1) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** The SDK's own "the transport closed under a pending request", not a server's -32000. */
function isConnectionClosed(err: unknown): boolean {
  return err instanceof McpError && err.code === ErrorCode.ConnectionClosed && /Connection closed/.test(err.message);
}

function rpcMessage(err: McpError): string {
  return `${err.message.replace(/^(MCP error -?\d+: )+/, '')} (JSON-RPC error ${err.code})`;
}

function failureContext(target: string, kind: McpTransportKind): FailureContext {
  if (kind === 'stdio') return { command: target };
  try {
    return { url: new URL(target) };
  } catch {
    return {};
  }
}

/** Rejects with the signal's reason when it aborts first; `cleanup` runs on abort. */
async function raceAbort<T>(work: Promise<T>, signal: AbortSignal, cleanup: () => Promise<void>): Promise<T> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } catch (err) {
    if (signal.aborted) {
      work.catch(() => {});
      await cleanup().catch(() => {});
    }
    throw err;
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

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
async function connectHttp(alias: string, cfg: McpServerConfig, opts: McpConnectOptions, signal: AbortSignal): Promise<Connected> {
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

/** Starts a stdio server with a safe environment and its stderr kept (the last 4 KB) out of sight. */
async function connectStdio(alias: string, cfg: McpServerConfig, opts: McpConnectOptions, signal: AbortSignal): Promise<Connected> {
  const command = cfg.command!;
  const target = joinCommandLine([command, ...cfg.args]);
  const secrets = Object.values(cfg.env).filter((v) => v.length >= 8);
  if (cfg.cwd !== undefined) {
    let isDir = false;
    try {
      isDir = statSync(cfg.cwd).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) throw new McpConnectError(alias, undefined, `working directory not found: ${cfg.cwd}`);
  }
  const transport = new StdioClientTransport({
    command,
    args: cfg.args,
    env: stdioEnvironment(opts.env, cfg.env),
    ...(cfg.cwd !== undefined ? { cwd: cfg.cwd } : {}),
    stderr: 'pipe',
  });
  const stderr = { text: '' };
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    stderr.text = (stderr.text + chunk.toString()).slice(-STDERR_TAIL_CHARS);
  });
  const ctx: FailureContext = { command, timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS };
  const fail = (err: unknown): McpConnectError => {
    if (err instanceof McpConnectError) return err;
    let reason: string;
    if (err instanceof Reason) reason = err.message;
    else if (isConnectionClosed(err)) reason = 'the server exited during start-up';
    else reason = describeMcpFailure(err, ctx);
    const last = lastLine(stderr.text);
    if (last && reason !== 'cancelled') reason += `: ${last}`;
    const error = new McpConnectError(alias, err, scrubSecrets(reason, secrets));
    error.stderrTail = stderr.text;
    return error;
  };
  const { client, protocolVersion } = await connectClient(transport, opts, signal, fail);
  return { kind: 'stdio', client, transport, target, secrets, stderr, protocolVersion, fail };
}

/** Connects a new SDK client over `transport`; on failure closes it and throws `mapError(err)`. */
async function connectClient(
  transport: Parameters<typeof watchProtocolVersion>[0],
  opts: Parameters<typeof newClient>[0],
  signal: AbortSignal,
  mapError: (err: unknown) => unknown,
): Promise<{ client: ReturnType<typeof newClient>; protocolVersion: ReturnType<typeof watchProtocolVersion> }> {
  const client = newClient(opts);
  const protocolVersion = watchProtocolVersion(transport);
  try {
    await raceAbort(client.connect(transport, { signal }), signal, () => client.close());
  } catch (err) {
    await client.close().catch(() => {});
    throw mapError(err);
  }
  return { client, protocolVersion };
}
