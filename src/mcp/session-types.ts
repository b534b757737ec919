// The shapes an MCP session shows the rest of aish (SPEC §6): its transport and status, the tools
// it offers, and the options of connect and callTool. Types only, so the registry and the connect
// helpers can name them without loading the SDK or importing the session class.

import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, Root, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolProgress } from '../tool-call.js';
import type { OpenUrl } from './oauth-provider.js';
import type { OAuthStore } from './oauth-store.js';
import type { ProcessGroups } from './process-groups.js';

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
  /** Where a stdio server without a `cwd` of its own starts (aish's own directory otherwise). */
  cwd?: string;
  /** Cancels the connect attempt. */
  signal?: AbortSignal;
  /** Limit for the whole connect (start, initialize, tools/list). Default 10 s. */
  timeoutMs?: number;
  /** aish's version, sent as `clientInfo.version`. */
  clientVersion: string;
  /** One-line status messages (protocol mismatch, unset auth_env, tool list refresh failure). */
  onStatus?: (message: string) => void;
  /** Log messages of `warning` and above, one line each (`mcp <alias> warning: ...`). */
  onLog?: (line: string) => void;
  /** Answers to this server's own requests (elicitation, sampling, roots); each offered only when given. */
  requests?: McpServerRequests;
  /** Called after the tool list was refetched on `notifications/tools/list_changed`. */
  onToolsChanged?: (tools: readonly McpTool[]) => void;
  /** Default cap of a result's content (`mcp.max_result_chars`). */
  maxResultChars?: number;
  /** Default `callTool` timeout (`mcp.call_timeout_ms`). Default 60 s. */
  callTimeoutMs?: number;
  /** OAuth for HTTP servers without a static token; without it a 401 is only reported. */
  oauth?: McpOAuthOptions;
  /** Where a stdio server's process group is listed while it may be alive (ended at exit). */
  groups?: ProcessGroups;
}

/**
 * How aish answers what one server asks of it. Each handler's presence makes the client advertise
 * the capability; a handler never rejects for a refusal (that is an answer), only for failures.
 */
export interface McpServerRequests {
  /** `elicitation/create`, form or URL mode: the person's (or the config's) answer. */
  elicit?: (alias: string, params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  /** `sampling/createMessage`: a model answer after a confirm; rejects with an McpError when refused. */
  sample?: (alias: string, params: CreateMessageRequest['params'], signal: AbortSignal) => Promise<CreateMessageResult>;
  /** `roots/list`: the directories offered to this server as roots now. */
  roots?: () => Root[];
}

/** A `roots` setting (`mcp.roots`, `mcp.servers.<alias>.roots`): follow the shell, none, or these directories. */
export type McpRootsSetting = 'cwd' | false | readonly string[];

/** How aish answers every server: the same forms and sampling, and roots chosen per server. */
export interface McpClientRequests extends Omit<McpServerRequests, 'roots'> {
  /**
   * The roots answer of a server about to connect, from its own `roots` setting (undefined when it
   * has none); undefined when it is offered no roots, so the client does not announce them.
   */
  roots?: (alias: string, own: McpRootsSetting | undefined) => (() => Root[]) | undefined;
}

/** Where OAuth state lives and whether a login may start now. */
export interface McpOAuthOptions {
  store: OAuthStore;
  /** Opens the authorization page; absent where no login may start (start-up). */
  openUrl?: OpenUrl;
  /** Hears that the store's file could not be written. */
  report?: (problem: string) => void;
}

/** Options of one `callTool`. */
export interface McpCallOptions {
  /** The line's signal: Ctrl-C resolves the call as `cancelled` and tells the server. */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxResultChars?: number;
  /** Progress reports of this call; asking for them also lets each report restart the timeout. */
  onProgress?: (progress: ToolProgress) => void;
}
