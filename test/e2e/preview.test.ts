// `p` at the confirm question (issue 26, "Preview"), with the real program on a pseudo-terminal,
// the loopback model replaying a CMD: reply, bash, unshare, overlayfs and bubblewrap: the preview
// lists what the command would delete, create and change, the real tree stays as it was, then `y`
// runs it for real. No network in a preview; a time limit that stops it; where previews cannot
// run (a machine whose `unshare` is refused), `p` says so and asks again. norris.preview HALTs a
// step that would change a file that existed.

import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Previewer } from '../../src/preview/previewer.js';
import { decide, policyFromConfig } from '../../src/safety/policy.js';
import { resolveConfig } from '../../src/config/schema.js';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { noProcessWith, processWith } from '../support/processes.js';
import { KEY, PtySession } from '../support/pty.js';
import { canSandbox } from '../support/programs.js';
import { runAish } from '../support/run-aish.js';
import { tempDir } from '../support/temp-dir.js';

let h: AishHome;
let server: ModelServer;
let canPreview = false;

beforeAll(async () => {
  const dir = tempDir('aish-preview-probe-');
  canPreview = canSandbox && (await new Previewer({ env: { PATH: process.env.PATH, HOME: dir }, scratchDir: dir, hiddenPaths: [], captureMaxChars: 1000 }).availability()).available;
});

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  writeFileSync(path.join(h.cwd, 'old.txt'), 'old\n');
  writeFileSync(path.join(h.cwd, 'notes.txt'), 'one\ntwo\n');
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

const config = (extra: object = {}) => h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, ...extra });
const start = (env: Record<string, string> = {}) => PtySession.start({ cwd: h.cwd, env: { ...h.env, ...env }, cols: 120, rows: 40 });
const files = () => readdirSync(h.cwd).sort();

/**
 * A PATH where `unshare` is there but refused, as by a kernel without unprivileged user
 * namespaces (or a container that forbids them).
 */
function withoutUserNamespaces(home: AishHome): string {
  const bin = path.join(home.home, 'no-userns-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, 'unshare'), '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n');
  chmodSync(path.join(bin, 'unshare'), 0o755);
  return `${bin}:${home.env.PATH}`;
}

/**
 * Sends `line` to the model, waits for the question about `command`, presses p, and resolves what
 * the preview showed, up to the question asked again (without p).
 */
async function previewAt(t: PtySession, line: string, command: string): Promise<string> {
  await t.waitFor('[aish:fast]> ');
  t.line(line);
  await t.waitFor(`execute '${command}'? [y/N/e/p] `);
  const from = t.mark();
  t.write('p');
  return t.waitFor(`execute '${command}'? [y/N/e] `, { from });
}

describe('preview at the confirm question', () => {
  it('lists what the command would delete, create and change, leaves the real tree as it was, then y runs it for real', async (ctx) => {
    if (!canPreview) ctx.skip();
    config();
    const command = 'rm old.txt && echo made > new.txt && echo three >> notes.txt && echo done-in-preview';
    server.enqueue(textReply([`Here:\nCMD: ${command}\n`]), textReply(['ok']));
    const t = start();
    try {
      const shown = await previewAt(t, 'clean up', command);
      expect(shown).toContain('  │ done-in-preview');
      expect(shown).toContain('[aish] preview exit 0');
      expect(shown).toContain('  would delete  old.txt');
      expect(shown).toContain('  would create  new.txt');
      expect(shown).toContain('  would change  notes.txt');
      expect(shown).toMatch(/--- a\/notes\.txt\n\s+\+\+\+ b\/notes\.txt\n\s+@@ -1,2 \+1,3 @@\n\s+ one\n\s+ two\n\s+\+three/);
      expect(shown).toContain('[aish] nothing the preview did remains');
      // Nothing the preview did remains: the tree, and aish's scratch folder.
      expect(files()).toEqual(['notes.txt', 'old.txt']);
      expect(readFileSync(path.join(h.cwd, 'notes.txt'), 'utf8')).toBe('one\ntwo\n');
      expect(readdirSync(path.join(h.stateDir, 'preview'))).toEqual([]);
      const from = t.mark();
      t.write('y');
      await t.waitFor(/╰─ exit 0/, { from });
      expect(files()).toEqual(['new.txt', 'notes.txt']);
      expect(readFileSync(path.join(h.cwd, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
      // The model hears of the real run, not of the preview.
      await t.waitFor('[aish:fast]> ', { from });
      t.line('and now?');
      await t.waitFor('ok');
      expect(server.requests[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: `[exec output]\n$ ${command}\ndone-in-preview\n[exit 0]\n\nand now?` });
    } finally {
      t.kill();
    }
  }, 40_000);

  it('says when the command reached a place the preview hides, and lists what it wrote in /tmp as outside the folder', async (ctx) => {
    if (!canPreview) ctx.skip('previews need user namespaces, overlayfs and bubblewrap');
    config();
    mkdirSync(path.join(h.home, '.ssh'), { mode: 0o700 });
    writeFileSync(path.join(h.home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
    const inTmp = `/tmp/aish-preview-wrote-${process.pid}-${Date.now()}.txt`;
    const command = `cat ~/.ssh/id_rsa > copied_key.txt; echo copied > ${inTmp}`;
    server.enqueue(textReply([`CMD: ${command}\n`]));
    const t = start();
    try {
      const shown = await previewAt(t, 'back up my key', command);
      expect(shown).toContain('  would create  copied_key.txt');
      expect(shown).toMatch(new RegExp(`  outside this folder \\(a real run writes there too\\):\\n\\s*would create  ${inTmp.replace(/[.]/g, '\\.')}`));
      expect(shown).toContain('[aish] hidden in the preview: ~/.ssh/id_rsa — a real run can read it');
      // The folders the box made to mount the home folder and the tree on (both under /tmp here) are not the command's.
      expect(shown).not.toMatch(/would create {2}\/tmp\/aish-test-/);
      expect(existsSync(inTmp)).toBe(false);
      expect(files()).toEqual(['notes.txt', 'old.txt']);
    } finally {
      t.kill();
    }
  }, 40_000);

  it("runs with the session shell's directory and exported variables, and changes neither", async (ctx) => {
    if (!canPreview) ctx.skip();
    config();
    mkdirSync(path.join(h.cwd, 'sub'));
    const command = 'echo "var=$PREVIEW_VAR pwd=$PWD" && export PREVIEW_VAR=changed && cd / && alias zz=true';
    server.enqueue(textReply([`CMD: ${command}\n`]));
    const t = start();
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('cd sub && export PREVIEW_VAR=from-session');
      await t.waitFor(/╰─ exit 0/);
      t.line('show the variable');
      await t.waitFor(`execute '${command}'? [y/N/e/p] `);
      let from = t.mark();
      t.write('p');
      const shown = await t.waitFor(`execute '${command}'? [y/N/e] `, { from });
      expect(shown).toContain(`  │ var=from-session pwd=${path.join(h.cwd, 'sub')}`);
      from = t.mark();
      t.write('n');
      await t.waitFor('[aish:fast]> ', { from });
      from = t.mark();
      t.line('echo "after: $PREVIEW_VAR $PWD $(alias zz 2>&1 | head -c 40)"');
      await t.waitFor(`after: from-session ${path.join(h.cwd, 'sub')}`, { from });
    } finally {
      t.kill();
    }
  }, 40_000);

  it('has no network: a connection to a listener the test started on the loopback fails in the preview', async (ctx) => {
    if (!canPreview) ctx.skip();
    const heard: string[] = [];
    const listener = net.createServer((s) => (heard.push('connection'), s.destroy()));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as net.AddressInfo;
    config();
    const command = `echo hello > /dev/tcp/127.0.0.1/${port} && echo connected`;
    server.enqueue(textReply([`CMD: ${command}\n`]));
    const t = start();
    try {
      const shown = await previewAt(t, 'say hello to the server', command);
      expect(shown).toMatch(/Connection refused|Network is unreachable/);
      expect(shown).toContain('[aish] preview exit 1');
      expect(shown).not.toContain('│ connected');
      expect(heard).toEqual([]);
      t.write('n');
    } finally {
      t.kill();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  }, 40_000);

  it('stops a preview at undo.preview_timeout_ms with everything it started, says so, and asks again', async (ctx) => {
    if (!canPreview) ctx.skip();
    config({ undo: { preview_timeout_ms: 1000 } });
    const command = 'echo early > early.txt; (setsid sleep 876.543 &); sleep 876.544';
    server.enqueue(textReply([`CMD: ${command}\n`]));
    const t = start();
    try {
      const shown = await previewAt(t, 'wait a while', command);
      expect(shown).toContain('[aish] preview stopped after 1000 ms (undo.preview_timeout_ms); what it did until then:');
      expect(shown).toContain('  would create  early.txt');
      expect(existsSync(path.join(h.cwd, 'early.txt'))).toBe(false);
      await noProcessWith('876.54');
      t.write('n');
    } finally {
      t.kill();
    }
  }, 40_000);

  it('Ctrl-C stops a running preview, with everything it started, and declines the command', async (ctx) => {
    if (!canPreview) ctx.skip();
    config();
    const command = 'echo early > early.txt; sleep 765.432';
    server.enqueue(textReply([`CMD: ${command}\n`]));
    const t = start();
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('wait a while');
      await t.waitFor(`execute '${command}'? [y/N/e/p] `);
      const from = t.mark();
      t.write('p');
      await t.waitFor(`[aish] preview of '${command}'`, { from });
      // The command itself runs (its argv alone, not bwrap's or the shell's that name it too).
      await processWith('sleep\x00765.432');
      t.write(KEY.ctrlC);
      const shown = await t.waitFor(/preview cancelled[\s\S]*\[aish:fast\]> /, { from });
      expect(shown).not.toContain(`execute '${command}'? [y/N/e] `);
      await noProcessWith('765.432');
      expect(existsSync(path.join(h.cwd, 'early.txt'))).toBe(false);
      expect(readdirSync(path.join(h.stateDir, 'preview'))).toEqual([]);
    } finally {
      t.kill();
    }
  }, 40_000);

  it('where previews cannot run (unshare refused, as without user namespaces), p says so and asks again without it', async () => {
    config();
    server.enqueue(textReply(['CMD: rm old.txt\n']));
    const t = start({ PATH: withoutUserNamespaces(h) });
    try {
      const shown = await previewAt(t, 'remove the old file', 'rm old.txt');
      expect(shown).toContain('[aish] preview needs Linux user namespaces (not available here)');
      expect(shown).toMatch(/\[aish\] \(.*Operation not permitted\)/);
      expect(shown).not.toContain('would delete');
      const from = t.mark();
      t.write('n');
      await t.waitFor('skipped: rm old.txt', { from });
      expect(existsSync(path.join(h.cwd, 'old.txt'))).toBe(true);
    } finally {
      t.kill();
    }
  }, 30_000);

  it('a command the permissions deny is neither asked about nor previewed', async () => {
    config({ permissions: { deny: ['rm *'] } });
    server.enqueue(textReply(['CMD: rm old.txt\n']));
    const t = start();
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('remove the old file');
      await t.waitFor('denied by permissions: rm *');
      await t.waitFor('[aish:fast]> ', { from: t.text.indexOf('denied by permissions') });
      expect(t.text).not.toContain('[y/N/e');
      expect(t.text).not.toContain('preview');
      expect(existsSync(path.join(h.cwd, 'old.txt'))).toBe(true);
    } finally {
      t.kill();
    }
  }, 30_000);
});

describe('norris.preview', () => {
  it('each step runs in a preview first: a step that would change a file that existed HALTs, one that changes what the run made does not', async (ctx) => {
    if (!canPreview) ctx.skip();
    const home = makeHome({}, '/var/tmp');
    try {
      writeFileSync(path.join(home.cwd, 'notes.txt'), 'one\n');
      const steps = ['echo made > made.txt', 'echo again >> made.txt', 'echo more >> notes.txt'];
      const resolved = resolveConfig({ models: { fast: { endpoint: server.url, model: 'm' } } }, {});
      if (!resolved.ok) throw new Error('config');
      const policy = policyFromConfig(resolved.config, (f) => existsSync(path.resolve(home.cwd, f)), home.home);
      // The policy lets each through: the preview is what stops the last one.
      for (const command of steps) expect([command, decide({ type: 'command', command, norris: true }, policy).verdict]).toEqual([command, 'allow']);
      server.enqueue(...steps.map((command) => textReply([`CMD: ${command}\n`])), textReply(['GOAL: complete\n']));
      home.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, norris: { preview: true } });
      const r = await runAish({ stdin: ':norris write some files\n', cwd: home.cwd, env: home.env, timeoutMs: 40_000 });
      expect(r.stderr).toContain("[aish] preview of 'echo made > made.txt'");
      expect(r.stdout).toContain('would create  made.txt');
      expect(r.stdout).toContain('would change  notes.txt');
      expect(r.stderr).not.toMatch(/HALT|what existed before the run \(made\.txt\)/);
      expect(r.stderr).toContain('[Norris] aborted');
      expect(readFileSync(path.join(home.cwd, 'made.txt'), 'utf8')).toBe('made\nagain\n');
      expect(readFileSync(path.join(home.cwd, 'notes.txt'), 'utf8')).toBe('one\n');
    } finally {
      home.cleanup();
    }
  }, 60_000);

  it('where previews cannot run, Norris says so at the start and every step HALTs (from a pipe: nothing runs)', async () => {
    writeFileSync(path.join(h.cwd, 'notes.txt'), 'one\n');
    server.enqueue(textReply(['CMD: echo made > made.txt\n']), textReply(['GOAL: complete\n']));
    config({ norris: { preview: true } });
    const r = await runAish({ stdin: ':norris write a file\n', cwd: h.cwd, env: { ...h.env, PATH: withoutUserNamespaces(h) }, timeoutMs: 30_000 });
    expect(r.stderr).toContain('[Norris] norris.preview is on, but a preview needs Linux user namespaces (unshare: unshare failed: Operation not permitted): every step HALTs first');
    expect(r.stderr).toContain('[Norris] aborted');
    expect(existsSync(path.join(h.cwd, 'made.txt'))).toBe(false);
  }, 40_000);

  it('on a terminal the HALT names the files, and skip leaves them as they were', async (ctx) => {
    if (!canPreview) ctx.skip();
    const home = makeHome({}, '/var/tmp');
    try {
      writeFileSync(path.join(home.cwd, 'notes.txt'), 'one\n');
      server.enqueue(textReply(['CMD: echo more >> notes.txt\n']), textReply(['GOAL: complete\n']));
      home.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, norris: { preview: true } });
      const t = PtySession.start({ cwd: home.cwd, env: home.env, cols: 160, rows: 40 });
      try {
        await t.waitFor('[aish:fast]> ');
        t.line(':norris add a note');
        await t.waitFor('[Norris] the preview would delete or change what existed before the run (notes.txt): echo more >> notes.txt');
        await t.waitFor('proceed / skip / abort? [p/s/A]');
        t.write('s');
        await t.waitFor('[Norris] done', { timeoutMs: 30_000 });
        expect(readFileSync(path.join(home.cwd, 'notes.txt'), 'utf8')).toBe('one\n');
      } finally {
        t.kill();
      }
    } finally {
      home.cleanup();
    }
  }, 60_000);
});
