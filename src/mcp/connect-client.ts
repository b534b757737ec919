// The MCP handshake both transports share: a new SDK `Client` connected over a given transport
// within the attempt's signal, and the `Connected` record a finished handshake hands to
// `McpSession`. On failure the client is closed and the caller's error is thrown.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListRootsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { raceAbort } from './abort.js';
export { DEFAULT_CONNECT_TIMEOUT_MS } from './connect-timeout.js';
import type { McpConnectError } from './errors.js';
import type { McpConnectOptions, McpTransportKind } from './session-types.js';

/** A finished handshake, before the session object exists. */
export interface Connected {
  kind: McpTransportKind;
  client: Client;
  transport: Transport;
  target: string;
  secrets: string[];
  stderr: { text: string } | undefined;
  protocolVersion: () => string | undefined;
  /** The `McpConnectError` for a failure after the handshake (tools/list, abort). */
  fail: (err: unknown) => McpConnectError;
  /** The OAuth login of this connection, when it has one (HTTP without a static token). */
  login?: McpLogin;
}

/** A login the SDK started by opening the authorization page (first login or scope step-up). */
export interface McpLogin {
  /** Whether the authorization page was opened and its answer is awaited. */
  pending(): boolean;
  /** Waits for the browser (only `signal` ends the wait) and trades the code for tokens. */
  finish(signal: AbortSignal | undefined): Promise<void>;
}

function newClient(opts: McpConnectOptions, alias: string): Client {
  const { elicit, sample, roots } = opts.requests ?? {};
  const client = new Client(
    { name: 'aish', version: opts.clientVersion },
    {
      capabilities: {
        ...(elicit ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
        ...(sample ? { sampling: {} } : {}),
        ...(roots ? { roots: { listChanged: true } } : {}),
      },
    },
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicit(alias, request.params, extra.signal));
  if (sample) client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => sample(alias, request.params, extra.signal));
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots() }));
  return client;
}

/**
 * Records the protocol version the server answered, and lets it answer one the SDK does not know:
 * aish accepts whatever the server returns and says so (seed 000 §4, "proceeding"), where the
 * SDK's client would give up. The SDK sees its newest version in that answer; the transport is
 * told the server's own, so the `mcp-protocol-version` header is the one the server chose.
 */
function watchProtocolVersion(transport: Transport): () => string | undefined {
  let version: string | undefined;
  const start = transport.start.bind(transport);
  // The client sets its message handler just before it starts the transport; the handshake's
  // answer is the first one carrying a protocol version.
  transport.start = () => {
    const deliver = transport.onmessage;
    transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: Parameters<NonNullable<Transport['onmessage']>>[1]) => {
      if (version === undefined) {
        const answered = protocolVersionOf(message);
        if (answered !== undefined) {
          version = answered;
          if (!SUPPORTED_PROTOCOL_VERSIONS.includes(answered)) message = withProtocolVersion(message, LATEST_PROTOCOL_VERSION);
        }
      }
      deliver?.(message, extra);
    };
    return start();
  };
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v: string) => original?.(version ?? v);
  return () => version;
}

/** The `protocolVersion` of an initialize answer, or undefined for any other message. */
function protocolVersionOf(message: JSONRPCMessage): string | undefined {
  if (!('result' in message) || typeof message.result !== 'object' || message.result === null) return undefined;
  const { protocolVersion } = message.result as { protocolVersion?: unknown };
  return typeof protocolVersion === 'string' ? protocolVersion : undefined;
}

function withProtocolVersion<T extends JSONRPCMessage>(message: T, version: string): T {
  return { ...message, result: { ...(message as { result: object }).result, protocolVersion: version } };
}

/** Connects a new SDK client over `transport`; on failure closes it and throws `mapError(err)`. */
export async function connectClient(
  transport: Parameters<typeof watchProtocolVersion>[0],
  opts: Parameters<typeof newClient>[0],
  signal: AbortSignal,
  mapError: (err: unknown) => unknown,
  alias: string,
): Promise<{ client: ReturnType<typeof newClient>; protocolVersion: ReturnType<typeof watchProtocolVersion> }> {
  const client = newClient(opts, alias);
  const protocolVersion = watchProtocolVersion(transport);
  try {
    await raceAbort(client.connect(transport, { signal }), signal, () => client.close());
  } catch (err) {
    await client.close().catch(() => {});
    throw mapError(err);
  }
  return { client, protocolVersion };
}
