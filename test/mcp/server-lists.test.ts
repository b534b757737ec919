// What a session asks a server for (issue 27): only what its capabilities announce. A server with
// resources and prompts but no tools (the fixture's --no-tools --library) connects over stdio and
// streamable HTTP; its lists are cached and follow list_changed; reads, prompts and completions
// resolve values, never rejections. server-everything's lists as the installed version has them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpSession, type McpConnectOptions } from '../../src/mcp/session.js';
import { resourceParts } from '../../src/mcp/server-content.js';
import { everythingStdio, fixtureStdio, httpServer, startFixture, stopAllServers, type RunningServer } from '../support/mcp-servers.js';

let library: RunningServer;

beforeAll(async () => {
  library = await startFixture(['--no-tools', '--library']);
});
afterAll(async () => {
  await stopAllServers();
});

const options = (statuses: string[] = []): McpConnectOptions => ({ env: {}, clientVersion: '0.0.0-test', onStatus: (m) => statuses.push(m) });

async function withSession<T>(cfg: Parameters<typeof McpSession.connect>[1], body: (s: McpSession) => Promise<T>, statuses: string[] = []): Promise<T> {
  const session = await McpSession.connect('lib', cfg, options(statuses));
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}

describe.each([
  ['stdio', () => fixtureStdio(['--no-tools', '--library'])],
  ['streamable HTTP', () => httpServer(`${library.origin}/mcp`)],
])('a server without tools, over %s', (_name, cfg) => {
  it('connects, is never asked for tools, and lists its resources, templates and prompts', async () => {
    const statuses: string[] = [];
    await withSession(
      cfg(),
      async (s) => {
        expect(s.tools).toEqual([]);
        await s.lists.ready();
        expect(s.lists.resources.map((r) => r.uri)).toContain('fixture://notes/readme.md');
        expect(s.lists.resources.find((r) => r.uri === 'fixture://image.png')).toMatchObject({ mimeType: 'image/png', size: 12 * 1024 });
        expect(s.lists.templates).toEqual([{ uriTemplate: 'fixture://items/{id}', name: 'item', description: 'One item by id' }]);
        expect(s.lists.prompts.find((p) => p.name === 'greet')?.arguments).toEqual([
          { name: 'name', description: 'Who', required: true },
          { name: 'style', description: 'How', required: false },
        ]);
      },
      statuses,
    );
    expect(statuses).toEqual([]);
  });

  it('reads text, summarises a blob, and reports a failing or missing resource as a reason', async () => {
    await withSession(cfg(), async (s) => {
      const text = await s.readResource('fixture://items/7');
      expect(text.ok && resourceParts(text.value)).toEqual([{ uri: 'fixture://items/7', mimeType: 'text/plain', text: 'item number 7' }]);
      const blob = await s.readResource('fixture://image.png');
      expect(blob.ok && resourceParts(blob.value)).toEqual([{ uri: 'fixture://image.png', mimeType: 'image/png', summary: '[blob image/png, 12 KB]' }]);
      expect(await s.readResource('fixture://failing')).toEqual({ ok: false, reason: 'disk on fire (JSON-RPC error -32603)' });
      expect(await s.readResource('fixture://nope')).toEqual({ ok: false, reason: 'Resource not found: fixture://nope (JSON-RPC error -32002)' });
      const aborted = new AbortController();
      aborted.abort();
      expect(await s.readResource('fixture://items/1', aborted.signal)).toMatchObject({ ok: false, cancelled: true });
    });
  });

  it('gets a prompt and completes its argument from the server', async () => {
    await withSession(cfg(), async (s) => {
      const got = await s.getPrompt('greet', { name: 'Ada' });
      expect(got.ok && got.value.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
      expect(await s.completeArgument('greet', 'name', 'Al', {})).toEqual(['Alice', 'Alan']);
      expect(await s.getPrompt('nope', {})).toEqual({ ok: false, reason: 'Prompt nope not found (JSON-RPC error -32602)' });
    });
  });

  it('follows list_changed: a resource and a prompt added at run time appear in the cached lists', async () => {
    await withSession(cfg(), async (s) => {
      await s.lists.ready();
      expect(s.lists.resources.map((r) => r.uri)).not.toContain('fixture://added.txt');
      await s.readResource('fixture://add-more');
      // The notices travel apart from the answer over HTTP: wait for the lists to change.
      await expect.poll(async () => (await s.lists.ready(), s.lists.resources.map((r) => r.uri))).toContain('fixture://added.txt');
      await expect.poll(async () => (await s.lists.ready(), s.lists.prompts.map((p) => p.name))).toContain('added-prompt');
    });
  });
});

describe('a server with tools only', () => {
  it('is never asked for resources or prompts', async () => {
    await withSession(fixtureStdio(), async (s) => {
      expect(s.tools.length).toBeGreaterThan(0);
      expect(s.lists.offersResources).toBe(false);
      expect(s.lists.offersPrompts).toBe(false);
      expect(await s.readResource('fixture://items/1')).toEqual({ ok: false, reason: 'mcp lib offers no resources' });
      expect(await s.getPrompt('greet', {})).toEqual({ ok: false, reason: 'mcp lib offers no prompts' });
    });
  });
});

describe('server-everything (the installed version)', () => {
  it('offers the static documents, the dynamic templates and the prompts the tests use', async () => {
    await withSession(everythingStdio(), async (s) => {
      await s.lists.ready();
      expect(s.lists.resources.map((r) => r.uri)).toContain('demo://resource/static/document/architecture.md');
      expect(s.lists.templates.map((t) => t.uriTemplate)).toEqual(expect.arrayContaining(['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}']));
      expect(s.lists.prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']));
      expect(await s.completeArgument('completable-prompt', 'department', 'Eng', {})).toEqual(['Engineering']);
    });
  });
});
