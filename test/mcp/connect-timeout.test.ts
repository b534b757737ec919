// How long a connect may take (issue 36): a server's connect_timeout_ms, else a minute for a
// package launcher (npx, uvx, pnpm dlx, bunx), which may fetch the server first, else 10 s. A
// server that starts slower than the usual limit (the fixture behind a wait) fails by default and
// connects with its own limit or behind a launcher, and a status line says it is still starting.
// The registry's usual limit is lowered to 1 s for that, so the test does not wait out 10 s.

import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTimeoutOf } from '../../src/mcp/connect-timeout.js';
import { McpRegistry } from '../../src/mcp/registry.js';
import { PROJECT_ROOT } from '../support/mcp-servers.js';

const SLOW_START = path.join(PROJECT_ROOT, 'test', 'fixtures', 'mcp', 'slow-start.mjs');

describe('connectTimeoutOf', () => {
  it.each([
    ['a plain command', { command: 'node', args: ['server.js'] }, undefined, 10_000],
    ['an HTTP server', { url: 'http://127.0.0.1:1/mcp', args: [] }, undefined, 10_000],
    ['npx', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }, undefined, 60_000],
    ['npx by its path', { command: '/usr/local/bin/npx', args: ['-y', 'x'] }, undefined, 60_000],
    ['npx.cmd (Windows)', { command: 'npx.cmd', args: ['-y', 'x'] }, undefined, 60_000],
    ['uvx', { command: 'uvx', args: ['mcp-server-git'] }, undefined, 60_000],
    ['bunx', { command: 'bunx', args: ['x'] }, undefined, 60_000],
    ['pnpm dlx', { command: 'pnpm', args: ['dlx', 'x'] }, undefined, 60_000],
    ['pnpm run (not a launcher)', { command: 'pnpm', args: ['run', 'mcp'] }, undefined, 10_000],
    ['the registry default for a plain command', { command: 'node', args: [] }, 2_000, 2_000],
    ['the registry default is not lowered for npx', { command: 'npx', args: ['x'] }, 2_000, 60_000],
    ['the server own limit wins', { command: 'npx', args: ['x'], connect_timeout_ms: 5_000 }, 2_000, 5_000],
  ] as const)('%s', (_name, cfg, fallback, ms) => {
    expect(connectTimeoutOf(cfg, fallback)).toBe(ms);
  });
});

describe('a server that takes 2 s to answer, the usual limit being 1 s', () => {
  const registries: McpRegistry[] = [];
  afterEach(async () => {
    await Promise.all(registries.splice(0).map((r) => r.closeAll()));
  });

  it('fails with the registry limit, connects with connect_timeout_ms, and behind npx by default (saying it is still starting)', async () => {
    const bin = mkdtempSync(path.join(tmpdir(), 'aish-npx-'));
    writeFileSync(path.join(bin, 'npx'), `#!/bin/sh\nexec "${process.execPath}" "${SLOW_START}" "$@"\n`);
    chmodSync(path.join(bin, 'npx'), 0o755);
    const statuses: string[] = [];
    const r = new McpRegistry({ env: { PATH: `${bin}:${process.env.PATH ?? ''}` }, clientVersion: '0.0.0-test', onStatus: (m) => statuses.push(m), connectTimeoutMs: 1000 });
    registries.push(r);
    const slow = { command: process.execPath, args: [SLOW_START, '2000', 'stdio'], env: {} };
    const failures = await r.connectAll({
      plain: slow,
      patient: { ...slow, connect_timeout_ms: 15_000 },
      launched: { command: 'npx', args: ['2000', 'stdio'], env: {} },
    });
    expect(failures.map((f) => [f.alias, f.error.message])).toEqual([['plain', expect.stringContaining('mcp plain: no answer within 1000 ms')]]);
    expect(r.list().map((row) => [row.alias, row.status])).toEqual([
      ['plain', 'failed'],
      ['patient', 'connected'],
      ['launched', 'connected'],
    ]);
    expect(statuses.filter((s) => s.includes('still starting')).sort()).toEqual([
      'mcp launched: still starting after 1 s; waiting up to 60 s (connect_timeout_ms sets the limit)',
      'mcp patient: still starting after 1 s; waiting up to 15 s (connect_timeout_ms sets the limit)',
    ]);
  });
});
