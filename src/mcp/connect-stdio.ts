// Starting an MCP server as a child process over stdio (SPEC §6): `command`, `args`, `env`, `cwd`;
// the child gets only a safe part of aish's environment, and its stderr is kept (the last 4 KB) out
// of the terminal for error messages. Throws only `McpConnectError`, carrying that stderr tail.

import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { statSync } from 'node:fs';
import type { McpServerConfig } from '../config/schema.js';
import { Reason } from './abort.js';
import { joinCommandLine } from './command-line.js';
import { connectClient, DEFAULT_CONNECT_TIMEOUT_MS, type Connected } from './connect-client.js';
import { describeMcpFailure, McpConnectError, type FailureContext } from './errors.js';
import { isConnectionClosed, lastLine, scrubSecrets } from './failure-text.js';
import type { McpConnectOptions } from './session-types.js';

const STDERR_TAIL_CHARS = 4096;

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

/** Starts a stdio server with a safe environment and its stderr kept (the last 4 KB) out of sight. */
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
  const transport = new StdioClientTransport({
    command,
    args: cfg.args,
    env: stdioEnvironment(opts.env, cfg.env),
    ...(cfg.cwd !== undefined ? { cwd: cfg.cwd } : opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
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
  const { client, protocolVersion } = await connectClient(transport, opts, signal, fail, alias);
  return { kind: 'stdio', client, transport, target, secrets, stderr, protocolVersion, fail };
}
