// Starting an MCP server as a child process over stdio (SPEC §6): `command`, `args`, `env`, `cwd`;
// the child runs in a process group of its own (`GroupStdioTransport`), gets only a safe part of
// aish's environment, and its stderr is kept (the last 4 KB) out of the terminal for error
// messages. Throws only `McpConnectError`, whose message ends with that stderr's last lines.

import { statSync } from 'node:fs';
import type { McpServerConfig } from '../config/schema.js';
import { Reason } from './abort.js';
import { joinCommandLine } from './command-line.js';
import { connectClient, DEFAULT_CONNECT_TIMEOUT_MS, type Connected } from './connect-client.js';
import { describeMcpFailure, McpConnectError, type FailureContext } from './errors.js';
import { isConnectionClosed, lastLine, scrubSecrets, stderrTailLines } from './failure-text.js';
import { GroupStdioTransport } from './group-stdio-transport.js';
import type { McpConnectOptions } from './session-types.js';

const STDERR_TAIL_CHARS = 4096;

/**
 * What a stdio server inherits from aish: enough to find programs, a home, a locale, a temp dir,
 * and the network settings a child needs behind a proxy that intercepts TLS (`npx -y` fetching
 * the server): the proxies and the extra CA certificates. No tokens or keys: those go in the
 * server's `env` in the config. docs/mcp.md lists them.
 */
const INHERITED_ENV = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TERM',
  'TMPDIR', 'TZ', 'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'all_proxy',
  'NODE_EXTRA_CA_CERTS', 'NODE_USE_ENV_PROXY', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE',
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

/**
 * Starts a stdio server in a process group of its own, with a safe environment and its stderr
 * kept (the last 4 KB) out of sight.
 */
export async function connectStdio(alias: string, cfg: McpServerConfig, opts: McpConnectOptions, signal: AbortSignal): Promise<Connected> {
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
  const stderr = { text: '' };
  const transport = new GroupStdioTransport({
    command,
    args: cfg.args,
    env: stdioEnvironment(opts.env, cfg.env),
    cwd: cfg.cwd ?? opts.cwd,
    onStderr: (chunk) => {
      stderr.text = (stderr.text + chunk).slice(-STDERR_TAIL_CHARS);
    },
    ...(opts.groups ? { groups: opts.groups } : {}),
  });
  const ctx: FailureContext = { command, timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS };
  const fail = (err: unknown): McpConnectError => {
    if (err instanceof McpConnectError) return err;
    let reason: string;
    if (err instanceof Reason) reason = err.message;
    else if (isConnectionClosed(err)) reason = 'the server exited during start-up';
    else reason = describeMcpFailure(err, ctx);
    if (reason === 'cancelled') return new McpConnectError(alias, err, reason);
    // `:mcp list` shows one line, ending with the last thing the server said; the error itself
    // shows the last few lines, which often hold the cause (a proxy, a certificate, npm's log).
    const last = lastLine(stderr.text);
    const error = new McpConnectError(alias, err, scrubSecrets(last ? `${reason}: ${last}` : reason, secrets));
    const tail = stderrTailLines(stderr.text);
    if (tail.length > 1) error.message = scrubSecrets(`mcp ${alias}: ${reason}; its stderr ended with:\n${tail.map((l) => `  ${l}`).join('\n')}`, secrets);
    error.stderrTail = stderr.text;
    return error;
  };
  const { client, protocolVersion } = await connectClient(transport, opts, signal, fail, alias);
  return { kind: 'stdio', client, transport, target, secrets, stderr, protocolVersion, fail };
}
