// McpSession against the fixture server (test/fixtures/mcp/server.mjs) over streamable HTTP and
// stdio: auth precedence and the 401 message, SSE fallback only on 400/404/405, the protocol
// mismatch status, result flattening, timeouts, Ctrl-C, a server dying mid-call, JSON-RPC errors,
// list_changed, unsafe tool names, connect failures and a quiet close.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpConnectError } from '../../src/mcp/errors.js';
import { OAuthStore } from '../../src/mcp/oauth-store.js';
import { McpSession, type McpConnectOptions, type McpTool } from '../../src/mcp/session.js';
import {
  FIXTURE_SERVER,
  fixtureStats,
  fixtureStdio,
  PROJECT_ROOT,
  httpServer,
  refusedUrl,
  startFixture,
  stopAllServers,
  type RunningServer,
} from '../support/mcp-servers.js';
import { gone, isGone } from '../support/processes.js';

const TOKEN = 'tok-3b1f7e29c4d8a650';

let plain: RunningServer;
let authed: RunningServer;

beforeAll(async () => {
  [plain, authed] = await Promise.all([startFixture(), startFixture(['--token', TOKEN])]);
});

afterAll(async () => {
  await stopAllServers();
});

function options(extra: Partial<McpConnectOptions> = {}, statuses: string[] = []): McpConnectOptions {
  return { env: {}, clientVersion: '0.0.0-test', onStatus: (m) => statuses.push(m), ...extra };
}

/** Connects, runs `body`, always closes. */
async function withSession<T>(
  alias: string,
  cfg: Parameters<typeof McpSession.connect>[1],
  body: (s: McpSession) => Promise<T>,
  opts: McpConnectOptions = options(),
): Promise<T> {
  const session = await McpSession.connect(alias, cfg, opts);
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}

async function connectError(alias: string, cfg: Parameters<typeof McpSession.connect>[1], opts = options()): Promise<McpConnectError> {
  const err = await McpSession.connect(alias, cfg, opts).then(
    async (s) => {
      await s.close();
      throw new Error('connected unexpectedly');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpConnectError);
  return err as McpConnectError;
}

describe('auth', () => {
  it('sends auth_token as one Bearer header, preferred over auth_env', async () => {
    const cfg = httpServer(`${authed.origin}/mcp`, { auth_token: TOKEN, auth_env: 'FIXTURE_TOKEN' });
    const header = await withSession('authed', cfg, async (s) => (await s.callTool('auth_header', {})).content, options({ env: { FIXTURE_TOKEN: 'wrong-token-value' } }));
    expect(JSON.parse(header)).toEqual({ authorization: `Bearer ${TOKEN}` });
  });

  it('reads the token from auth_env when there is no auth_token', async () => {
    const cfg = httpServer(`${authed.origin}/mcp`, { auth_env: 'FIXTURE_TOKEN' });
    const outcome = await withSession('authed', cfg, (s) => s.callTool('echo', { text: 'in' }), options({ env: { FIXTURE_TOKEN: TOKEN } }));
    expect(outcome.content).toBe('echo: in');
  });

  it('a wrong auth_token loses even when auth_env holds the right one: 401 named, token not quoted', async () => {
    const wrong = 'wrong-literal-token-1234';
    const cfg = httpServer(`${authed.origin}/mcp`, { auth_token: wrong, auth_env: 'FIXTURE_TOKEN' });
    const err = await connectError('authed', cfg, options({ env: { FIXTURE_TOKEN: TOKEN } }));
    expect(err.message).toBe('mcp authed: authentication failed (HTTP 401)');
    expect(err.alias).toBe('authed');
    expect(err.code).toBe('mcp');
    expect(JSON.stringify({ message: err.message, stack: err.stack })).not.toContain(wrong);
  });

  it('no token at all: 401, with a hint when auth_env is unset', async () => {
    const statuses: string[] = [];
    const err = await connectError('authed', httpServer(`${authed.origin}/mcp`, { auth_env: 'UNSET_VAR' }), options({}, statuses));
    expect(err.message).toBe('mcp authed: authentication failed (HTTP 401) (UNSET_VAR is not set)');
    expect(statuses).toEqual(['mcp authed: UNSET_VAR is not set; connecting without a token']);
    const bare = await connectError('authed', httpServer(`${authed.origin}/mcp`));
    expect(bare.message).toBe('mcp authed: authentication failed (HTTP 401)');
  });
});

describe('a Bearer-only server (401, no OAuth metadata) where a login may start', () => {
  const NO_OAUTH = 'mcp authed: authentication failed (HTTP 401); the server offers no OAuth login: pass its token with --token-env VAR (the variable that holds it), or auth_env in the config';

  it.each([
    ['nothing kept', () => new OAuthStore(undefined)],
    ['a discovery kept by an older aish', () => {
      const store = new OAuthStore(undefined);
      store.update(`${authed.origin}/mcp`, { discovery: { authorizationServerUrl: `${authed.origin}/` } });
      return store;
    }],
  ])('says authentication failed and how to pass a token, with no login (%s)', async (_label, makeStore) => {
    const opened: string[] = [];
    const store = makeStore();
    const err = await connectError('authed', httpServer(`${authed.origin}/mcp`), options({ oauth: { store, openUrl: async (url) => void opened.push(url.href) } }));
    expect(err.message).toBe(NO_OAUTH);
    expect(opened).toEqual([]);
    // No client was registered at a guessed /register, and no discovery without metadata kept.
    expect(store.get(`${authed.origin}/mcp`).client).toBeUndefined();
  });
});

describe('auth over legacy SSE', () => {
  it('sends the token on the SSE stream and its POSTs, after a fallback', async () => {
    const server = await startFixture(['--token', TOKEN, '--post-status', '404']);
    try {
      await withSession('legacy', httpServer(`${server.origin}/mcp`, { auth_token: TOKEN }), async (s) => {
        expect(s.transport).toBe('sse');
        expect((await s.callTool('echo', { text: 'sse' })).content).toBe('echo: sse');
      });
      const stats = await fixtureStats(server);
      expect(stats.legacyGet).toBe(1);
      expect(new Set(stats.authorization)).toEqual(new Set([`Bearer ${TOKEN}`]));
    } finally {
      await server.stop();
    }
  });

  it('reports 401 on the SSE stream as an auth failure', async () => {
    const server = await startFixture(['--token', TOKEN, '--post-status', '404']);
    try {
      const err = await connectError('legacy', httpServer(`${server.origin}/mcp`, { transport: 'sse', auth_token: 'not-the-token' }));
      expect(err.message).toBe('mcp legacy: authentication failed (HTTP 401)');
    } finally {
      await server.stop();
    }
  });

  it('refuses credentials in the URL', async () => {
    const err = await connectError('creds', httpServer(`http://user:pw@127.0.0.1:${authed.port}/mcp`));
    expect(err.message).toBe('mcp creds: credentials in the URL are not supported; use auth_token or auth_env');
  });
});

describe('a protocol version the SDK does not know', () => {
  it('is the one sent in the mcp-protocol-version header afterwards: the server chose it', async () => {
    const server = await startFixture(['--protocol', '2026-01-01']);
    try {
      await withSession('new', httpServer(`${server.origin}/mcp`), async (s) => {
        expect((await s.callTool('echo', { text: 'hi' })).content).toBe('echo: hi');
      });
      const { protocolHeaders } = await fixtureStats(server);
      expect(protocolHeaders.length).toBeGreaterThan(0);
      expect(new Set(protocolHeaders)).toEqual(new Set(['2026-01-01']));
    } finally {
      await server.stop();
    }
  });
});

describe('transport selection', () => {
  it.each([400, 404, 405])('falls back to legacy SSE when the streamable POST gets %i', async (status) => {
    const server = await startFixture(['--post-status', String(status)]);
    try {
      await withSession('legacy', httpServer(`${server.origin}/mcp`), async (s) => {
        expect(s.transport).toBe('sse');
        expect((await s.callTool('echo', { text: 'old' })).content).toBe('echo: old');
      });
      const stats = await fixtureStats(server);
      expect(stats.mcpPost).toBe(1);
      expect(stats.legacyGet).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it.each([
    [401, 'mcp x: authentication failed (HTTP 401)'],
    [403, 'mcp x: access denied (HTTP 403)'],
    [500, 'mcp x: server error (HTTP 500)'],
    [502, 'mcp x: server error (HTTP 502)'],
  ])('does not fall back on HTTP %i', async (status, message) => {
    const server = await startFixture(['--post-status', String(status)]);
    try {
      const err = await connectError('x', httpServer(`${server.origin}/mcp`));
      expect(err.message).toBe(message);
      expect((await fixtureStats(server)).legacyGet).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('does not fall back when the connection is refused', async () => {
    const url = await refusedUrl();
    const err = await connectError('gone', httpServer(url));
    expect(err.message).toBe(`mcp gone: connection refused (${new URL(url).host})`);
  });

  it('names a host that does not resolve', async () => {
    const err = await connectError('nohost', httpServer('http://nonexistent.invalid/mcp'));
    expect(err.message).toBe('mcp nohost: host not found (nonexistent.invalid)');
  });

  it("transport: 'http' never falls back", async () => {
    const server = await startFixture(['--post-status', '404']);
    try {
      const err = await connectError('x', httpServer(`${server.origin}/mcp`, { transport: 'http' }));
      expect(err.message).toBe('mcp x: no MCP endpoint at this URL (HTTP 404)');
      expect((await fixtureStats(server)).legacyGet).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('says what both attempts got when the fallback fails too', async () => {
    const server = await startFixture(['--post-status', '405', '--token', TOKEN]);
    try {
      // POST and GET both need the token: 401 on the first attempt means no fallback at all.
      expect((await connectError('x', httpServer(`${server.origin}/mcp`))).message).toBe('mcp x: authentication failed (HTTP 401)');
    } finally {
      await server.stop();
    }
    const err = await connectError('x', httpServer(`${plain.origin}/elsewhere`));
    expect(err.message).toBe('mcp x: streamable HTTP answered HTTP 404, legacy SSE: no MCP endpoint at this URL (HTTP 404)');
  });

  it('transport: sse forces legacy SSE', async () => {
    const server = await startFixture(['--post-status', '404']);
    try {
      await withSession('legacy', httpServer(`${server.origin}/mcp`, { transport: 'sse' }), async (s) => {
        expect(s.transport).toBe('sse');
      });
      expect((await fixtureStats(server)).mcpPost).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('times out a stdio server that never answers: nothing to say about a connection', async () => {
    const err = await connectError('mute', { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: {} }, options({ timeoutMs: 300 }));
    expect(err.message).toBe('mcp mute: no answer within 300 ms (connect_timeout_ms sets the limit)');
  });

  it('times out an HTTP server that took the connection and never answers, saying so', async () => {
    const net = await import('node:net');
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as import('node:net').AddressInfo).port;
      const err = await connectError('silent', httpServer(`http://127.0.0.1:${port}/mcp`), options({ timeoutMs: 300 }));
      expect(err.message).toBe('mcp silent: the server accepted the connection but did not answer within 300 ms (connect_timeout_ms sets the limit)');
    } finally {
      silent.close();
    }
  });
});

describe.each([
  { mode: 'streamable HTTP', cfg: (flags: string[] = []) => startFixture(flags).then((s) => httpServer(`${s.origin}/mcp`)) },
  { mode: 'stdio', cfg: async (flags: string[] = []) => fixtureStdio(flags) },
])('fixture over $mode', ({ cfg }) => {
  // 2026-01-01 is newer than any the SDK knows: its client alone would refuse to connect. Older
  // versions it speaks (2024-11-05, 2025-03-26: the seeds' lmcp fleet) are ordinary negotiation.
  it.each([
    ['2024-11-05', false],
    ['2025-03-26', false],
    ['2026-01-01', true],
  ] as const)('connects on a protocol version other than the one offered (%s); says so only for one the client does not know (%s)', async (version, said) => {
    const statuses: string[] = [];
    await withSession(
      'old',
      await cfg(['--protocol', version]),
      async (s) => {
        expect(s.protocolVersion).toBe(version);
        expect((await s.callTool('echo', { text: 'still works' })).content).toBe('echo: still works');
      },
      options({}, statuses),
    );
    expect(statuses).toEqual(said ? [`mcp old: protocol version mismatch (sent ${LATEST_PROTOCOL_VERSION}, got ${version}); proceeding`] : []);
  });

  it('flattens results: isError is advisory, JSON-RPC errors are dispatch failures', async () => {
    await withSession('fx', await cfg(), async (s) => {
      expect(await s.callTool('soft_error', {})).toEqual({
        status: 'ok',
        content: 'Error: disk on fire',
        display: 'tool reported an error: Error: disk on fire',
        isError: true,
        notices: [],
      });
      expect(await s.callTool('fx__quiet_error', {})).toMatchObject({ status: 'ok', isError: false, content: 'Error: file not found (but isError is false)' });
      const rpc = await s.callTool('rpc_error', {});
      expect(rpc.status).toBe('error');
      expect(rpc.content).toBe('[aish] tool dispatch failed: widget 42 does not exist (JSON-RPC error -32602)');
      expect(rpc.display).toBe('dispatch failed: widget 42 does not exist (JSON-RPC error -32602)');
    });
  });

  it('summarises image and audio blocks, flattens text resources and links, and adds structuredContent', async () => {
    await withSession('fx', await cfg(), async (s) => {
      const outcome = await s.callTool('media', {});
      expect(outcome.content).toBe(
        ['here is media', '[image image/png, 5 KB]', '[audio audio/wav, 300 B]', '[resource demo://x (text/plain)]', 'embedded', '[resource_link demo://y] y', 'end of media'].join('\n'),
      );
      expect(outcome.notices).toEqual([
        'image blocks in tool results reach the model as one-line summaries',
        'audio blocks in tool results reach the model as one-line summaries',
      ]);
      expect((await s.callTool('structured', {})).content).toBe('{"answer":42}');
      const links = await s.callTool('links', {});
      expect(links.content).toBe(
        ['[resource_link file:///srv/report.md] report.md: The weekly report', '[resource demo://notes (text/plain)]', 'line one', 'line two'].join('\n'),
      );
      expect(links.notices).toEqual([]);
    });
  });

  it('checks structuredContent against the outputSchema and gives it to the model beside the text', async () => {
    await withSession('fx', await cfg(), async (s) => {
      expect(await s.callTool('weather', {})).toMatchObject({ status: 'ok', content: 'Mild today.\n[structured content] {"celsius":21.5}' });
      const bad = await s.callTool('bad_weather', {});
      expect(bad.status).toBe('error');
      expect(bad.content).toMatch(/^\[aish\] tool result rejected: Structured content does not match the tool's output schema: .*celsius/);
      expect(bad.alert).toMatch(/^tool result rejected: /);
    });
  });

  it('reports progress to onProgress and shows log messages of warning and above, once each', async () => {
    const lines: string[] = [];
    await withSession('fx', await cfg(), async (s) => {
      const seen: unknown[] = [];
      const outcome = await s.callTool('progress', { n: 3, ms: 10 }, { onProgress: (p) => seen.push(p) });
      expect(outcome.content).toBe('done after 3 steps');
      // The report sent just before the result may be overtaken by it (the SDK drops it then).
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })).slice(0, seen.length));
      expect((await s.callTool('progress', { n: 2, ms: 10 })).content).toBe('done without a progress token');
      await s.callTool('log', { levels: ['debug', 'info', 'notice', 'warning', 'error', 'emergency'] });
      await s.callTool('log', { levels: ['warning'], data: { disk: 'full', free: 0 } });
    }, { ...options(), onLog: (line) => lines.push(line) });
    expect(lines).toEqual([
      'mcp fx warning (fixture): warning from the fixture',
      'mcp fx error (fixture): error from the fixture',
      'mcp fx emergency (fixture): emergency from the fixture',
      'mcp fx warning (fixture): {"disk":"full","free":0}',
    ]);
  });

  it('cuts results over maxResultChars, keeping head and tail', async () => {
    await withSession('fx', await cfg(), async (s) => {
      const outcome = await s.callTool('big', { n: 1000 }, { maxResultChars: 100 });
      expect(outcome.content.startsWith('HEAD')).toBe(true);
      expect(outcome.content.endsWith('TAIL')).toBe(true);
      expect(outcome.content).toContain('\n[... 900 chars cut by aish ...]\n');
      const small = await s.callTool('big', { n: 100 }, { maxResultChars: 100 });
      expect(small.content).toHaveLength(100);
    }, options({ maxResultChars: 50 }));
  });

  it('times a call out as a transport error', async () => {
    await withSession('fx', await cfg(), async (s) => {
      const outcome = await s.callTool('stall', {}, { timeoutMs: 200 });
      expect(outcome).toMatchObject({ status: 'error', content: '[aish] tool transport error: timed out after 200 ms' });
      expect((await s.callTool('echo', { text: 'after' })).content).toBe('echo: after');
    });
  });

  it('resolves cancelled quickly when the signal aborts, and tells the server', async () => {
    await withSession('fx', await cfg(), async (s) => {
      const controller = new AbortController();
      const pending = s.callTool('stall', {}, { signal: controller.signal });
      // The stall tool never answers: resolving at all is the cancellation working.
      controller.abort();
      const outcome = await pending;
      expect(outcome).toEqual({ status: 'cancelled', content: '[aish] tool call cancelled by user (Ctrl-C)', display: 'cancelled', notices: [] });
      expect(await s.callTool('echo', { text: 'x' }, { signal: controller.signal })).toMatchObject({ status: 'cancelled' });
      if (s.transport === 'stdio') expect((await s.callTool('cancellations', {})).content).toBe('1');
    });
  });

  it.each(['die', 'die_streaming'])('a server that dies mid-call (%s) gives a transport error, not a hang', async (tool) => {
    const session = await McpSession.connect('fx', await cfg(), options());
    try {
      const outcome = await session.callTool(tool, {}, { timeoutMs: 15_000 });
      expect(outcome.status).toBe('error');
      if (session.transport === 'stdio') {
        expect(outcome.content).toMatch(/^\[aish\] tool transport error: the server process exited: fixture: exiting in the middle of a (streamed )?call$/);
      } else {
        expect(outcome.content).toMatch(/^\[aish\] tool transport error: the server went away: (connection refused \(127\.0\.0\.1:\d+\)|the server closed the connection)$/);
      }
      expect(session.status).toBe('disconnected');
      expect((await session.callTool('echo', { text: 'x' })).content).toMatch(/^\[aish\] tool transport error: mcp fx is disconnected/);
    } finally {
      await session.close();
    }
  });

  it('maps unsafe tool names to safe wire names and calls the original', async () => {
    await withSession('fx', await cfg(), async (s) => {
      const byName = new Map(s.tools.map((t) => [t.name, t.wireName]));
      expect(byName.get('files_read')).toBe('fx__files_read');
      expect(byName.get('files.read')).toMatch(/^fx__files_read_[0-9a-f]{8}$/);
      expect(byName.get('read file')).toBe('fx__read_file');
      const long = [...byName.keys()].find((n) => n.length > 128)!;
      expect(byName.get(long)!.length).toBe(128);
      for (const t of s.tools) expect(t.wireName).toMatch(/^[a-zA-Z0-9_-]{1,128}$/);
      for (const name of ['files.read', 'files_read', 'read file', long]) {
        expect((await s.callTool(byName.get(name)!, {})).content).toBe(`called ${name}`);
      }
    });
  });

  it('refetches the tool list on list_changed', async () => {
    await withSession('fx', await cfg(), async (s) => {
      const changed = new Promise<readonly McpTool[]>((resolve) => {
        s.onToolsChanged = resolve;
      });
      expect(s.findTool('fx__fresh')).toBeUndefined();
      await s.callTool('add_tool', { name: 'fresh' });
      const tools = await changed;
      expect(tools.map((t) => t.wireName)).toContain('fx__fresh');
      expect((await s.callTool('fx__fresh', {})).content).toBe('called fresh');
    });
  });
});

describe('stdio start-up', () => {
  it('a server that exits at start-up shows the tail of its stderr; the reason keeps its last line', async () => {
    const err = await connectError('broken', fixtureStdio(['--fail-start']));
    expect(err.message).toBe(
      'mcp broken: the server exited during start-up; its stderr ended with:\n  fixture: starting in stdio mode\n  fixture: fatal: no such database /nonexistent/db.sqlite',
    );
    expect(err.reason).toBe('the server exited during start-up: fixture: fatal: no such database /nonexistent/db.sqlite');
    expect(err.stderrTail).toContain('fixture: starting in stdio mode');
  });

  it('a server that said one line before it exited keeps the one-line message', async () => {
    const err = await connectError('terse', { command: '/bin/sh', args: ['-c', 'echo "terse: no config" >&2; exit 1'], env: {} });
    expect(err.message).toBe('mcp terse: the server exited during start-up: terse: no config');
  });

  it('a command that does not exist', async () => {
    const err = await connectError('nope', { command: 'aish-no-such-command-xyz', args: [], env: {} });
    expect(err.message).toBe('mcp nope: command not found: aish-no-such-command-xyz');
  });

  it('keeps server stderr out of the terminal, in a tail', async () => {
    await withSession('fx', fixtureStdio(), async (s) => {
      expect(s.stderrTail).toContain('fixture: starting in stdio mode');
      expect(s.target).toMatch(/server\.mjs stdio$/);
    });
  });
});

describe('a result over the 10 MiB a stdio message may hold', () => {
  it('says the result was too large, and the server stays connected for the next call', async () => {
    await withSession('fx', fixtureStdio(), async (s) => {
      const outcome = await s.callTool('big', { n: 11 * 1024 * 1024 });
      expect(outcome.status).toBe('error');
      expect(outcome.content).toMatch(
        /^\[aish\] tool result too large: the server sent 11\.0 MB in one message, more than the 10\.0 MB aish reads over stdio; nothing of it was kept, the server stays connected\. Ask for less/,
      );
      expect(s.status).toBe('connected');
      expect((await s.callTool('echo', { text: 'still here' })).content).toBe('echo: still here');
    });
  });
});

describe('close', () => {
  it('ends the whole process group: a server behind a launcher that forwards no signal and ignores EOF', async () => {
    const pidFile = path.join(mkdtempSync(path.join(tmpdir(), 'aish-group-')), 'pids');
    const wrapper = path.join(PROJECT_ROOT, 'test', 'fixtures', 'mcp', 'wrapper.mjs');
    const session = await McpSession.connect('fx', { command: process.execPath, args: [wrapper, pidFile, FIXTURE_SERVER, 'stdio', '--linger'], env: {} }, options());
    const pids = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    try {
      expect(pids.every((pid) => !isGone(pid))).toBe(true);
      await session.close();
      // close resolves once the group is gone (or SIGKILLed): at most zombies are left to reap.
      await gone(...pids);
    } finally {
      for (const pid of pids) if (!isGone(pid)) process.kill(pid, 'SIGKILL');
      rmSync(path.dirname(pidFile), { recursive: true, force: true });
    }
  });

  it('terminates a streamable-HTTP session, is idempotent and prints nothing', async () => {
    const written: string[] = [];
    const original = { out: process.stdout.write, err: process.stderr.write };
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
    try {
      const before = (await fixtureStats(plain)).deletes;
      const http = await McpSession.connect('fx', httpServer(`${plain.origin}/mcp`), options());
      const stdio = await McpSession.connect('fx', fixtureStdio(), options());
      await http.callTool('echo', { text: 'x' });
      const pending = stdio.callTool('stall', {});
      await Promise.all([http.close(), http.close(), stdio.close()]);
      expect(await pending).toMatchObject({ status: 'error', content: '[aish] tool transport error: the session was closed' });
      await stdio.close();
      expect((await fixtureStats(plain)).deletes).toBe(before + 1);
      expect(await http.callTool('echo', { text: 'x' })).toMatchObject({ status: 'error', content: '[aish] tool transport error: mcp fx is closed' });
    } finally {
      process.stdout.write = original.out;
      process.stderr.write = original.err;
    }
    expect(written).toEqual([]);
  });
});
