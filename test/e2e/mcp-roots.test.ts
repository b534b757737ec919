// MCP roots end to end against the real @modelcontextprotocol/server-filesystem over stdio (issue
// 32). That server replaces the directories it was started with by the client's roots, so a
// server keeps its own unless its `roots` setting offers others, and aish never offers the home
// folder, a folder above it or / as a root. The server's stderr goes to a log the tests read: it
// says which directories it took, and the tests wait on it where the server updates them.

import { mkdirSync, readFileSync, realpathSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesystemStdio } from '../support/mcp-servers.js';
import { modelE2e } from '../support/model-e2e.js';
import { textReply, toolCallReply } from '../support/model-server.js';
import { runAish, startAish } from '../support/run-aish.js';

const e2e = modelE2e((extra) => ({ mcp: { auto_approve: ['fs__*'], ...extra } }));

const WITHHELD = /withheld from the servers' roots/g;

/** dirA (the server's own directory, with a.txt) and dirB (with b.txt), and the server's log. */
function dirs() {
  const a = path.join(e2e.h.home, 'srv-notes');
  const b = path.join(e2e.h.home, 'elsewhere');
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(path.join(a, 'a.txt'), 'alpha');
  writeFileSync(path.join(b, 'b.txt'), 'beta');
  writeFileSync(path.join(e2e.h.cwd, 'w.txt'), 'work');
  const log = path.join(e2e.h.home, 'fs.log');
  writeFileSync(log, '');
  return { a: realpathSync(a), b: realpathSync(b), log };
}

/** One model reply calling the server's tools: which directories it allows, then each file read. */
function askServer(id: string, files: string[]) {
  return toolCallReply([
    { id: `${id}-dirs`, name: 'fs__list_allowed_directories', arguments: '{}' },
    ...files.map((file, i) => ({ id: `${id}-${i}`, name: 'fs__read_text_file', arguments: JSON.stringify({ path: file }) })),
  ]);
}

/** The text the model was sent back for call `id` (without the structured copy of it). */
function toolTurn(id: string): string {
  const turn = e2e.server.requests.flatMap((r) => r.body.messages).find((m: { tool_call_id?: string }) => m.tool_call_id === id);
  return String(turn?.content ?? `(no tool turn ${id})`).split('\n[structured content]')[0]!;
}

/** Resolves when the log holds `pattern` `count` times (the server said it); rejects after 10 s. */
function logSays(log: string, pattern: string, count = 1): Promise<void> {
  const said = () => readFileSync(log, 'utf8').split(pattern).length - 1 >= count;
  return new Promise((resolve, reject) => {
    if (said()) return resolve();
    const watcher = watch(log, () => {
      if (!said()) return;
      watcher.close();
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`the server did not say "${pattern}" ${count} times:\n${readFileSync(log, 'utf8')}`));
    }, 10_000);
  });
}

describe('a server started with its own directories', () => {
  it.each([
    ['by default', {}, {}],
    ['with roots: false, whatever mcp.roots says', { roots: false as const }, { roots: 'cwd' }],
  ])('%s it is offered no roots and keeps them: dirA reads, the rest is denied', async (_, own, mcp) => {
    const d = dirs();
    e2e.writeConfig({ ...mcp, servers: { fs: filesystemStdio([d.a], d.log, own) } });
    e2e.server.enqueue(askServer('q', [path.join(d.a, 'a.txt'), path.join(e2e.h.cwd, 'w.txt')]), textReply(['ok']));
    await runAish({ stdin: 'what can you read?\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(readFileSync(d.log, 'utf8')).toContain('Client does not support MCP Roots, using allowed directories set from server args');
    expect(toolTurn('q-dirs')).toBe(`Allowed directories:\n${d.a}`);
    expect(toolTurn('q-0')).toBe('alpha');
    expect(toolTurn('q-1')).toMatch(/Access denied - path outside allowed directories/);
  });
});

describe('roots: "cwd"', () => {
  it('the current directory is the root, and after cd the server reads the new one instead', async () => {
    const d = dirs();
    e2e.writeConfig({ servers: { fs: filesystemStdio([d.a], d.log, { roots: 'cwd' }) } });
    e2e.server.enqueue(askServer('q', [path.join(d.b, 'b.txt'), path.join(d.a, 'a.txt')]), textReply(['ok']));
    const run = startAish({ cwd: e2e.h.cwd, env: e2e.h.env });
    try {
      await logSays(d.log, 'Updated allowed directories from MCP roots: 1 valid directories');
      run.write(`cd ${d.b}\n`);
      await logSays(d.log, 'Updated allowed directories from MCP roots: 1 valid directories', 2);
      run.write('what can you read?\n');
      run.end();
      const r = await run.exited;
      expect(r.stderr).not.toMatch(WITHHELD);
    } finally {
      run.child.kill();
    }
    expect(toolTurn('q-dirs')).toBe(`Allowed directories:\n${d.b}`);
    expect(toolTurn('q-0')).toBe('beta');
    // server-filesystem replaces its own directories by the roots: dirA is out of reach now.
    expect(toolTurn('q-1')).toMatch(/Access denied/);
  });

  it('from the home folder and from /, no root is offered (said once), so the server keeps its own', async () => {
    const d = dirs();
    e2e.writeConfig({ servers: { fs: filesystemStdio([d.a], d.log, { roots: 'cwd' }) } });
    e2e.server.enqueue(askServer('q', [path.join(d.a, 'a.txt'), path.join(e2e.h.cwd, 'w.txt')]), textReply(['ok']), askServer('r', [path.join(d.a, 'a.txt')]), textReply(['ok']));
    const r = await runAish({ stdin: 'what can you read?\ncd /\nand now?\n', cwd: e2e.h.home, env: e2e.h.env });
    const log = readFileSync(d.log, 'utf8');
    expect(log).toContain('No valid root directories provided by client');
    expect(log).not.toContain('Updated allowed directories from MCP roots');
    expect(r.stderr.match(WITHHELD)).toHaveLength(1);
    expect(toolTurn('q-dirs')).toBe(`Allowed directories:\n${d.a}`);
    expect(toolTurn('q-0')).toBe('alpha');
    expect(toolTurn('q-1')).toMatch(/Access denied/);
    expect(toolTurn('r-dirs')).toBe(`Allowed directories:\n${d.a}`);
    expect(toolTurn('r-0')).toBe('alpha');
  });
});

describe('roots: a list of directories', () => {
  it('is offered as given, without the home folder or /', async () => {
    const d = dirs();
    e2e.writeConfig({ servers: { fs: filesystemStdio([d.a], d.log, { roots: [d.b, '~', '/', e2e.h.home] }) } });
    e2e.server.enqueue(askServer('q', [path.join(d.b, 'b.txt'), path.join(d.a, 'a.txt')]), textReply(['ok']));
    const run = startAish({ cwd: e2e.h.cwd, env: e2e.h.env });
    try {
      await logSays(d.log, 'Updated allowed directories from MCP roots: 1 valid directories');
      run.write('what can you read?\n');
      run.end();
      const r = await run.exited;
      expect(r.stderr.match(WITHHELD)).toHaveLength(1);
    } finally {
      run.child.kill();
    }
    expect(toolTurn('q-dirs')).toBe(`Allowed directories:\n${d.b}`);
    expect(toolTurn('q-0')).toBe('beta');
    expect(toolTurn('q-1')).toMatch(/Access denied/);
  });
});

describe('a long file read (issue 36)', () => {
  it('reaches the model once, cut in one place, without a [structured content] copy', async () => {
    const d = dirs();
    // 32 KB of lines with quotes and backslashes, which an escaped JSON copy would double.
    const file = Array.from({ length: 1250 }, (_, i) => `line ${String(i).padStart(4, '0')} "quoted" \\ path`).join('\n');
    expect(file.length).toBeGreaterThan(32_000);
    writeFileSync(path.join(d.a, 'big.txt'), file);
    e2e.writeConfig({ servers: { fs: filesystemStdio([d.a], d.log) } });
    e2e.server.enqueue(askServer('q', [path.join(d.a, 'big.txt')]), textReply(['ok']));
    await runAish({ stdin: 'read it\n', cwd: e2e.h.cwd, env: e2e.h.env });
    const turn = e2e.server.requests.flatMap((r) => r.body.messages).find((m: { tool_call_id?: string }) => m.tool_call_id === 'q-0');
    const content = String(turn?.content);
    expect(content).not.toContain('[structured content]');
    expect(content.match(/chars cut by aish/g)).toHaveLength(1);
    expect(content.length).toBeLessThan(16_100);
    // The head and the tail are the file's own lines, not escaped JSON.
    expect(content.startsWith(file.slice(0, 11_000))).toBe(true);
    expect(content.endsWith(file.slice(-4_000))).toBe(true);
  });
});
