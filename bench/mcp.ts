// MCP: a `callTool` round trip through McpSession against the raw SDK client on the same loopback
// streamable-HTTP server (medians of 200, interleaved), the same for a `resources/read` of
// server-everything's static document, and start-up with three configured servers (connectAll,
// in parallel) against the slowest single connect and the sum of the three.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServerConfig } from '../src/config/schema.js';
import { McpRegistry } from '../src/mcp/registry.js';
import { resourceParts } from '../src/mcp/server-content.js';
import { McpSession } from '../src/mcp/session.js';
import { fixtureStdio, httpServer, startEverything, startFixture, stopAllServers } from '../test/support/mcp-servers.js';
import { median } from './stats.js';

const CALLS = 200;
const STARTUP_ROUNDS = 9;

function since(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function timeCallRoundTrips(url: string): Promise<{ sessionMs: number; rawMs: number }> {
  const env = { PATH: process.env.PATH };
  const session = await McpSession.connect('bench', httpServer(url), { env, clientVersion: 'bench' });
  const raw = new Client({ name: 'bench-raw', version: '0' });
  await raw.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const viaSession = async () => {
      const t0 = process.hrtime.bigint();
      const outcome = await session.callTool('bench__echo', { text: 'ping' });
      if (outcome.content !== 'echo: ping') throw new Error(`unexpected outcome: ${outcome.content}`);
      return since(t0);
    };
    const viaRaw = async () => {
      const t0 = process.hrtime.bigint();
      await raw.callTool({ name: 'echo', arguments: { text: 'ping' } });
      return since(t0);
    };
    return await interleaved(viaSession, viaRaw);
  } finally {
    await session.close();
    await raw.close();
  }
}

/** Medians of `CALLS` runs of each, after a warm-up, alternating which goes first so neither always meets a warmer server. */
async function interleaved(viaSession: () => Promise<number>, viaRaw: () => Promise<number>): Promise<{ sessionMs: number; rawMs: number }> {
  for (let i = 0; i < 20; i++) {
    await viaSession();
    await viaRaw();
  }
  const sessionTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    if (i % 2 === 0) {
      sessionTimes.push(await viaSession());
      rawTimes.push(await viaRaw());
    } else {
      rawTimes.push(await viaRaw());
      sessionTimes.push(await viaSession());
    }
  }
  return { sessionMs: median(sessionTimes), rawMs: median(rawTimes) };
}

const DOCUMENT = 'demo://resource/static/document/architecture.md';

/** A `resources/read` through McpSession (with its parts made) against the bare SDK client. */
async function timeResourceReads(url: string): Promise<{ sessionMs: number; rawMs: number }> {
  const session = await McpSession.connect('bench', httpServer(url), { env: { PATH: process.env.PATH }, clientVersion: 'bench' });
  const raw = new Client({ name: 'bench-raw', version: '0' });
  await raw.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return await interleaved(
      async () => {
        const t0 = process.hrtime.bigint();
        const answer = await session.readResource(DOCUMENT);
        if (!answer.ok || resourceParts(answer.value).length !== 1) throw new Error('unexpected read');
        return since(t0);
      },
      async () => {
        const t0 = process.hrtime.bigint();
        await raw.readResource({ uri: DOCUMENT });
        return since(t0);
      },
    );
  } finally {
    await session.close();
    await raw.close();
  }
}

async function timeStartup(servers: Record<string, McpServerConfig>): Promise<{ startupThreeMs: number; slowestSingleMs: number; sumSingleMs: number }> {
  const options = { env: { PATH: process.env.PATH, HOME: process.env.HOME }, clientVersion: 'bench' };
  const connectOnce = async (subset: Record<string, McpServerConfig>) => {
    const registry = new McpRegistry(options);
    const t0 = process.hrtime.bigint();
    const failures = await registry.connectAll(subset);
    const ms = since(t0);
    await registry.closeAll();
    if (failures.length > 0) throw new Error(failures.map((f) => f.error.message).join('; '));
    return ms;
  };
  // Warm: module loading and each server's first session.
  await connectOnce(servers);
  const singles: Record<string, number[]> = Object.fromEntries(Object.keys(servers).map((a) => [a, []]));
  const all: number[] = [];
  for (let round = 0; round < STARTUP_ROUNDS; round++) {
    for (const [alias, cfg] of Object.entries(servers)) singles[alias]!.push(await connectOnce({ [alias]: cfg }));
    all.push(await connectOnce(servers));
  }
  const medians = Object.values(singles).map(median);
  return {
    startupThreeMs: median(all),
    slowestSingleMs: Math.max(...medians),
    sumSingleMs: medians.reduce((a, b) => a + b, 0),
  };
}

/**
 * `sessionMs` / `rawMs`: median echo round trip through McpSession / the bare SDK client (ratio =
 * session / raw). `startupThreeMs`: connectAll with a streamable-HTTP fixture, server-everything
 * over streamable HTTP and a stdio fixture; compare with the slowest single connect and the sum.
 */
export async function benchMcp(): Promise<{
  sessionMs: number;
  rawMs: number;
  ratio: number;
  startupThreeMs: number;
  slowestSingleMs: number;
  sumSingleMs: number;
  readSessionMs: number;
  readRawMs: number;
}> {
  try {
    const [fixture, everything] = await Promise.all([startFixture(), startEverything('streamableHttp')]);
    const { sessionMs, rawMs } = await timeCallRoundTrips(`${fixture.origin}/mcp`);
    const read = await timeResourceReads(`${everything.origin}/mcp`);
    const startup = await timeStartup({
      fixture: httpServer(`${fixture.origin}/mcp`),
      everything: httpServer(`${everything.origin}/mcp`),
      stdio: fixtureStdio(),
    });
    return { sessionMs, rawMs, ratio: sessionMs / rawMs, ...startup, readSessionMs: read.sessionMs, readRawMs: read.rawMs };
  } finally {
    await stopAllServers();
  }
}
