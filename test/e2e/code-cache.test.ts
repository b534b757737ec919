// The bundles' V8 code caches (src/code-cache.ts, made by scripts/build.mjs), on a copy of dist/ so
// that the suite's other runs cannot change what is observed. A cache that V8 takes is never
// written again, and one it rejects (or that is missing) is written anew, so the files beside the
// bundles tell what each run did: the build's caches serve a plain run, MCP included; a missing or
// broken cache changes nothing a person sees and is made again; other V8 flags get their own.

import { cpSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/code-cache.js';
import { makeHome, ROOT, type AishHome } from '../support/aish-env.js';
import { FIXTURE_SERVER } from '../support/mcp-servers.js';
import { runAish, type RunResult } from '../support/run-aish.js';
import { tempDir } from '../support/temp-dir.js';

const homes: AishHome[] = [];
afterAll(() => homes.forEach((h) => h.cleanup()));

/** dist/ without the bench, in a temp dir; its bundles find the packages through NODE_PATH. */
function distCopy(): string {
  const dir = path.join(tempDir('aish-cache-'), 'dist');
  cpSync(path.join(ROOT, 'dist'), dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}bench`) });
  return dir;
}

/** Cache file name → its bytes, for every cache in `dist`. */
function caches(dist: string): Map<string, Buffer> {
  return new Map(readdirSync(dist).filter((n) => n.endsWith('.cache')).map((n) => [n, readFileSync(path.join(dist, n))]));
}

const mtimes = (dist: string) => Object.fromEntries([...caches(dist).keys()].map((n) => [n, statSync(path.join(dist, n)).mtimeMs]));

/** One piped run of the copy: a shell line, and `:tools` with the fixture MCP server connected. */
function run(dist: string, nodeFlags: string[] = []): Promise<RunResult> {
  const h = makeHome({ NODE_PATH: path.join(ROOT, 'node_modules') });
  homes.push(h);
  h.writeConfig({
    models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'm' } },
    mcp: { servers: { fx: { command: process.execPath, args: [FIXTURE_SERVER, 'stdio'] } } },
  });
  return runAish({ bin: path.join(dist, 'aish.js'), nodeFlags, stdin: 'echo cached-hi\n:tools\n', cwd: h.cwd, env: h.env });
}

/** What a person sees of a run, whatever the caches did. */
function expectWorked(r: RunResult): void {
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toContain('cached-hi');
  expect(r.stdout + r.stderr).toMatch(/fx__echo/);
}

describe('code caches of the bundles', () => {
  const plainKey = cacheKey(process.version, [], undefined);

  it('the build made one for each bundle loaded after dist/aish.js, for a plain node', () => {
    expect([...caches(path.join(ROOT, 'dist')).keys()].filter((n) => n.includes(plainKey)).sort()).toEqual(
      ['program.js', 'secret-rules.js', 'start.js', 'vendor.js'].map((b) => `${b}.${plainKey}.cache`),
    );
  });

  it('serves a plain run, the MCP bundle included: none is written again, none is added', async () => {
    const dist = distCopy();
    const before = mtimes(dist);
    expectWorked(await run(dist));
    expect(mtimes(dist)).toEqual(before);
  });

  it('a missing or a broken cache changes nothing a person sees, and is made again', async () => {
    const dist = distCopy();
    const start = path.join(dist, `start.js.${plainKey}.cache`);
    const program = path.join(dist, `program.js.${plainKey}.cache`);
    const good = readFileSync(start);
    writeFileSync(start, Buffer.alloc(good.length, 0x5a));
    unlinkSync(program);
    expectWorked(await run(dist));
    expect(readFileSync(start).equals(Buffer.alloc(good.length, 0x5a))).toBe(false);
    expect(statSync(program).size).toBeGreaterThan(0);
    // And the new ones are taken: nothing is written on the next run.
    const made = mtimes(dist);
    expectWorked(await run(dist));
    expect(mtimes(dist)).toEqual(made);
  });

  it('other V8 flags get caches of their own beside the build\'s, which stay as they are', async () => {
    const dist = distCopy();
    const before = caches(dist);
    const flags = ['--max-old-space-size=300'];
    expectWorked(await run(dist, flags));
    const after = caches(dist);
    for (const [name, bytes] of before) expect(after.get(name)?.equals(bytes), name).toBe(true);
    const key = cacheKey(process.version, flags, undefined);
    expect(key).not.toBe(plainKey);
    expect([...after.keys()].filter((n) => n.includes(key)).sort()).toEqual(['program.js', 'secret-rules.js', 'start.js', 'vendor.js'].map((b) => `${b}.${key}.cache`));
  });

  it('names a cache by Node\'s version and every V8 flag, from the command line or NODE_OPTIONS', () => {
    expect(cacheKey('v20.1.0', [], undefined)).toBe(cacheKey('v20.1.0', [], ''));
    const keys = [
      cacheKey('v20.1.0', [], undefined),
      cacheKey('v20.2.0', [], undefined),
      cacheKey('v20.1.0', ['--stack-size=2000'], undefined),
      cacheKey('v20.1.0', [], '--max-old-space-size=100'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
