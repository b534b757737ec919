// The official MCP conformance suite (@modelcontextprotocol/conformance) judging aish's MCP client:
// every client scenario the suite has runs its own server on loopback and drives
// test/fixtures/conformance/client.ts (aish's src/mcp code, bundled here with esbuild) against it.
// The CLI runs on Node 20 through a resolve hook (see node20-hooks.mjs), its servers bound to
// 127.0.0.1 by the loopback preload.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/mcp-servers.js';

const FIXTURES = path.join(PROJECT_ROOT, 'test', 'fixtures', 'conformance');
const LOOPBACK_LISTEN = path.join(PROJECT_ROOT, 'test', 'fixtures', 'mcp', 'loopback-listen.cjs');
const CLI = createRequire(path.join(PROJECT_ROOT, 'package.json')).resolve('@modelcontextprotocol/conformance/dist/index.js');

/**
 * Scenarios aish does not pass yet. Each is asserted to fail, so one that starts passing must be
 * taken off this list; the goal is an empty list but for the identity-provider extension.
 */
const NOT_YET: ReadonlySet<string> = new Set([
  // An extension that needs an identity provider; the SDK has no client provider for it.
  'auth/cross-app-access-complete-flow',
]);

interface CliRun {
  code: number | null;
  output: string;
}

/** Runs the conformance CLI with `args`; resolves when it exits (it stops its servers itself). */
function runCli(args: string[]): Promise<CliRun> {
  const child = spawn(process.execPath, ['--require', LOOPBACK_LISTEN, '--import', path.join(FIXTURES, 'node20-register.mjs'), CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), NO_COLOR: '1' },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

/** At most `limit` at once: each CLI run starts node twice, and the machine may have two cores. */
function limiter(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
const slot = limiter(2);

/** The client scenario names `conformance list` prints. */
async function clientScenarios(): Promise<string[]> {
  const { code, output } = await runCli(['list']);
  if (code !== 0) throw new Error(`conformance list failed:\n${output}`);
  const section = output.slice(output.indexOf('Client scenarios'));
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
}

const scenarios = await clientScenarios();
let workDir: string;
let clientEntry: string;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'aish-conformance-'));
  clientEntry = path.join(workDir, 'client.mjs');
  await build({
    entryPoints: [path.join(FIXTURES, 'client.ts')],
    outfile: clientEntry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __aishCreateRequire } from 'node:module'; const require = __aishCreateRequire(import.meta.url);" },
  });
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('the conformance suite', () => {
  it('has the client scenarios this file was written for', () => {
    expect(scenarios).toHaveLength(26);
    for (const name of NOT_YET) expect(scenarios).toContain(name);
  });
});

describe.concurrent('conformance client scenario', () => {
  it.each(scenarios)('%s', async (scenario) => {
    const { code, output } = await slot(() => runCli(['client', '--command', `${process.execPath} ${clientEntry}`, '--scenario', scenario, '--timeout', '30000']));
    // The scenario's server was bound to loopback (the preload announces every listen it moved).
    expect(output).toMatch(/aish-test-listening \d+/);
    const passed = code === 0 && /OVERALL: PASSED/.test(output);
    if (NOT_YET.has(scenario)) {
      expect(passed, `${scenario} passes now: take it off NOT_YET`).toBe(false);
    } else {
      expect(passed, output).toBe(true);
    }
  }, 90_000);
});
