// McpRegistry with real servers: parallel best-effort start-up, `:mcp connect` targets (URL or
// quoted command line, derived aliases, --token-env), list rows, the OpenAI tools array, dispatch
// by wire name, argument validation, disconnect and closeAll.

import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { McpConnectError } from '../../src/mcp/errors.js';
import { McpRegistry, type McpRegistryOptions } from '../../src/mcp/registry.js';
import {
  FIXTURE_SERVER,
  fixtureStdio,
  httpServer,
  refusedUrl,
  startFixture,
  stopAllServers,
  type RunningServer,
} from '../support/mcp-servers.js';

const TOKEN = 'registry-token-5e2c81';

let plain: RunningServer;
let authed: RunningServer;
const registries: McpRegistry[] = [];

beforeAll(async () => {
  [plain, authed] = await Promise.all([startFixture(), startFixture(['--token', TOKEN])]);
});

afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.closeAll()));
});

afterAll(async () => {
  await stopAllServers();
});

function registry(extra: Partial<McpRegistryOptions> = {}, statuses: string[] = []): McpRegistry {
  const r = new McpRegistry({ env: { REG_TOKEN: TOKEN }, clientVersion: '0.0.0-test', onStatus: (m) => statuses.push(m), ...extra });
  registries.push(r);
  return r;
}

describe('per-server timeout_ms', () => {
  it('overrides mcp.call_timeout_ms for that server only', async () => {
    const r = registry({ callTimeoutMs: 60_000 });
    expect(await r.connectAll({ quick: { ...fixtureStdio(), timeout_ms: 150 }, slow: fixtureStdio() })).toEqual([]);
    expect(await r.callTool('quick__stall', {})).toMatchObject({ status: 'error', content: '[aish] tool transport error: timed out after 150 ms' });
    // The other server keeps the general timeout: its stalled call is still running when cancelled.
    const controller = new AbortController();
    const slow = r.callTool('slow__stall', {}, { signal: controller.signal });
    expect(await r.callTool('slow__echo', { text: 'alive' })).toMatchObject({ content: 'echo: alive' });
    controller.abort();
    expect(await slow).toMatchObject({ status: 'cancelled' });
  });
});

describe('connectAll', () => {
  it('connects what it can and returns one failure per server that did not', async () => {
    const r = registry();
    const refused = await refusedUrl();
    const failures = await r.connectAll({
      web: httpServer(`${plain.origin}/mcp`),
      local: fixtureStdio(),
      dead: httpServer(refused),
      locked: httpServer(`${authed.origin}/mcp`),
    });
    expect(failures.map((f) => [f.alias, f.error.message])).toEqual([
      ['dead', `mcp dead: connection refused (${new URL(refused).host})`],
      ['locked', 'mcp locked: authentication failed (HTTP 401)'],
    ]);
    for (const f of failures) expect(f.error).toBeInstanceOf(McpConnectError);
    // Every configured server is listed; the ones that failed with their reason. Without OAuth a
    // 401 is an authentication failure, not a login to run.
    expect(r.list().map((row) => [row.alias, row.transport, row.status, row.reason])).toEqual([
      ['web', 'streamable-http', 'connected', undefined],
      ['local', 'stdio', 'connected', undefined],
      ['dead', 'streamable-http', 'failed', `connection refused (${new URL(refused).host})`],
      ['locked', 'streamable-http', 'failed', 'authentication failed (HTTP 401)'],
    ]);
    const web = r.list()[0]!;
    expect(web).toMatchObject({ target: `${plain.origin}/mcp`, server: 'aish-fixture 1.0.0' });
    expect(web.toolCount).toBeGreaterThan(10);
    expect(r.get('dead')).toBeUndefined();
  });

  it('attempts every server at once', async () => {
    const seen: string[] = [];
    const silent = await Promise.all(
      ['one', 'two', 'three'].map(async (name) => {
        const server = net.createServer(() => seen.push(name));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return server;
      }),
    );
    try {
      const all = new Promise<void>((resolve) => {
        for (const s of silent) s.on('connection', () => seen.length === 3 && resolve());
      });
      const controller = new AbortController();
      const r = registry({ connectTimeoutMs: 15_000 });
      const servers = Object.fromEntries(
        silent.map((s, i) => [`s${i}`, httpServer(`http://127.0.0.1:${(s.address() as net.AddressInfo).port}/mcp`)]),
      );
      const pending = r.connectAll(servers, { signal: controller.signal });
      // Each server is contacted before any of the attempts has ended.
      await all;
      controller.abort();
      const failures = await pending;
      expect(failures.map((f) => f.error.message)).toEqual(['mcp s0: cancelled', 'mcp s1: cancelled', 'mcp s2: cancelled']);
    } finally {
      for (const s of silent) s.close();
    }
  });

  it('rejects aliases that would not split', async () => {
    const failures = await registry().connectAll({ bad_: httpServer(`${plain.origin}/mcp`) });
    expect(failures[0]?.error.message).toBe('mcp bad_: alias "bad_" may not end with "_"');
  });
});

describe('connect (:mcp connect)', () => {
  it('a port fetch refuses to use is named as such, not as a failed request', async () => {
    // 6000 (X11) is a "bad port" of the Fetch standard: nothing is sent, whatever listens there.
    await expect(registry().connect('http://127.0.0.1:6000/mcp', 'x11')).rejects.toThrow(
      'mcp x11: port 6000 is one fetch refuses to use (a "bad port" of the Fetch standard); run the server on another port',
    );
  });

  it('derives aliases from the URL host, made unique', async () => {
    const r = registry();
    expect((await r.connect(`${plain.origin}/mcp`)).alias).toBe('local');
    expect((await r.connect(`${plain.origin}/mcp`)).alias).toBe('local-2');
    expect((await r.connect(`${plain.origin}/mcp`, 'mine')).alias).toBe('mine');
    await expect(r.connect(`${plain.origin}/mcp`, 'mine')).rejects.toThrow(
      new UsageError('alias "mine" is already connected (:mcp disconnect mine first, or pick another alias)'),
    );
  });

  it('takes --token-env for HTTP servers only', async () => {
    const r = registry();
    const session = await r.connect(`${authed.origin}/mcp`, 'authed', { tokenEnv: 'REG_TOKEN' });
    expect(session.status).toBe('connected');
    await expect(r.connect('node server.mjs', undefined, { tokenEnv: 'REG_TOKEN' })).rejects.toBeInstanceOf(UsageError);
  });

  it('runs a quoted command line as a stdio server', async () => {
    const r = registry();
    const session = await r.connect(`"${process.execPath}" '${FIXTURE_SERVER}' stdio`);
    expect(session.transport).toBe('stdio');
    expect(session.alias).toBe('mcp');
    expect((await r.callTool('mcp__echo', { text: 'via stdio' })).content).toBe('echo: via stdio');
    await expect(r.connect('node "unterminated')).rejects.toThrow(new UsageError('unterminated double quote in command line'));
    await expect(r.connect('   ')).rejects.toBeInstanceOf(UsageError);
    await expect(r.connect(`${plain.origin}/mcp`, 'a__b')).rejects.toThrow(new UsageError('alias "a__b" may not contain "__"'));
  });
});

describe('tools', () => {
  it('offers no tools when nothing is connected', () => {
    expect(registry().toolDefinitions()).toEqual([]);
  });

  it('builds the OpenAI tools array, finds and calls by wire name', async () => {
    const r = registry();
    await r.connectAll({ fx: httpServer(`${plain.origin}/mcp`) });
    const defs = r.toolDefinitions();
    expect(defs).toContainEqual({
      type: 'function',
      function: {
        name: 'fx__sum',
        description: 'Adds a and b',
        parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      },
    });
    for (const d of defs) expect(d.function.name).toMatch(/^fx__[a-zA-Z0-9_-]+$/);
    expect(r.allTools()).toHaveLength(defs.length);
    expect(r.findTool('fx__sum')?.tool.name).toBe('sum');
    expect(r.findTool('fx__nope')).toBeUndefined();
    expect(await r.callTool('fx__sum', { a: 2, b: 3 })).toMatchObject({ status: 'ok', content: '5' });
    expect(await r.callTool('other__sum', {})).toEqual({
      status: 'error',
      content: '[aish] tool dispatch failed: no tool named other__sum',
      display: 'dispatch failed: no tool named other__sum',
      notices: [],
      alert: 'tool dispatch failed: no tool named other__sum',
    });
  });

  it('validates arguments against the input schema', async () => {
    const statuses: string[] = [];
    const r = registry({}, statuses);
    await r.connectAll({ fx: httpServer(`${plain.origin}/mcp`) });
    expect(r.validateArguments('fx__sum', { a: 1, b: 2 })).toEqual([]);
    expect(r.validateArguments('fx__sum', { a: '1' })).toEqual(['/b: is required', '/a: must be number']);
    expect(r.validateArguments('fx__pick', { colour: 'blue', x: 1 })).toEqual([
      '/x: is not an allowed property',
      '/colour: must be one of "red", "green"',
    ]);
    expect(r.validateArguments('fx__unknown', {})).toEqual([]);
    expect(r.validateArguments('fx__bad_schema', { a: 1 })).toEqual([]);
    expect(r.validateArguments('fx__bad_schema', { a: 1 })).toEqual([]);
    expect(statuses).toEqual([expect.stringMatching(/^mcp fx: cannot check arguments of bad_schema \(.+\); the server will$/)]);
  });

  it('follows list_changed and tells the caller', async () => {
    const changed: string[] = [];
    let notify: () => void = () => {};
    const seen = new Promise<void>((resolve) => {
      notify = resolve;
    });
    const r = registry({
      onToolsChanged: (alias) => {
        changed.push(alias);
        if (r.findTool('fx__later')) notify();
      },
    });
    await r.connectAll({ fx: fixtureStdio() });
    await r.callTool('fx__add_tool', { name: 'later' });
    await seen;
    expect(r.toolDefinitions().map((d) => d.function.name)).toContain('fx__later');
    expect(changed[0]).toBe('fx');
  });

  it('drops the tools of a server that went away, and lets it be reconnected', async () => {
    const r = registry();
    await r.connectAll({ fx: fixtureStdio() });
    const outcome = await r.callTool('fx__die', {});
    expect(outcome.status).toBe('error');
    expect(r.list()[0]).toMatchObject({ alias: 'fx', status: 'disconnected', toolCount: 0 });
    expect(r.toolDefinitions()).toEqual([]);
    expect((await r.callTool('fx__echo', { text: 'x' })).content).toBe('[aish] tool dispatch failed: no tool named fx__echo');
    const again = await r.connect(`"${process.execPath}" "${FIXTURE_SERVER}" stdio`, 'fx');
    expect(again.status).toBe('connected');
    expect(r.list()).toHaveLength(1);
  });

  it('disconnect and closeAll close sessions', async () => {
    const r = registry();
    await r.connectAll({ a: httpServer(`${plain.origin}/mcp`), b: fixtureStdio() });
    const a = r.get('a')!;
    expect(await r.disconnect('a')).toBe(true);
    expect(await r.disconnect('a')).toBe(false);
    expect(a.status).toBe('closed');
    // A configured server stays listed, closed, so `:mcp connect a` can bring it back.
    expect(r.list().map((row) => [row.alias, row.status])).toEqual([
      ['a', 'closed'],
      ['b', 'connected'],
    ]);
    const b = r.get('b')!;
    await r.closeAll();
    expect(b.status).toBe('closed');
    expect(r.list().map((row) => row.status)).toEqual(['closed', 'closed']);
    expect((await r.connect('a')).status).toBe('connected');
    expect(r.list().map((row) => [row.alias, row.status])).toEqual([
      ['a', 'connected'],
      ['b', 'closed'],
    ]);
  });
});
