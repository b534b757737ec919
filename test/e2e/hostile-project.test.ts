// Hostile files in a project directory (issue 32) through the real program, piped: a config
// candidate that is a link to /dev/zero, a FIFO, a link out of the project or a file of megabytes
// is passed over with a status line naming it and why, and aish starts; SIGTERM ends it whatever
// it found. A trusted project config that imports a local file is refused before it runs: that
// file is not covered by the hash the person trusted.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { PtySession } from '../support/pty.js';
import { runAish, startAish } from '../support/run-aish.js';

let h: AishHome;
beforeEach(() => {
  h = makeHome();
});
afterEach(() => h.cleanup());

/** The start-up a hostile file must not wedge: a wedged read is ended here, not waited for. */
const START_MS = 10_000;
const statusLines = (stderr: string, file: string) => stderr.split('\n').filter((l) => l.startsWith('[aish] ') && l.includes(file));

describe('a hostile config candidate in the project', () => {
  const candidate = () => path.join(h.cwd, '.aishrc.json');

  it.each([
    ['a link to /dev/zero', () => symlinkSync('/dev/zero', candidate()), /is a link to \/dev\/zero, outside/],
    ['a FIFO', () => execFileSync('mkfifo', [candidate()]), /is not a regular file \(a FIFO\)/],
    ['a link out of the project', () => symlinkSync(h.writeConfig({ permissions: { allow: ['*'] } }, 'elsewhere.json'), candidate()), /is a link to .*elsewhere\.json, outside/],
    ['a file over the cap', () => writeFileSync(candidate(), `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`), /is larger than 1 MiB/],
  ])('%s: passed over with a status line naming it and why; aish starts', async (_name, plant, why) => {
    plant();
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'echo ok\n', timeoutMs: START_MS });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ok$/m);
    const lines = statusLines(r.stderr, candidate());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[aish\] passed over project config \S+: /);
    expect(lines[0]).toMatch(why);
  });

  it('a link inside the project to a regular file is read as the file is (asked about, so ignored from a pipe)', async () => {
    mkdirSync(path.join(h.cwd, 'conf'));
    writeFileSync(path.join(h.cwd, 'conf', 'aish.json'), JSON.stringify({ permissions: { allow: ['*'] } }));
    symlinkSync(path.join('conf', 'aish.json'), candidate());
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'echo ok\n', timeoutMs: START_MS });
    expect(r.stdout).toMatch(/^ok$/m);
    expect(statusLines(r.stderr, candidate())).toEqual([
      `[aish] ignored project config ${candidate()} (not trusted): start aish there on a terminal and answer y, or type :trust ${candidate()}`,
    ]);
  });

  it('on a terminal too: the status line, then the prompt', async () => {
    symlinkSync('/dev/zero', candidate());
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ', { timeoutMs: START_MS });
      expect(t.text).toContain(`[aish] passed over project config ${candidate()}: it is a link to /dev/zero, outside`);
      t.line(':quit');
      await t.exited;
    } finally {
      t.kill();
    }
  });

  it("the person's own config as a link to /dev/zero is an error that ends aish at once, naming it", async () => {
    const own = path.join(h.home, '.aishrc.json');
    symlinkSync('/dev/zero', own);
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'echo ok\n', timeoutMs: START_MS });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(own);
    expect(r.stderr).toMatch(/not a regular file \(a character device\)/);
  });

  it(':trust on a FIFO says why it cannot and goes on', async () => {
    execFileSync('mkfifo', [candidate()]);
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: ':trust .aishrc.json\necho ok\n', timeoutMs: START_MS });
    expect(r.stderr).toMatch(/cannot read \S+\.aishrc\.json: .*not a regular file \(a FIFO\)/);
    expect(r.stdout).toMatch(/^ok$/m);
  });

  it.each([
    ['a link to /dev/zero', () => symlinkSync('/dev/zero', candidate())],
    ['a FIFO', () => execFileSync('mkfifo', [candidate()])],
  ])('with %s, SIGTERM ends a started aish', async (_name, plant) => {
    plant();
    const a = startAish({ cwd: h.cwd, env: h.env });
    try {
      a.write('echo ok\n');
      await a.waitFor(/^ok$/m, START_MS);
      a.child.kill('SIGTERM');
      const r = await a.exited;
      expect(r.code).toBe(143);
    } finally {
      a.child.kill('SIGKILL');
    }
  });

  it('SIGTERM as soon as it is started ends it', async () => {
    symlinkSync('/dev/zero', candidate());
    const a = startAish({ cwd: h.cwd, env: h.env });
    try {
      await new Promise((resolve) => a.child.once('spawn', resolve));
      a.child.kill('SIGTERM');
      const ended = await Promise.race([a.exited, new Promise<'wedged'>((resolve) => setTimeout(() => resolve('wedged'), START_MS))]);
      expect(ended).not.toBe('wedged');
    } finally {
      a.child.kill('SIGKILL');
    }
  });
});

describe('a trusted project config that imports a local file', () => {
  it('is refused before it runs, so an edit to that file never runs unasked', async () => {
    const ran = path.join(h.home, 'helper-ran');
    const changed = path.join(h.home, 'changed-helper-ran');
    const helper = path.join(h.cwd, 'helper.mjs');
    writeFileSync(helper, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ran)}, 'ran');\nexport const allow = ['ls'];\n`);
    const config = path.join(h.cwd, 'aish.config.mjs');
    writeFileSync(config, `import { allow } from './helper.mjs';\nexport default { permissions: { allow } };\n`);
    // From a pipe, typing :trust is the answer.
    await runAish({ cwd: h.cwd, env: h.env, stdin: `:trust ${config}\n`, timeoutMs: START_MS });

    // The person read the config and trusted it; a Norris step (or anyone) edits what it imports.
    writeFileSync(helper, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(changed)}, 'ran');\nexport const allow = ['*'];\n`);
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: ':perms\necho ok\n', timeoutMs: START_MS });
    expect(existsSync(changed)).toBe(false);
    expect(existsSync(ran)).toBe(false);
    expect(r.stdout).toMatch(/^ok$/m);
    expect(r.stdout).toContain('allow:   (none)');
    const lines = statusLines(r.stderr, config);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`passed over project config ${config}: it imports ./helper.mjs`);
  });

  it('an import the reading of its source misses is refused while it runs: passed over, saying which', async () => {
    const ran = path.join(h.home, 'helper-ran');
    writeFileSync(path.join(h.cwd, 'helper.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(ran)}, 'ran');\nmodule.exports = { allow: ['*'] };\n`);
    const config = path.join(h.cwd, 'aish.config.mjs');
    // No \`require(\` or \`import\` of a file in the source: the loader is reached through a variable.
    writeFileSync(config, `const load = require;\nconst { allow } = load('./helper.cjs');\nexport default { permissions: { allow } };\n`);
    await runAish({ cwd: h.cwd, env: h.env, stdin: `:trust ${config}\n`, timeoutMs: START_MS });
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: ':perms\necho ok\n', timeoutMs: START_MS });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ok$/m);
    expect(r.stdout).toContain('allow:   (none)');
    expect(statusLines(r.stderr, config)).toEqual([expect.stringContaining(`passed over project config ${config}: it imports ./helper.cjs, `)]);
    expect(existsSync(ran)).toBe(false);
  });

  it(':trust refuses it, saying why', async () => {
    writeFileSync(path.join(h.cwd, 'helper.mjs'), 'export const allow = [];\n');
    const config = path.join(h.cwd, 'aish.config.mjs');
    writeFileSync(config, `import { allow } from './helper.mjs';\nexport default { permissions: { allow } };\n`);
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: `:trust ${config}\n`, timeoutMs: START_MS });
    expect(r.stderr).toContain('it imports ./helper.mjs');
    expect(r.stderr).not.toContain(`trusted ${config}`);
  });

  it('a config importing only aish and node built-ins is trusted and runs as before', async () => {
    const config = path.join(h.cwd, 'aish.config.mjs');
    writeFileSync(config, `import os from 'node:os';\nimport path from 'path';\nimport { defineConfig } from 'aish';\nexport default defineConfig({ permissions: { allow: [path.basename(os.homedir()) ? 'ls' : 'x'] } });\n`);
    await runAish({ cwd: h.cwd, env: h.env, stdin: `:trust ${config}\n`, timeoutMs: START_MS });
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: ':perms\n', timeoutMs: START_MS });
    expect(r.stdout).toContain('allow:   ls');
    expect(r.stderr).not.toContain(config);
  });
});
