// The connected MCP servers of one aish session, by alias (SPEC §6): start-up connects in parallel
// and best effort, `:mcp connect/disconnect/list`, the OpenAI `tools` array, dispatch by wire
// name and argument validation. The SDK and ajv are loaded with the first connect.

import type { McpServerConfig } from '../config/schema.js';
import { UsageError } from '../errors.js';
import { joinCommandLine, splitCommandLine } from './command-line.js';
import { connectTimeoutOf, DEFAULT_CONNECT_TIMEOUT_MS } from './connect-timeout.js';
import { McpConnectError, McpLoginNeededError } from './errors.js';
import { aliasProblem, deriveAlias, deriveStdioAlias, splitWireName } from './naming.js';
import type { OAuthStore } from './oauth-store.js';
import type { ProcessGroups } from './process-groups.js';
import { dispatchFailedOutcome } from './outcome.js';
import type { ToolOutcome } from '../tool-call.js';
import type { McpCallOptions, McpSession, McpSessionStatus, McpTool, McpTransportKind } from './session.js';
import type { McpClientRequests, McpServerRequests } from './session-types.js';
import { resourceParts, type ResourcePart } from './server-content.js';
import type { ArgumentValidator } from './validate.js';

/** `10 s`, `1.5 s`. */
function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** Settings shared by every session of the registry (from `mcp.*` in the config). */
export interface McpRegistryOptions {
  /** aish's environment (`auth_env`, `--token-env`; the safe part goes to stdio servers). */
  env: Record<string, string | undefined>;
  /**
   * Where a server aish starts runs, as of now: the session shell's exported environment (in
   * place of `env`) and directory (a stdio server's default `cwd`).
   */
  place?: () => { env: Record<string, string | undefined>; cwd: string };
  clientVersion: string;
  /** One-line status messages from sessions (protocol mismatch, list refresh failures, ...). */
  onStatus?: (message: string) => void;
  /** How aish answers the servers' own requests (elicitation, sampling, roots). */
  requests?: McpClientRequests;
  /** Server log messages of `warning` and above, one line each. */
  onLog?: (line: string) => void;
  /** Called after a server's tool list changed (list_changed) or a server connected/left. */
  onToolsChanged?: (alias: string) => void;
  /**
   * Per connect attempt of a server without `connect_timeout_ms`. Default 10 s; a package
   * launcher (`npx`, `uvx`, ...) gets at least 60 s (`connectTimeoutOf`).
   */
  connectTimeoutMs?: number;
  /** `mcp.call_timeout_ms`. Default 60 s. */
  callTimeoutMs?: number;
  /** `mcp.max_result_chars`. Default 16000. */
  maxResultChars?: number;
  /** OAuth for HTTP servers without a static token; without it a 401 is only reported. */
  oauth?: McpRegistryOAuth;
  /** Where the stdio servers' process groups are listed while they may be alive (ended at exit). */
  groups?: ProcessGroups;
}

/** Where tokens live, and how the authorization page reaches the person. */
export interface McpRegistryOAuth {
  store: OAuthStore;
  /** Opens (or prints) the authorization URL of a login for `alias`. */
  openUrl: (alias: string, url: URL) => Promise<void>;
}

/** A configured server that did not connect; print `[aish] ${error.message}` once. */
export interface McpConnectFailure {
  alias: string;
  error: McpConnectError;
}

/** One row of `:mcp list`. */
export interface McpServerRow {
  alias: string;
  /** URL (no credentials) or stdio command line. */
  target: string;
  transport: McpTransportKind;
  toolCount: number;
  /** A session's status, or why a configured server is not connected. */
  status: McpSessionStatus | 'failed' | 'login needed';
  /** Why it failed (status `failed`). */
  reason?: string;
  /** `name version` as the server reported it ('' when not connected). */
  server: string;
  protocolVersion: string;
}

/** One entry of the OpenAI `tools` request field. */
export interface OpenAiToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** Options of `McpRegistry.connect` (`:mcp connect`). */
export interface McpAdHocConnectOptions {
  /** `--token-env VAR`: the bearer token comes from `$VAR` (HTTP only). */
  tokenEnv?: string;
  signal?: AbortSignal;
}

/**
 * The sessions by alias. A failed connect leaves the alias absent; a server that went away stays
 * listed as `disconnected` (its tools are no longer offered) until disconnected or reconnected.
 */
export class McpRegistry {
  #sessions = new Map<string, McpSession>();
  #pending = new Set<string>();
  /** Where each alias goes in `list()`: config order, then `:mcp connect` order. */
  #rank = new Map<string, number>();
  #nextRank = 0;
  #opts: McpRegistryOptions;
  #validator: ArgumentValidator | undefined;
  #warnedSchemas = new Set<string>();
  /** The configured servers (`mcp.servers`), for `:mcp list`, `:mcp connect <alias>` and logins. */
  #configured = new Map<string, McpServerConfig>();
  /** Why a configured server is not connected. */
  #failures = new Map<string, McpConnectError>();
  /** Servers connected with `:mcp connect`, for a later `:mcp login`. */
  #adHoc = new Map<string, McpServerConfig>();

  constructor(opts: McpRegistryOptions) {
    this.#opts = opts;
    const problem = opts.oauth?.store.problem;
    if (problem) opts.onStatus?.(problem);
  }

  /** The session for `alias`, whatever its status. */
  get(alias: string): McpSession | undefined {
    return this.#sessions.get(alias);
  }

  /**
   * Connects every configured server at once, best effort (no retry). Resolves with one failure
   * per server that did not connect; never rejects.
   */
  async connectAll(servers: Record<string, McpServerConfig>, options: { signal?: AbortSignal } = {}): Promise<McpConnectFailure[]> {
    const entries = Object.entries(servers);
    for (const [alias, cfg] of entries) {
      this.#rankOf(alias);
      this.#configured.set(alias, cfg);
    }
    // Stdio servers first: spawning a process is the long pole, HTTP handshakes overlap with it.
    const startRank = (i: number) => (entries[i]![1].command !== undefined ? 0 : 1);
    const order = entries.map((_, i) => i).sort((a, b) => startRank(a) - startRank(b));
    const results: Array<McpConnectFailure | undefined> = [];
    await Promise.all(
      order.map(async (i) => {
        const [alias, cfg] = entries[i]!;
        try {
          await this.#connect(alias, cfg, options.signal, false, false);
        } catch (err) {
          results[i] = { alias, error: err instanceof McpConnectError ? err : new McpConnectError(alias, err) };
        }
      }),
    );
    return results.filter((r): r is McpConnectFailure => r !== undefined);
  }

  /**
   * `:mcp connect <url | command line> [alias] [--token-env VAR]`. A target that is not an
   * http(s) URL is a stdio command line, split like a shell does (quotes respected). The alias
   * defaults to the URL host's first label or the command's name, made unique. Throws
   * `UsageError` for bad arguments, `McpConnectError` when the server cannot be used.
   */
  async connect(target: string, alias?: string, options: McpAdHocConnectOptions = {}): Promise<McpSession> {
    const trimmed = target.trim();
    if (trimmed === '') throw new UsageError('usage: :mcp connect <url | command line | configured alias> [--alias NAME] [--token-env VAR]');
    const configured = this.#configured.get(trimmed);
    if (configured && alias === undefined && !options.tokenEnv) {
      const session = this.#sessions.get(trimmed);
      if (session?.status === 'connected') throw new UsageError(`mcp ${trimmed} is already connected (:mcp disconnect ${trimmed} first)`);
      return this.#connect(trimmed, configured, options.signal, true, true);
    }
    const taken = new Set([...this.#sessions.keys(), ...this.#pending]);
    let cfg: McpServerConfig;
    let name: string;
    if (/^https?:\/\//i.test(trimmed)) {
      let url: URL;
      try {
        url = new URL(trimmed);
      } catch {
        throw new UsageError(`not a valid URL: ${trimmed}`);
      }
      cfg = { url: url.href, args: [], env: {}, ...(options.tokenEnv ? { auth_env: options.tokenEnv } : {}) };
      name = alias ?? deriveAlias(url, taken);
    } else {
      if (options.tokenEnv) throw new UsageError('--token-env applies to HTTP servers; give a stdio server its token in the config `env`');
      let words: string[];
      try {
        words = splitCommandLine(trimmed);
      } catch (err) {
        throw new UsageError(err instanceof Error ? err.message : String(err));
      }
      const [command, ...args] = words as [string, ...string[]];
      cfg = { command, args, env: {} };
      name = alias ?? deriveStdioAlias(command, args, taken);
    }
    const problem = aliasProblem(name);
    if (problem) throw new UsageError(problem);
    return this.#connect(name, cfg, options.signal, true, true);
  }

  /**
   * `:mcp login <alias>`: runs the OAuth login of a configured (or connected) HTTP server now and
   * connects it, replacing a connected session. Throws `UsageError` for an unknown alias or a
   * stdio server, `McpConnectError` when the login or the connect fails.
   */
  async login(alias: string, signal?: AbortSignal): Promise<McpSession> {
    const cfg = this.#configFor(alias);
    if (!this.#opts.oauth) throw new UsageError('OAuth is not available in this session');
    const session = this.#sessions.get(alias);
    if (session) {
      await session.close();
      this.#sessions.delete(alias);
    }
    return this.#connect(alias, cfg, signal, true, true);
  }

  /** `:mcp logout <alias>`: forgets the server's tokens and client, and disconnects it. */
  async logout(alias: string): Promise<boolean> {
    const cfg = this.#configFor(alias);
    const forget = cfg.url === undefined ? undefined : this.#opts.oauth?.store.forget(new URL(cfg.url).href);
    if (forget?.problem) this.#opts.onStatus?.(forget.problem);
    const forgotten = forget?.forgot ?? false;
    if (this.#sessions.has(alias)) {
      await this.disconnect(alias);
      if (this.#configured.has(alias)) this.#rankOf(alias);
    }
    if (this.#configured.has(alias)) this.#failures.set(alias, new McpLoginNeededError(alias));
    return forgotten;
  }

  /** The config of a configured server, or of a connected HTTP one (`:mcp login/logout`). */
  #configFor(alias: string): McpServerConfig {
    const cfg = this.#configured.get(alias) ?? this.#adHoc.get(alias);
    if (!cfg) throw new UsageError(`no MCP server named ${alias}`);
    if (cfg.url === undefined) throw new UsageError(`mcp ${alias} is a stdio server; OAuth applies to HTTP servers`);
    return cfg;
  }

  #rankOf(alias: string): number {
    let rank = this.#rank.get(alias);
    if (rank === undefined) {
      rank = this.#nextRank++;
      this.#rank.set(alias, rank);
    }
    return rank;
  }

  /**
   * Connects one server. `interactive`: the person asked for this server, so an OAuth login may
   * open the authorization page now; at start-up it may not, and a 401 reports "login needed".
   */
  async #connect(alias: string, cfg: McpServerConfig, signal: AbortSignal | undefined, adHoc: boolean, interactive: boolean): Promise<McpSession> {
    const existing = this.#sessions.get(alias);
    if (this.#pending.has(alias) || existing?.status === 'connected') {
      const message = `alias "${alias}" is already connected${adHoc ? ` (:mcp disconnect ${alias} first, or pick another alias)` : ''}`;
      if (adHoc) throw new UsageError(message);
      throw new McpConnectError(alias, undefined, `already connected`);
    }
    this.#pending.add(alias);
    this.#rankOf(alias);
    const oauth = this.#opts.oauth;
    let stillStarting: ReturnType<typeof setTimeout> | undefined;
    try {
      if (!this.#validator) {
        const { ArgumentValidator } = await import('./validate.js');
        this.#validator = new ArgumentValidator();
      }
      const { McpSession } = await import('./session.js');
      const place = this.#opts.place?.();
      const timeoutMs = connectTimeoutOf(cfg, this.#opts.connectTimeoutMs);
      stillStarting = this.#sayStillStarting(alias, cfg, timeoutMs);
      const session = await McpSession.connect(alias, cfg, {
        env: place?.env ?? this.#opts.env,
        ...(place ? { cwd: place.cwd } : {}),
        clientVersion: this.#opts.clientVersion,
        ...(signal ? { signal } : {}),
        timeoutMs,
        // The server's own timeout_ms wins over mcp.call_timeout_ms.
        ...(cfg.timeout_ms !== undefined ? { callTimeoutMs: cfg.timeout_ms } : this.#opts.callTimeoutMs !== undefined ? { callTimeoutMs: this.#opts.callTimeoutMs } : {}),
        ...(this.#opts.maxResultChars !== undefined ? { maxResultChars: this.#opts.maxResultChars } : {}),
        ...(this.#opts.onStatus ? { onStatus: this.#opts.onStatus } : {}),
        ...(this.#opts.onLog ? { onLog: this.#opts.onLog } : {}),
        ...(this.#opts.requests ? { requests: this.#requestsOf(alias, cfg) } : {}),
        ...(this.#opts.groups ? { groups: this.#opts.groups } : {}),
        onToolsChanged: () => this.#opts.onToolsChanged?.(alias),
        ...(oauth ? { oauth: { store: oauth.store, ...(this.#opts.onStatus ? { report: this.#opts.onStatus } : {}), ...(interactive ? { openUrl: (url: URL) => oauth.openUrl(alias, url) } : {}) } } : {}),
      });
      if (existing) await existing.close();
      this.#sessions.set(alias, session);
      this.#failures.delete(alias);
      if (!this.#configured.has(alias)) this.#adHoc.set(alias, cfg);
      this.#opts.onToolsChanged?.(alias);
      return session;
    } catch (err) {
      if (this.#configured.has(alias) && err instanceof McpConnectError) this.#failures.set(alias, err);
      throw err;
    } finally {
      clearTimeout(stillStarting);
      this.#pending.delete(alias);
    }
  }

  /**
   * A stdio server allowed more than the usual limit of a connect (10 s, or the registry's
   * `connectTimeoutMs`), being a launcher or having its own connect_timeout_ms, gets one status
   * line when it passes it, so a slow start is not taken for a hang. HTTP servers are left out:
   * their connect may be waiting for a login in the browser.
   */
  #sayStillStarting(alias: string, cfg: McpServerConfig, timeoutMs: number): ReturnType<typeof setTimeout> | undefined {
    const usual = this.#opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    if (cfg.command === undefined || timeoutMs <= usual || !this.#opts.onStatus) return undefined;
    const say = this.#opts.onStatus;
    const timer = setTimeout(
      () => say(`mcp ${alias}: still starting after ${seconds(usual)}; waiting up to ${seconds(timeoutMs)} (connect_timeout_ms sets the limit)`),
      usual,
    );
    timer.unref?.();
    return timer;
  }

  /** What `alias` is answered: the shared forms and sampling, and the roots its setting offers. */
  #requestsOf(alias: string, cfg: McpServerConfig): McpServerRequests {
    const { roots, ...shared } = this.#opts.requests ?? {};
    const answer = roots?.(alias, cfg.roots);
    return { ...shared, ...(answer ? { roots: answer } : {}) };
  }

  /** Closes and forgets one session; false when there is none by that alias. */
  async disconnect(alias: string): Promise<boolean> {
    const session = this.#sessions.get(alias);
    if (!session) return false;
    this.#sessions.delete(alias);
    this.#adHoc.delete(alias);
    if (!this.#configured.has(alias)) this.#rank.delete(alias);
    await session.close();
    this.#opts.onToolsChanged?.(alias);
    return true;
  }

  /**
   * Rows for `:mcp list`: every configured server in config order (connected, failed with the
   * reason, or login needed), then the ones connected later.
   */
  list(): McpServerRow[] {
    const rows: Array<McpServerRow & { rank: number }> = [...this.#sessions.values()].map((s) => ({
      rank: this.#rankOf(s.alias),
      alias: s.alias,
      target: s.target,
      transport: s.transport,
      toolCount: s.status === 'connected' ? s.tools.length : 0,
      status: s.status,
      server: `${s.serverInfo.name} ${s.serverInfo.version}`,
      protocolVersion: s.protocolVersion,
    }));
    for (const [alias, cfg] of this.#configured) {
      if (this.#sessions.has(alias)) continue;
      const failure = this.#failures.get(alias);
      const login = failure instanceof McpLoginNeededError;
      rows.push({
        rank: this.#rankOf(alias),
        alias,
        target: cfg.url !== undefined ? new URL(cfg.url).href : joinCommandLine([cfg.command!, ...cfg.args]),
        transport: cfg.url !== undefined ? (cfg.transport === 'sse' ? 'sse' : 'streamable-http') : 'stdio',
        toolCount: 0,
        status: login ? 'login needed' : failure ? 'failed' : 'closed',
        ...(failure && !login ? { reason: failure.reason } : {}),
        server: '',
        protocolVersion: '',
      });
    }
    return rows.sort((a, b) => a.rank - b.rank).map(({ rank: _rank, ...row }) => row);
  }

  /** The connected sessions, in `:mcp list` order. */
  connected(): McpSession[] {
    return [...this.#sessions.values()].filter((s) => s.status === 'connected').sort((a, b) => this.#rankOf(a.alias) - this.#rankOf(b.alias));
  }

  /** The connected session of `alias`; a UsageError says why there is none. */
  connectedSession(alias: string): McpSession {
    const session = this.#sessions.get(alias);
    if (session?.status === 'connected') return session;
    if (session) throw new UsageError(`mcp ${alias} is ${session.status}${session.lastError ? ` (${session.lastError})` : ''}`);
    if (this.#configured.has(alias)) throw new UsageError(`mcp ${alias} is not connected (:mcp connect ${alias})`);
    throw new UsageError(`no MCP server named ${alias}`);
  }

  /** Whether `alias` names a server of this session (connected or configured). */
  knows(alias: string): boolean {
    return this.#sessions.has(alias) || this.#configured.has(alias);
  }

  /**
   * `resources/read` of `uri` on `alias`, as its parts (text, or a blob's one-line summary).
   * Rejects with a UsageError naming why (no such server, not found, the server failed); a
   * cancelled read rejects too (the caller looks at its signal).
   */
  async readResource(alias: string, uri: string, signal?: AbortSignal): Promise<ResourcePart[]> {
    const answer = await this.connectedSession(alias).readResource(uri, signal);
    if (!answer.ok) throw new UsageError(answer.reason);
    const parts = resourceParts(answer.value);
    if (parts.length === 0) throw new UsageError('the server sent no contents');
    return parts;
  }

  /** Every tool of every connected session. */
  allTools(): McpTool[] {
    const tools: McpTool[] = [];
    for (const s of this.#sessions.values()) if (s.status === 'connected') tools.push(...s.tools);
    return tools;
  }

  /** The OpenAI `tools` array; empty when there are no tools (the broker then omits the field). */
  toolDefinitions(): OpenAiToolDefinition[] {
    return this.allTools().map((t) => ({
      type: 'function',
      function: {
        name: t.wireName,
        ...(t.description ? { description: t.description } : {}),
        parameters: t.inputSchema,
      },
    }));
  }

  /** The connected session and tool behind a wire name. */
  findTool(wireName: string): { session: McpSession; tool: McpTool } | undefined {
    const parts = splitWireName(wireName);
    if (!parts) return undefined;
    const session = this.#sessions.get(parts.alias);
    if (!session || session.status !== 'connected') return undefined;
    const tool = session.tools.find((t) => t.wireName === wireName);
    return tool ? { session, tool } : undefined;
  }

  /** The roots changed (`cd`): every connected server that was offered roots is told. */
  rootsChanged(): void {
    for (const session of this.#sessions.values()) session.notifyRootsChanged();
  }

  /**
   * Calls a tool by wire name; never rejects. An unknown name resolves `error` with
   * `[aish] tool dispatch failed: no tool named <name>`.
   */
  async callTool(wireName: string, args: Record<string, unknown> | undefined, options: McpCallOptions = {}): Promise<ToolOutcome> {
    const found = this.findTool(wireName);
    if (!found) return dispatchFailedOutcome(`no tool named ${wireName}`);
    return found.session.callTool(found.tool.wireName, args, options);
  }

  /**
   * Checks arguments against the tool's `inputSchema`: `[]` when valid, else lines like
   * `/a: must be number`. Also `[]` for an unknown tool (`callTool` reports it) and for a schema
   * ajv cannot compile (the server checks; a status line says so once per tool).
   */
  validateArguments(wireName: string, args: unknown): string[] {
    const found = this.findTool(wireName);
    if (!found || !this.#validator) return [];
    const result = this.#validator.check(found.tool.inputSchema, args);
    if ('errors' in result) return result.errors;
    if (!this.#warnedSchemas.has(wireName)) {
      this.#warnedSchemas.add(wireName);
      this.#opts.onStatus?.(`mcp ${found.session.alias}: cannot check arguments of ${found.tool.name} (${result.unusable}); the server will`);
    }
    return [];
  }

  /** Closes every session (in parallel) and forgets them. Never rejects. */
  async closeAll(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((s) => s.close()));
  }
}
