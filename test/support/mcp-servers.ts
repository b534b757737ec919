// Real MCP servers for tests and the bench: the fixture server (test/fixtures/mcp/server.mjs) and
// @modelcontextprotocol/server-everything, on 127.0.0.1 with a scrubbed environment. Each runs as
// a child with a stdin pipe: `stop()` ends it, and so does the death of the test runner (EOF).

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServerConfig } from '../../src/config/schema.js';

/** The folder with package.json, found from this file (also when bundled into dist/bench). */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) || !existsSync(path.join(dir, 'test', 'fixtures'))) {
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
  return dir;
}

export const PROJECT_ROOT = findProjectRoot();
export const FIXTURE_SERVER = path.join(PROJECT_ROOT, 'test', 'fixtures', 'mcp', 'server.mjs');
export const LOOPBACK_PRELOAD = path.join(PROJECT_ROOT, 'test', 'fixtures', 'mcp', 'loopback-preload.cjs');
export const EVERYTHING_ENTRY = createRequire(path.join(PROJECT_ROOT, 'package.json')).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
export const FILESYSTEM_ENTRY = createRequire(path.join(PROJECT_ROOT, 'package.json')).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

/** What a test server may see of the environment: a PATH and a throwaway HOME, nothing else. */
export function scrubbedEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), ...extra };
}

/** A server child process on a loopback port. */
export interface RunningServer {
  port: number;
  /** Base URL, `http://127.0.0.1:<port>`. */
  origin: string;
  child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after 2 s; resolves when it is gone. */
  stop(): Promise<void>;
}

const running = new Set<RunningServer>();

/** Stops every server this module started and that is still running. */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
}

function startServer(args: string[], env: Record<string, string>, marker: RegExp, markerStream: 'stdout' | 'stderr'): Promise<RunningServer> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], env });
  let stderr = '';
  let stdout = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise<RunningServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 10 s: ${args.join(' ')}\n${stderr}`));
    }, 10_000);
    const check = () => {
      const m = marker.exec(markerStream === 'stdout' ? stdout : stderr);
      if (!m) return;
      clearTimeout(timer);
      const port = Number(m[1]);
      const server: RunningServer = {
        port,
        origin: `http://127.0.0.1:${port}`,
        child,
        stderr: () => stderr,
        exited,
        stop: async () => {
          running.delete(server);
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
          await exited;
          clearTimeout(killer);
        },
      };
      running.add(server);
      resolve(server);
    };
    child.stdout!.on('data', (d: Buffer) => {
      if (stdout.length < 65_536) stdout += d.toString();
      check();
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      check();
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening: ${args.join(' ')}\n${stderr}`));
    });
    // A forgotten server must not keep the test process alive; its stdin EOF still ends it.
    child.unref();
  });
}

/** The fixture server over HTTP; `flags` as in server.mjs (`--token`, `--post-status`, ...). */
export function startFixture(flags: string[] = [], env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer([FIXTURE_SERVER, 'http', ...flags], scrubbedEnv(env), /listening (\d+)/, 'stdout');
}

export const OAUTH_SERVER = path.join(PROJECT_ROOT, 'test', 'fixtures', 'mcp', 'oauth-server.mjs');
export const FAKE_BROWSER = path.join(PROJECT_ROOT, 'test', 'fixtures', 'mcp', 'fake-browser.mjs');

/** An MCP server behind OAuth (the SDK's auth router and demo authorization server); `/mcp`. */
export function startOAuthServer(): Promise<RunningServer> {
  return startServer([OAUTH_SERVER], scrubbedEnv(), /listening (\d+)/, 'stdout');
}

/** server-everything over streamable HTTP (`/mcp`) or legacy SSE (`/sse`), bound to 127.0.0.1. */
export function startEverything(mode: 'streamableHttp' | 'sse', env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer(
    ['--require', LOOPBACK_PRELOAD, EVERYTHING_ENTRY, mode],
    scrubbedEnv({ PORT: '0', ...env }),
    /aish-test-listening (\d+)/,
    'stderr',
  );
}

/** Config for the fixture server over stdio. */
export function fixtureStdio(flags: string[] = [], env: Record<string, string> = {}): McpServerConfig {
  return { command: process.execPath, args: [FIXTURE_SERVER, 'stdio', ...flags], env };
}

/** Config for server-everything over stdio. */
export function everythingStdio(env: Record<string, string> = {}): McpServerConfig {
  return { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env };
}

/**
 * Config for @modelcontextprotocol/server-filesystem over stdio, started with `dirs`; its stderr
 * (where it says which directories it uses, and when it takes roots) is appended to `log`.
 */
export function filesystemStdio(dirs: string[], log: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { command: '/bin/sh', args: ['-c', 'log=$1; shift; exec "$@" 2>>"$log"', 'sh', log, process.execPath, FILESYSTEM_ENTRY, ...dirs], env: {}, ...extra };
}

/** Config for an HTTP server. */
export function httpServer(url: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { url, args: [], env: {}, ...extra };
}

/** A loopback URL where nothing listens (a port bound and released). */
export async function refusedUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}

/** The fixture's request counters (GET /_stats). */
export async function fixtureStats(server: RunningServer): Promise<{
  mcpPost: number;
  mcpGet: number;
  legacyGet: number;
  legacyPost: number;
  deletes: number;
  authorization: Array<string | null>;
  /** The `mcp-protocol-version` headers received (recorded when started with `--protocol`). */
  protocolHeaders: string[];
}> {
  const res = await fetch(`${server.origin}/_stats`);
  return (await res.json()) as never;
}
