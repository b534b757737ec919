// The one-line reasons a session and its connect helpers show (SPEC §6): secrets scrubbed, the
// last line of a server's stderr, JSON-RPC messages without the SDK's prefix, and which SDK error
// means "the transport closed". Pure functions of their arguments.

import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FailureContext } from './errors.js';
import type { McpTransportKind } from './session-types.js';

/** `text` with every secret of 4 or more characters replaced by `***`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.replaceAll(s, '***');
  return out;
}

/** The last non-blank line of `text`, trimmed and cut to 200 characters ('' when there is none). */
export function lastLine(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).filter(Boolean).at(-1) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** The last `count` non-blank lines of `text`, each trimmed at the end and cut to 200 characters. */
export function stderrTailLines(text: string, count = 6): string[] {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(-count)
    .map((l) => (l.length > 200 ? `${l.slice(0, 199)}…` : l));
}

/** The SDK's own "the transport closed under a pending request", not a server's -32000. */
export function isConnectionClosed(err: unknown): boolean {
  return err instanceof McpError && err.code === ErrorCode.ConnectionClosed && /Connection closed/.test(err.message);
}

/** A JSON-RPC error's message without the SDK's `MCP error <code>: ` prefix, with its code. */
export function rpcMessage(err: McpError): string {
  return `${err.message.replace(/^(MCP error -?\d+: )+/, '')} (JSON-RPC error ${err.code})`;
}

/** What `describeMcpFailure` needs to know of a session's target: its URL or its command line. */
export function failureContext(target: string, kind: McpTransportKind): FailureContext {
  if (kind === 'stdio') return { command: target };
  try {
    return { url: new URL(target) };
  } catch {
    return {};
  }
}
