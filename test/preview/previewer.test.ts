// The previewer on this machine's kernel: a command's deletions, creations and changes are read
// from real overlays (whiteouts, a folder removed and made again, modes, links), the real tree is
// untouched, the scratch folder is gone, and there is no network. Skipped where previews cannot run.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownPrivateFolder, Previewer, type PreviewResult } from '../../src/preview/previewer.js';
import { noProcessWith, processWith } from '../support/processes.js';
import { tempDir } from '../support/temp-dir.js';
import { needs } from '../support/needs.js';

const base = tempDir('aish-preview-');
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(base, 'home') };
mkdirSync(env.HOME);
const scratchDir = path.join(base, 'state');
const previewer = new Previewer({ env, scratchDir, hiddenPaths: [], captureMaxChars: 16_000 });
let available = false;

beforeAll(async () => {
  available = (await previewer.availability()).available;
});

function makeTree(): string {
  const tree = tempDir('aish-tree-');
  writeFileSync(path.join(tree, 'gone.txt'), 'gone\n');
  writeFileSync(path.join(tree, 'notes.txt'), 'one\ntwo\n');
  writeFileSync(path.join(tree, 'script.sh'), 'echo hi\n', { mode: 0o644 });
  mkdirSync(path.join(tree, 'build'));
  writeFileSync(path.join(tree, 'build', 'a.o'), 'a');
  writeFileSync(path.join(tree, 'build', 'b.o'), 'b');
  mkdirSync(path.join(tree, 'again'));
  writeFileSync(path.join(tree, 'again', 'old'), 'old');
  writeFileSync(path.join(tree, 'again', 'kept'), 'kept');
  symlinkSync('notes.txt', path.join(tree, 'link'));
  return tree;
}

/** Every file under `dir` with its content and mode, to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (e.isDirectory()) {
        out[`${rel}/`] = statSync(p).mode.toString(8);
        walk(p);
      } else if (e.isSymbolicLink()) out[rel] = 'link';
      else out[rel] = `${statSync(p).mode.toString(8)} ${readFileSync(p, 'utf8')}`;
    }
  };
  walk(dir);
  return out;
}


const run = (tree: string, command: string, timeoutMs = 20_000): Promise<PreviewResult> =>
  previewer.run({ command, cwd: tree, env, tree, shell: '/bin/bash', timeoutMs, signal: new AbortController().signal }, (f) => path.relative(tree, f));

describe('the previewer on this kernel', () => {
  it('lists deletions (whiteouts and a folder made again), creations, changes of content, mode and link target; the real tree stays as it was', async (ctx) => {
    if (!available) ctx.skip();
    const tree = makeTree();
    const before = snapshot(tree);
    const result = await run(
      tree,
      'rm gone.txt && rm -r build && echo three >> notes.txt && chmod 755 script.sh && rm -r again && mkdir again && echo new > again/kept && echo made > new.txt && ln -sf script.sh link && echo out',
    );
    expect(snapshot(tree)).toEqual(before);
    expect(result.type).toBe('done');
    if (result.type !== 'done') return;
    expect(result.exitCode).toBe(0);
    expect(result.output.text).toBe('out');
    const seen = result.changes.map((c) => `${c.kind} ${path.relative(tree, c.path)}${c.files !== undefined ? ` ${c.files}` : ''}${c.mode ? ` ${c.mode.before.toString(8)}>${c.mode.after.toString(8)}` : ''}${c.content ? ' content' : ''}`);
    expect(seen.sort()).toEqual(
      [
        'delete gone.txt',
        'delete build 2',
        'delete again/old',
        'change again/kept content',
        'change notes.txt content',
        'change script.sh 644>755',
        'change link content',
        'create new.txt',
      ].sort(),
    );
    expect(result.diffs.map((d) => d.label).sort()).toEqual(['again/kept', 'notes.txt']);
    expect(result.diffs.find((d) => d.label === 'notes.txt')!.lines).toEqual(['--- a/notes.txt', '+++ b/notes.txt', '@@ -1,2 +1,3 @@', ' one', ' two', '+three']);
    expect(readdirSync(scratchDir)).toEqual([]);
  }, 30_000);

  it('an abort as early as the box starts stops it whole and leaves nothing behind', async (ctx) => {
    if (!available) ctx.skip();
    const tree = makeTree();
    for (let round = 0; round < 3; round++) {
      const controller = new AbortController();
      const marker = `654.32${round}`;
      const result = previewer.run({ command: `echo early > early.txt; sleep ${marker}`, cwd: tree, env, tree, shell: '/bin/bash', timeoutMs: 20_000, signal: controller.signal }, (f) => f);
      // bwrap's own argv names the command: the box is being built.
      await processWith(marker);
      controller.abort();
      expect((await result).type).toBe('cancelled');
      await noProcessWith(marker);
    }
    expect(existsSync(path.join(tree, 'early.txt'))).toBe(false);
    expect(readdirSync(scratchDir)).toEqual([]);
  }, 30_000);

  it('the probe removes scratch folders an aish that was killed left behind (a day old), even with folders nobody may enter', async (ctx) => {
    if (!available) ctx.skip();
    const root = path.join(tempDir('aish-preview-sweep-'), 'state');
    // As aish makes it: only its owner may enter (a folder others may enter is refused).
    mkdirSync(root, { mode: 0o700 });
    const old = path.join(root, 'preview-old');
    mkdirSync(path.join(old, '0', 'wk', 'work'), { recursive: true });
    chmodSync(path.join(old, '0', 'wk', 'work'), 0o000);
    mkdirSync(path.join(root, 'preview-running'));
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    utimesSync(old, dayAgo, dayAgo);
    const fresh = new Previewer({ env, scratchDir: root, hiddenPaths: [], captureMaxChars: 100 });
    expect((await fresh.availability()).available).toBe(true);
    expect(readdirSync(root)).toEqual(['preview-running']);
  });

  it('a tree whose path holds a comma, a colon and a space (the overlay options never see it)', async (ctx) => {
    if (!available) ctx.skip();
    const tree = path.join(tempDir('aish-tree-'), 'odd, name: here');
    mkdirSync(tree);
    writeFileSync(path.join(tree, 'a.txt'), 'a');
    const result = await run(tree, 'rm a.txt && echo b > b.txt');
    expect(result.type === 'done' && result.changes.map((c) => `${c.kind} ${path.relative(tree, c.path)}`)).toEqual(['delete a.txt', 'create b.txt']);
    expect(readdirSync(tree)).toEqual(['a.txt']);
  });

  it('a scratch folder others may enter (made before by someone else, or open to all) is refused, never used', () => {
    const dir = tempDir('aish-preview-open-');
    const open = path.join(dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(() => ownPrivateFolder(open)).toThrow(/not a private folder/);
    const link = path.join(dir, 'link');
    symlinkSync(dir, link);
    expect(() => ownPrivateFolder(link)).toThrow(/not a private folder/);
    const fresh = path.join(dir, 'fresh');
    ownPrivateFolder(fresh);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });

  it('where the scratch folder cannot be (here: under a file), the probe falls back to the system temp folder', async (ctx) => {
    if (!available) ctx.skip();
    const blocker = path.join(tempDir('aish-preview-blocked-'), 'a-file');
    writeFileSync(blocker, '');
    const fallback = path.join(tmpdir(), `aish-preview-${userInfo().uid}`);
    const existed = existsSync(fallback);
    try {
      const elsewhere = new Previewer({ env, scratchDir: path.join(blocker, 'state'), hiddenPaths: [], captureMaxChars: 100 });
      expect(await elsewhere.availability()).toEqual({ available: true });
      const tree = makeTree();
      const result = await elsewhere.run({ command: 'rm gone.txt', cwd: tree, env, tree, shell: '/bin/sh', timeoutMs: 20_000, signal: new AbortController().signal }, (f) => f);
      expect(result.type === 'done' && result.changes.map((c) => c.kind)).toEqual(['delete']);
      expect(readdirSync(fallback).filter((n) => /^(preview|probe)-/.test(n))).toEqual([]);
    } finally {
      if (!existed) rmSync(fallback, { recursive: true, force: true });
    }
  });

  it('has no network: a connection to a listener on the loopback fails and the listener hears nothing', async (ctx) => {
    if (!available) ctx.skip();
    const heard: string[] = [];
    const server = net.createServer((s) => (heard.push('connection'), s.destroy()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const tree = makeTree();
      const result = await run(tree, `echo hi > /dev/tcp/127.0.0.1/${port}`);
      expect(result.type === 'done' && result.exitCode).not.toBe(0);
      expect(heard).toEqual([]);
    } finally {
      server.close();
    }
  }, 30_000);

  needs('python3').it('reaches no unix socket of HOME or of a runtime folder outside /run (an agent), nor the agent variables (issue 32)', async (ctx) => {
    if (!available) ctx.skip();
    const heard: string[] = [];
    const agentDir = path.join(env.HOME, '.1password');
    // Outside /tmp and /run, which are the box's own.
    const runtime = mkdtempSync(path.join('/var/tmp', 'aish-runtime-'));
    mkdirSync(agentDir, { recursive: true });
    const agent = path.join(agentDir, 'agent.sock');
    const bus = path.join(runtime, 'bus');
    const servers = [agent, bus].map((p) => net.createServer((s) => (heard.push(p), s.destroy())));
    await Promise.all(servers.map((server, i) => new Promise<void>((resolve) => server.listen([agent, bus][i], resolve))));
    try {
      const tree = makeTree();
      const withAgents = new Previewer({ env: { ...env, XDG_RUNTIME_DIR: runtime }, scratchDir, hiddenPaths: [], captureMaxChars: 16_000 });
      const connect = (p: string) => `python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"x")' '${p}' && echo "THROUGH ${path.basename(p)}"`;
      const result = await withAgents.run(
        { command: `${connect(agent)}; ${connect(bus)}; echo "ssh=[$SSH_AUTH_SOCK]"`, cwd: tree, env: { ...env, SSH_AUTH_SOCK: agent }, tree, shell: '/bin/bash', timeoutMs: 20_000, signal: new AbortController().signal },
        (f) => f,
      );
      expect(result.type).toBe('done');
      const text = result.type === 'done' ? result.output.text : '';
      expect(text).not.toContain('THROUGH');
      expect(text).toContain('ssh=[]');
      expect(heard).toEqual([]);
    } finally {
      for (const server of servers) server.close();
      rmSync(agentDir, { recursive: true, force: true });
      rmSync(runtime, { recursive: true, force: true });
    }
  }, 30_000);

  it('stops a command at the time limit, with all it started, and still lists what it did until then', async (ctx) => {
    if (!available) ctx.skip();
    const tree = makeTree();
    const result = await run(tree, 'echo early > early.txt; (setsid sleep 987.654 &); sleep 987.655', 1500);
    expect(result.type).toBe('done');
    if (result.type !== 'done') return;
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBe(137);
    expect(result.changes.map((c) => `${c.kind} ${path.basename(c.path)}`)).toEqual(['create early.txt']);
    expect(existsSync(path.join(tree, 'early.txt'))).toBe(false);
    // The one in a session of its own too: the box's pid namespace ended with it.
    await noProcessWith('987.65');
  }, 30_000);
});
