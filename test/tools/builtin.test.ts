// The built-in tools on a real directory tree: capped reads, binary files refused, nothing outside
// the current directory (`..`, absolute paths, symlinks), listings, the clock in several zones,
// schema checks, `tools.builtin`, and the composition with another host.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledBuiltins } from '../../src/config/defaults.js';
import { builtinToolHost, describeNow } from '../../src/tools/builtin.js';
import { composeToolHosts } from '../../src/tools/compose.js';
import type { ToolHost } from '../../src/turn/types.js';

let root: string;
let work: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'aish-builtin-'));
  work = path.join(root, 'work');
  mkdirSync(path.join(work, 'sub'), { recursive: true });
  writeFileSync(path.join(work, 'a.txt'), 'hello\n');
  writeFileSync(path.join(work, 'big.txt'), 'x'.repeat(50) + 'TAIL');
  writeFileSync(path.join(work, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
  writeFileSync(path.join(work, 'sub', 'b.md'), '# b');
  writeFileSync(path.join(root, 'secret.env'), 'TOKEN=1');
  symlinkSync(path.join(root, 'secret.env'), path.join(work, 'link.env'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const host = (enabled = enabledBuiltins(true)) =>
  builtinToolHost({ enabled, cwd: () => work, now: () => new Date('2026-11-14T20:53:46.500Z'), timeZone: 'Europe/Berlin', maxChars: 20 });
const run = (h: ToolHost, name: string, args: Record<string, unknown> = {}) => h.call(name, args, { signal: new AbortController().signal });

describe('aish__read_file', () => {
  it('reads a text file under the current directory', async () => {
    expect(await run(host(), 'aish__read_file', { path: 'a.txt' })).toMatchObject({ status: 'ok', content: 'hello\n' });
    expect(await run(host(), 'aish__read_file', { path: './sub/../sub/b.md' })).toMatchObject({ status: 'ok', content: '# b' });
  });

  it('caps a long file and says so', async () => {
    const r = await run(host(), 'aish__read_file', { path: 'big.txt' });
    expect(r.content).toBe(`${'x'.repeat(20)}\n[aish] cut: the first 20 characters of 54 bytes`);
  });

  it.each([
    ['a parent path', '../secret.env', 'is outside the current directory'],
    ['an absolute path', '/etc/passwd', 'is outside the current directory'],
    ['a symlink leading out', 'link.env', 'is outside the current directory'],
    ['a missing file', 'nope.txt', 'no such file or directory'],
    ['a folder', 'sub', 'is not a file (aish__list_dir lists folders)'],
    ['a binary file', 'bin.dat', 'looks binary (4 bytes); not read'],
  ])('refuses %s', async (_label, p, message) => {
    const r = await run(host(), 'aish__read_file', { path: p });
    expect(r.status).toBe('error');
    expect(r.content).toContain(message);
    expect(r.content).not.toContain('TOKEN');
  });
});

describe('aish__list_dir', () => {
  it('lists sorted entries, folders with a slash; "." by default', async () => {
    const r = await run(host(), 'aish__list_dir');
    expect(r).toMatchObject({ status: 'ok', content: ['a.txt', 'big.txt', 'bin.dat', 'link.env', 'sub/'].join('\n') });
    expect((await run(host(), 'aish__list_dir', { path: 'sub' })).content).toBe('b.md');
  });

  it('stays inside the current directory', async () => {
    expect((await run(host(), 'aish__list_dir', { path: '..' })).content).toContain('.. is outside the current directory');
    expect((await run(host(), 'aish__list_dir', { path: 'a.txt' })).content).toContain('a.txt: not a directory');
  });
});

describe('aish__current_date', () => {
  it.each([
    ['Europe/Berlin', 'date: 2026-11-14 (Saturday)\ntime: 21:53:46\ntime zone: Europe/Berlin (GMT+01:00)'],
    ['UTC', 'date: 2026-11-14 (Saturday)\ntime: 20:53:46\ntime zone: UTC (GMT+00:00)'],
    ['Asia/Kolkata', 'date: 2026-11-15 (Sunday)\ntime: 02:23:46\ntime zone: Asia/Kolkata (GMT+05:30)'],
  ])('%s', (zone, expected) => {
    expect(describeNow(new Date('2026-11-14T20:53:46.500Z'), zone)).toBe(`${expected}\nutc: 2026-11-14T20:53:46Z`);
  });

  it('is offered and answers', async () => {
    expect((await run(host(), 'aish__current_date')).content).toContain('time zone: Europe/Berlin');
  });

  it('takes an optional timezone (seed 003), an IANA name', async () => {
    const h = host();
    expect(h.validate('aish__current_date', { timezone: 'Asia/Kolkata' })).toEqual([]);
    expect(await run(h, 'aish__current_date', { timezone: 'Asia/Kolkata' })).toEqual({
      status: 'ok',
      content: 'date: 2026-11-15 (Sunday)\ntime: 02:23:46\ntime zone: Asia/Kolkata (GMT+05:30)\nutc: 2026-11-14T20:53:46Z',
    });
    expect((await run(h, 'aish__current_date', { timezone: '' })).content).toContain('time zone: Europe/Berlin');
  });

  it.each([['Mars/Olympus_Mons'], ['Europe/Berlin\u001b[2J'], ['x'.repeat(500)]])('refuses an unknown timezone %#, clearly', async (zone) => {
    const r = await run(host(), 'aish__current_date', { timezone: zone });
    expect(r.status).toBe('error');
    expect(r.content).toMatch(/^\[aish\] aish__current_date: unknown time zone ".*"; give an IANA name such as Europe\/Berlin, America\/New_York or UTC$/);
    expect(r.content.length).toBeLessThan(250);
  });

  it('checks the timezone is a string', async () => {
    const h = host();
    expect(await run(h, 'aish__current_date', { timezone: 5 })).toMatchObject({ status: 'error', content: "[aish] tool arguments do not match the tool's input schema: /timezone: must be string" });
  });
});

describe('the built-in host', () => {
  it('offers what tools.builtin enables (find_tools belongs to the budget), all read-only', () => {
    expect(host().definitions().map((d) => d.function.name)).toEqual(['aish__current_date', 'aish__read_file', 'aish__list_dir']);
    expect(host(enabledBuiltins(['aish__list_dir'])).definitions().map((d) => d.function.name)).toEqual(['aish__list_dir']);
    expect(host(enabledBuiltins(false)).definitions()).toEqual([]);
    expect(host().annotations('aish__read_file')).toEqual({ readOnlyHint: true });
  });

  it('checks arguments against the schema, before running too', async () => {
    const h = host();
    await run(h, 'aish__current_date'); // loads the validator
    expect(h.validate('aish__read_file', {})).toEqual(['/path: is required']);
    expect(h.validate('aish__read_file', { path: 'a', extra: 1 })).toEqual(['/extra: is not an allowed property']);
    expect(await run(h, 'aish__read_file', { path: 3 })).toMatchObject({ status: 'error', content: "[aish] tool arguments do not match the tool's input schema: /path: must be string" });
  });

  it('a disabled built-in is an unknown tool', async () => {
    expect(await run(host(['aish__current_date']), 'aish__read_file', { path: 'a.txt' })).toMatchObject({ status: 'error', content: '[aish] tool dispatch failed: no tool named aish__read_file' });
  });

  it('composes with another host: definitions in order, calls to their owner', async () => {
    const other: ToolHost = {
      definitions: () => [{ type: 'function', function: { name: 'fx__echo', parameters: { type: 'object' } } }],
      has: (name) => name === 'fx__echo',
      validate: () => ['from other'],
      annotations: () => ({ destructiveHint: true }),
      call: async (name) => ({ status: 'ok', content: `other ran ${name}` }),
    };
    const both = composeToolHosts([host(['aish__current_date']), other]);
    expect(both.definitions().map((d) => d.function.name)).toEqual(['aish__current_date', 'fx__echo']);
    expect(both.validate('fx__echo', {})).toEqual(['from other']);
    expect(both.annotations('fx__echo')).toEqual({ destructiveHint: true });
    expect(both.annotations('aish__current_date')).toEqual({ readOnlyHint: true });
    expect(await run(both, 'fx__echo')).toMatchObject({ content: 'other ran fx__echo' });
    expect(await run(both, 'zz__none')).toMatchObject({ status: 'error', content: '[aish] tool dispatch failed: no tool named zz__none' });
  });
});
