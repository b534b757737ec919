// One MCP server connection (SPEC §6): owns an SDK `Client` over streamable HTTP (legacy SSE as the
// fallback for 400/404/405 only), SSE or stdio; asks only for what the server's capabilities
// announce; caches the tool list under safe wire names (and the resource and prompt lists,
// server-lists.ts) and refetches them on list_changed, coalesced (list-refetch.ts). `callTool`,
// `readResource`, `getPrompt` and `completeArgument` never reject; `close` never throws and is
// idempotent.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  McpError,
  ToolListChangedNotificationSchema,
  type GetPromptResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../config/schema.js';
import { connectDeadline, raceAbort } from './abort.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, type Connected, type McpLogin } from './connect-client.js';
import { connectHttp } from './connect-http.js';
import { connectStdio } from './connect-stdio.js';
import { describeMcpFailure, McpConnectError, McpLoginStarted } from './errors.js';
import { failureContext, isConnectionClosed, lastLine, rpcMessage, scrubSecrets } from './failure-text.js';
import type { ToolOutcome, ToolProgress } from '../tool-call.js';
import { aliasProblem, type ToolNameMap } from './naming.js';
import {
  cancelledOutcome,
  DEFAULT_MAX_RESULT_CHARS,
  dispatchFailedOutcome,
  invalidResultOutcome,
  isOutputSchemaFailure,
  outcomeFromResult,
  tooLargeOutcome,
  transportErrorOutcome,
} from './outcome.js';
import type { McpCallOptions, McpConnectOptions, McpSessionStatus, McpTool, McpTransportKind } from './session-types.js';
import { watchServerLog } from './server-log.js';
import { ListRefetch } from './list-refetch.js';
import { ServerLists } from './server-lists.js';
import { MAX_STDIO_MESSAGE_BYTES, MESSAGE_TOO_LARGE_CODE, tooLargeBytes } from './stdio-lines.js';
import { fetchToolList } from './tool-list.js';

export { stdioEnvironment } from './connect-stdio.js';
export type { McpCallOptions, McpConnectOptions, McpSessionStatus, McpTool, McpTransportKind } from './session-types.js';

const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** What a request for a resource, a prompt or a completion resolves to; never a rejection. */
export type McpAnswer<T> = { ok: true; value: T } | { ok: false; reason: string; cancelled?: boolean };
/** Logins one connect may run: the first, then scope step-ups; more means the server never agrees. */
const MAX_LOGIN_ROUNDS = 3;

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
  #toolRefetch: ListRefetch;
  #closing: Promise<void> | undefined;
  #secrets: string[];
  #stderr: { text: string } | undefined;
  #login: McpLogin | undefined;
  #onStatus: (message: string) => void;
  #maxResultChars: number;
  #callTimeoutMs: number;
  #offersRoots: boolean;
  /** Whether the server announced tools (a server without them is never asked for them). */
  #offersTools: boolean;
  /** The server's resources, resource templates and prompts, as it announced them. */
  readonly lists: ServerLists;

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
      login: McpLogin | undefined;
      opts: McpConnectOptions;
    },
  ) {
    this.target = init.target;
    this.#client = init.client;
    this.#transport = init.transport;
    this.#secrets = init.secrets;
    this.#stderr = init.stderr;
    this.#login = init.login;
    this.#onStatus = init.opts.onStatus ?? (() => {});
    this.#maxResultChars = init.opts.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    this.#callTimeoutMs = init.opts.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.onToolsChanged = init.opts.onToolsChanged;
    this.#offersRoots = init.opts.requests?.roots !== undefined;
    const capabilities = init.client.getServerCapabilities();
    this.#offersTools = capabilities?.tools !== undefined;
    this.#toolRefetch = new ListRefetch(() => this.#fetchTools(), {
      onFetched: () => this.onToolsChanged?.(this.#tools),
      onError: (err) => {
        if (this.status === 'connected') this.#onStatus(`mcp ${alias}: could not refresh the tool list: ${this.#describe(err)}`);
      },
      active: () => this.status === 'connected',
    });
    this.lists = new ServerLists(init.client, capabilities, {
      timeout: this.#callTimeoutMs,
      active: () => this.status === 'connected',
      report: (what, err) => {
        if (this.status === 'connected') this.#onStatus(`mcp ${alias}: could not fetch ${what}: ${this.#describe(err)}`);
      },
    });
  }

  /**
   * Connects, initializes and fetches the tool list, all within `timeoutMs`. Throws only
   * `McpConnectError` (one line, `mcp <alias>: ...`, never containing the token). Reports a
   * protocol version other than the one offered through `onStatus` and carries on. When an
   * OAuth login may start (`opts.oauth.openUrl`), waits for it outside the time limit (only
   * `opts.signal` ends the wait) and connects again, at most `MAX_LOGIN_ROUNDS` times.
   */
  static async connect(alias: string, cfg: McpServerConfig, opts: McpConnectOptions): Promise<McpSession> {
    const problem = aliasProblem(alias);
    if (problem) throw new McpConnectError(alias, undefined, problem);
    for (let round = 1; ; round++) {
      try {
        return await McpSession.#connectOnce(alias, cfg, opts);
      } catch (err) {
        if (!(err instanceof McpLoginStarted)) throw err;
        if (round >= MAX_LOGIN_ROUNDS) throw new McpConnectError(alias, undefined, `still not authorized after ${round} logins`);
        try {
          await err.complete(opts.signal);
        } catch (loginErr) {
          if (opts.signal?.aborted) throw new McpConnectError(alias, loginErr, 'login cancelled');
          throw new McpConnectError(alias, loginErr, `login failed: ${describeMcpFailure(loginErr)}`);
        }
      }
    }
  }

  static async #connectOnce(alias: string, cfg: McpServerConfig, opts: McpConnectOptions): Promise<McpSession> {
    const { signal, dispose } = connectDeadline(opts.signal, opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    try {
      if (opts.signal?.aborted) throw new McpConnectError(alias, undefined, 'cancelled');
      const connected = cfg.command !== undefined
        ? await connectStdio(alias, cfg, opts, signal)
        : await connectHttp(alias, cfg, opts, signal);
      try {
        return await raceAbort(McpSession.#open(alias, connected, opts, signal), signal, () => connected.client.close());
      } catch (err) {
        await connected.client.close().catch(() => {});
        // A scope step-up while listing tools: the same login round as at the handshake.
        if (connected.login?.pending()) throw new McpLoginStarted(alias, connected.login.finish);
        throw connected.fail(err);
      }
    } finally {
      dispose();
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
      login: connected.login,
      opts,
    });
    client.onerror = (err) => session.#onTransportError(err);
    client.onclose = () => session.#onTransportClosed();
    // A notice before the first fetch is covered by that fetch.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void session.refreshTools();
    });
    if (opts.onLog) watchServerLog(client, alias, opts.onLog);
    await session.#fetchTools(signal);
    // Resources and prompts are listed behind the connect: who reads them waits (`lists.ready()`).
    session.lists.start();
    // An older version the client speaks is ordinary negotiation: connected silently. Only one it
    // does not know (the seed's mismatch line) is said.
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(negotiated)) {
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
   * Fetches the tool list again, as a list_changed notice does: now when no fetch is in flight,
   * else once after it (list-refetch.ts). A failure keeps the old list and reports a status line.
   * Resolves, never rejects, when no fetch is in flight or queued.
   */
  refreshTools(): Promise<void> {
    this.#toolRefetch.request();
    return this.#toolRefetch.ready();
  }

  /** Resolves when no tool list fetch is in flight or queued; never rejects. */
  toolsReady(): Promise<void> {
    return this.#toolRefetch.ready();
  }

  async #fetchTools(signal?: AbortSignal): Promise<void> {
    if (!this.#offersTools) return;
    const { names, tools } = await fetchToolList(this.#client, this.alias, signal, this.#callTimeoutMs);
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
    const call = this.#track(signal);
    try {
      const { onProgress } = options;
      const progress = onProgress ? { onprogress: (p: ToolProgress) => onProgress(p), resetTimeoutOnProgress: true } : {};
      const request = () => this.#client.callTool({ name: original, arguments: args ?? {} }, undefined, { signal: call.signal, timeout: timeoutMs, ...progress });
      let result: Awaited<ReturnType<typeof request>>;
      try {
        result = await request();
      } catch (err) {
        // The server asked for more scope and the SDK opened the authorization page: once the
        // person agreed, the call goes again (a second refusal of the same scope is final).
        if (!this.#login?.pending()) throw err;
        await this.#login.finish(signal);
        result = await request();
      }
      return outcomeFromResult(result as Parameters<typeof outcomeFromResult>[0], options.maxResultChars ?? this.#maxResultChars);
    } catch (err) {
      const failure = await this.#failure(err, signal, call.failure(), timeoutMs);
      switch (failure.kind) {
        case 'cancelled':
          return cancelledOutcome();
        case 'invalid':
          return invalidResultOutcome(failure.reason);
        case 'dispatch':
          return dispatchFailedOutcome(failure.reason);
        case 'transport':
          return transportErrorOutcome(failure.reason);
        case 'too-large':
          return tooLargeOutcome(failure.bytes, MAX_STDIO_MESSAGE_BYTES);
      }
    } finally {
      call.release();
    }
  }

  /**
   * A signal for one request, aborted by the caller's `signal` or by a failure of the session
   * (close, a dead server: the reason is kept). One per request: the SDK never removes its abort
   * listener, and an abort after the answer must not send notifications/cancelled for a finished
   * request. `release` when the request is over.
   */
  #track(signal: AbortSignal | undefined): { signal: AbortSignal; failure: () => string | undefined; release: () => void } {
    const request = new AbortController();
    let failure: string | undefined;
    const fail = (reason: string) => {
      failure ??= reason;
      request.abort();
    };
    const onAbort = () => request.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#inFlight.add(fail);
    return {
      signal: request.signal,
      failure: () => failure,
      release: () => {
        signal?.removeEventListener('abort', onAbort);
        this.#inFlight.delete(fail);
      },
    };
  }

  /**
   * Why a request failed: cancelled (the caller's signal), a transport failure (the session's
   * own failure, a timeout, a closed connection, a server that no longer answers a ping), the
   * server's JSON-RPC error (`dispatch`), or a result its tool's outputSchema rejects (`invalid`).
   */
  async #failure(err: unknown, signal: AbortSignal | undefined, failure: string | undefined, timeoutMs: number): Promise<{ kind: 'cancelled' } | { kind: 'transport' | 'dispatch' | 'invalid'; reason: string } | { kind: 'too-large'; bytes: number; reason: string }> {
    if (signal?.aborted) return { kind: 'cancelled' };
    if (failure !== undefined) return { kind: 'transport', reason: this.#scrub(failure) };
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return { kind: 'transport', reason: `timed out after ${timeoutMs} ms` };
    if (isConnectionClosed(err)) return { kind: 'transport', reason: this.status === 'connected' ? 'the connection closed' : this.#goneReason() };
    if (err instanceof McpError && err.code === MESSAGE_TOO_LARGE_CODE && this.transport === 'stdio') {
      const bytes = tooLargeBytes(err.data);
      return { kind: 'too-large', bytes, reason: `the answer was too large (${bytes} bytes in one message, more than the ${MAX_STDIO_MESSAGE_BYTES} aish reads over stdio)` };
    }
    if (err instanceof McpError && isOutputSchemaFailure(err.message)) return { kind: 'invalid', reason: this.#scrub(err.message.replace(/^MCP error -?\d+: /, '')) };
    if (err instanceof McpError) return { kind: 'dispatch', reason: this.#scrub(rpcMessage(err)) };
    if (err instanceof Error && err.name === 'ZodError') return { kind: 'dispatch', reason: 'the server sent a malformed result' };
    const reason = this.#describe(err);
    if (this.transport !== 'stdio' && this.status === 'connected' && !(await this.#probe())) return { kind: 'transport', reason: this.#lastError ?? reason };
    return { kind: 'transport', reason };
  }

  /** `resources/read` of one URI (a template's URI filled in by the person). Never rejects. */
  readResource(uri: string, signal?: AbortSignal): Promise<McpAnswer<ReadResourceResult>> {
    if (!this.lists.offersResources) return Promise.resolve({ ok: false, reason: `mcp ${this.alias} offers no resources` });
    return this.#request((options) => this.#client.readResource({ uri }, options), signal);
  }

  /** `prompts/get` with the arguments given. Never rejects. */
  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpAnswer<GetPromptResult>> {
    if (!this.lists.offersPrompts) return Promise.resolve({ ok: false, reason: `mcp ${this.alias} offers no prompts` });
    return this.#request((options) => this.#client.getPrompt({ name, arguments: args }, options), signal);
  }

  /**
   * `completion/complete` for a prompt's argument: the server's candidates for `value`, given the
   * arguments already filled in. `[]` when the server offers no completions or fails. Never rejects.
   */
  async completeArgument(prompt: string, argument: string, value: string, filled: Record<string, string>, signal?: AbortSignal): Promise<string[]> {
    if (!this.lists.offersCompletions) return [];
    const answer = await this.#request(
      (options) => this.#client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value }, context: { arguments: filled } }, options),
      signal,
    );
    return answer.ok ? answer.value.completion.values : [];
  }

  /** One request of the person's (not the model's): the same failures as a tool call, as a reason. */
  async #request<T>(send: (options: { signal: AbortSignal; timeout: number }) => Promise<T>, signal: AbortSignal | undefined): Promise<McpAnswer<T>> {
    if (signal?.aborted) return { ok: false, reason: 'cancelled', cancelled: true };
    if (this.status !== 'connected') return { ok: false, reason: `mcp ${this.alias} is ${this.status}${this.#lastError ? ` (${this.#lastError})` : ''}` };
    const timeout = this.#callTimeoutMs;
    const request = this.#track(signal);
    try {
      return { ok: true, value: await send({ signal: request.signal, timeout }) };
    } catch (err) {
      const failure = await this.#failure(err, signal, request.failure(), timeout);
      return failure.kind === 'cancelled' ? { ok: false, reason: 'cancelled', cancelled: true } : { ok: false, reason: failure.reason };
    } finally {
      request.release();
    }
  }

  /** Tells the server the roots changed (`cd`), when it was offered roots; never throws. */
  notifyRootsChanged(): void {
    if (this.status !== 'connected' || !this.#offersRoots) return;
    this.#client.sendRootsListChanged().catch(() => {});
  }

  /** The last few KB the stdio server wrote to stderr ('' for HTTP). */
  get stderrTail(): string {
    return this.#stderr?.text ?? '';
  }

  /**
   * Ends the session: pending calls resolve as transport errors, a streamable-HTTP session is
   * terminated (DELETE, best effort, 1 s at most), the client closed (a stdio server gets EOF,
   * then its whole process group SIGTERM and SIGKILL, within a second). Never throws, prints
   * nothing; calling it again returns the same promise.
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
