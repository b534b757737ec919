// The MCP handshake both transports share: a new SDK `Client` connected over a given transport
// within the attempt's signal, and the `Connected` record a finished handshake hands to
// `McpSession`. On failure the client is closed and the caller's error is thrown.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { raceAbort } from './abort.js';
import type { McpConnectError } from './errors.js';
import type { McpConnectOptions, McpTransportKind } from './session-types.js';

/** Default limit of a whole connect (start, initialize, tools/list). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

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
