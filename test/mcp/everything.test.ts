// McpSession against the reference server, @modelcontextprotocol/server-everything, in all three
// transports: connect, list, call, image and resource_link summaries, the scrubbed environment of
// a stdio server, and a quiet close.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpSession, type McpConnectOptions } from '../../src/mcp/session.js';
import {
  everythingStdio,
  httpServer,
  startEverything,
  stopAllServers,
  type RunningServer,
} from '../support/mcp-servers.js';

const SECRET = 'aish-test-secret-7f3a9c';

let streamable: RunningServer;
let sse: RunningServer;

beforeAll(async () => {
  process.env.AISH_MCP_TEST_SECRET = SECRET;
  [streamable, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
});

afterAll(async () => {
  delete process.env.AISH_MCP_TEST_SECRET;
  await stopAllServers();
});

function options(statuses: string[] = []): McpConnectOptions {
  return { env: { ...process.env }, clientVersion: '0.0.0-test', onStatus: (m) => statuses.push(m) };
}

const modes = [
  { name: 'streamable HTTP', kind: 'streamable-http', cfg: () => httpServer(`${streamable.origin}/mcp`) },
  { name: 'legacy SSE', kind: 'sse', cfg: () => httpServer(`${sse.origin}/sse`, { transport: 'sse' }) },
  { name: 'stdio', kind: 'stdio', cfg: () => everythingStdio() },
] as const;

describe.each(modes)('server-everything over $name', ({ kind, cfg }) => {
  it('connects, lists tools with annotations, calls echo and summarises non-text blocks', async () => {
    const statuses: string[] = [];
    const session = await McpSession.connect('everything', cfg(), options(statuses));
    try {
      expect(session.transport).toBe(kind);
      expect(session.status).toBe('connected');
      expect(session.serverInfo.name).toBe('mcp-servers/everything');
      expect(statuses).toEqual([]);

      const echo = session.findTool('everything__echo');
      expect(echo).toMatchObject({ name: 'echo', wireName: 'everything__echo', annotations: { readOnlyHint: true } });
      expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
      for (const t of session.tools) expect(t.wireName).toMatch(/^everything__[a-zA-Z0-9_-]+$/);

      const outcome = await session.callTool('everything__echo', { message: 'hello' });
      expect(outcome).toMatchObject({ status: 'ok', content: 'Echo: hello', isError: false, notices: [] });

      const image = await session.callTool('get-tiny-image', {});
      expect(image.status).toBe('ok');
      expect(image.content).toMatch(/^Here's the image you requested:\n\[image image\/png, \d+ (B|KB)\]\nThe image above is the MCP logo\.$/);
      expect(image.notices).toEqual(['image blocks in tool results reach the model as one-line summaries']);

      const links = await session.callTool('everything__get-resource-links', { count: 2 });
      // Each link with its URI, name and description (server-everything: `Blob Resource 1`, `Resource 1: ...`).
      expect(links.content.split('\n').slice(1)).toEqual([
        expect.stringMatching(/^\[resource_link demo:\/\/resource\/\S+\] \w+ Resource 1: .+/),
        expect.stringMatching(/^\[resource_link demo:\/\/resource\/\S+\] \w+ Resource 2: .+/),
      ]);
      expect(links.notices).toEqual([]);

      const weather = await session.callTool('get-structured-content', { location: 'Chicago' });
      // Its text block is the same JSON, so the structured content is not repeated.
      expect(JSON.parse(weather.content)).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });

      const progress: unknown[] = [];
      const long = await session.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (p) => progress.push(p) });
      expect(long.content).toMatch(/^Long running operation completed/);
      // The report sent just before the result may be overtaken by it (the SDK drops it then).
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3 })).slice(0, progress.length));
    } finally {
      await session.close();
    }
    expect(session.status).toBe('closed');
  });
});

describe('a stdio server environment', () => {
  it('holds the safe basics and the config env, not the rest of aish', async () => {
    const session = await McpSession.connect('everything', everythingStdio({ GREETING: 'hi' }), options());
    try {
      const outcome = await session.callTool('get-env', {});
      const env = JSON.parse(outcome.content) as Record<string, string>;
      expect(env.GREETING).toBe('hi');
      expect(env.PATH).toBe(process.env.PATH);
      expect(outcome.content).not.toContain(SECRET);
      expect(env.AISH_MCP_TEST_SECRET).toBeUndefined();
    } finally {
      await session.close();
    }
  });

  it('of the HTTP servers the tests start is scrubbed too', async () => {
    const session = await McpSession.connect('everything', httpServer(`${streamable.origin}/mcp`), options());
    try {
      const outcome = await session.callTool('get-env', {});
      expect(outcome.status).toBe('ok');
      expect(outcome.content).not.toContain(SECRET);
    } finally {
      await session.close();
    }
  });
});
