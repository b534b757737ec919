// MCP at start-up (SPEC §6): the session's registry built from the `mcp.*` settings, and the
// configured servers connected in parallel, best effort: one error line per failure, the alias
// absent until `:mcp connect`. One-shot `-p` and a piped REPL wait for them; on a terminal they
// connect in the background so the prompt comes first.

import type { Config } from '../config/schema.js';
import { McpLoginNeededError } from './errors.js';
import type { OAuthStore } from './oauth-store.js';
import { openUrl } from './open-url.js';
import { McpRegistry, type McpConnectFailure } from './registry.js';
import type { ProcessGroups } from './process-groups.js';
import type { McpClientRequests } from './session-types.js';

/** How start-up is shown: a busy line while connecting (its stop function), and failures. */
export interface StartupView {
  busy(label: string): () => void;
  error(message: string): void;
  status(message: string): void;
}

/** Where OAuth tokens are kept and how a login reaches the person. */
export interface RegistryOAuthSetup {
  /** Where OAuth state lives (`<stateDir>/mcp-oauth.json`, or memory). */
  store: OAuthStore;
  isTTY: boolean;
  /** Where server log lines go; status lines when not given. */
  onLog?: (line: string) => void;
  /** How the servers' own requests (elicitation, sampling, roots) are answered. */
  requests?: McpClientRequests;
  /** The session shell's exported environment and directory, for the servers aish starts. */
  place?: () => { env: Record<string, string | undefined>; cwd: string };
  /** Where the stdio servers' process groups are listed, for the exit to end what is left. */
  groups?: ProcessGroups;
}

/** The session's MCP registry, with the `mcp.*` settings of the config and OAuth. */
export function createRegistry(
  config: Config,
  env: Record<string, string | undefined>,
  version: string,
  view: Pick<StartupView, 'status'>,
  oauth: RegistryOAuthSetup,
): McpRegistry {
  const status = (message: string) => view.status(message);
  return new McpRegistry({
    env,
    clientVersion: version,
    onStatus: status,
    onLog: oauth.onLog ?? status,
    ...(oauth.requests ? { requests: oauth.requests } : {}),
    ...(oauth.place ? { place: oauth.place } : {}),
    ...(oauth.groups ? { groups: oauth.groups } : {}),
    callTimeoutMs: config.mcp.call_timeout_ms,
    maxResultChars: config.mcp.max_result_chars,
    oauth: {
      store: oauth.store,
      openUrl: async (alias, url) => {
        const by = await openUrl(url.href, { env, isTTY: oauth.isTTY });
        const where = by === 'none' ? 'open this URL to log in' : 'log in in the browser; if it did not open, use this URL';
        view.status(`mcp ${alias}: ${where} (Ctrl-C gives up):\n${url.href}`);
      },
    },
  });
}

/** Connects `mcp.servers` in parallel, best effort; resolves when every attempt has ended. */
export async function connectConfiguredServers(registry: McpRegistry, config: Config, view: StartupView): Promise<void> {
  const count = Object.keys(config.mcp.servers).length;
  if (count === 0) return;
  const stop = view.busy(`connecting ${count} MCP server${count === 1 ? '' : 's'}`);
  try {
    const failures = await registry.connectAll(config.mcp.servers);
    stop();
    // A login is never started here: the person runs :mcp login when they want to.
    for (const failure of failures) {
      if (failure.error instanceof McpLoginNeededError) view.status(failure.error.message);
      else view.error(failure.error.message);
    }
  } finally {
    stop();
  }
}

/**
 * The configured servers connecting while the person is already at the prompt. Whoever needs the
 * tools waits for them (`ready`), with a spinner saying so; failures are reported once, to the
 * first caller after the attempts have ended.
 */
export class BackgroundConnect {
  readonly #count: number;
  readonly #controller = new AbortController();
  readonly #done: Promise<McpConnectFailure[]>;
  #failures: McpConnectFailure[] | null = null;
  #reported = false;

  /** Starts connecting `mcp.servers` at once. */
  constructor(registry: McpRegistry, config: Config) {
    this.#count = Object.keys(config.mcp.servers).length;
    this.#done =
      this.#count === 0 ? Promise.resolve([]) : registry.connectAll(config.mcp.servers, { signal: this.#controller.signal });
    void this.#done.then((failures) => (this.#failures = failures));
  }

  /**
   * Resolves once every attempt has ended (a busy line meanwhile) and its failures are reported;
   * or at once when `signal` aborts, leaving the attempts running. Never rejects.
   */
  async ready(view: StartupView, signal: AbortSignal): Promise<void> {
    if (this.#failures === null) {
      const stop = view.busy(`waiting for ${this.#count} MCP server${this.#count === 1 ? '' : 's'} to connect`);
      let onAbort = () => {};
      const aborted = new Promise<void>((resolve) => (onAbort = resolve));
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        if (!signal.aborted) await Promise.race([this.#done, aborted]);
      } finally {
        signal.removeEventListener('abort', onAbort);
        stop();
      }
    }
    this.report(view);
  }

  /** Reports the failures once, if the attempts have ended; otherwise does nothing yet. */
  report(view: Pick<StartupView, 'error'>): void {
    if (this.#failures === null || this.#reported) return;
    this.#reported = true;
    for (const failure of this.#failures) view.error(failure.error.message);
  }

  /** Ends the attempts still under way and resolves when they have ended. Never rejects. */
  async stop(): Promise<void> {
    this.#controller.abort();
    await this.#done;
  }
}
