// Checkpoints and :undo end to end (issue 26): the built program from a pipe, the loopback model
// replaying `CMD:` replies that delete, modify and create files, and real git behind the shadow
// store. Contents, modes and absence are read from the disk after each :undo; the person's own
// .git is compared byte for byte; the state dir is measured.

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, lstatSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AishHome } from '../support/aish-env.js';
import { modelE2e } from '../support/model-e2e.js';
import { KEY, PtySession } from '../support/pty.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { runAish, startAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;

// A fresh HOME and loopback model per test (model-e2e.ts), under the names these tests use.
const e2e = modelE2e((extra) => ({ shell: { confirm_cmd: false }, ...extra }));
beforeEach(() => {
  h = e2e.h;
  server = e2e.server;
});

/** The config of these tests: CMD: lines run without asking (a pipe answers no). */
function config(extra: Record<string, unknown> = {}) {
  return { models: { fast: { endpoint: server.url, model: 'm' } }, shell: { confirm_cmd: false }, ...extra };
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, env: h.env, encoding: 'utf8' });
const read = (file: string) => readFileSync(path.join(h.cwd, file), 'utf8');
const mode = (file: string) => statSync(path.join(h.cwd, file)).mode & 0o777;
const has = (file: string) => existsSync(path.join(h.cwd, file));
const count = (text: string, needle: string) => text.split(needle).length - 1;

/** Every file under `dir` with its mode and bytes (hex), for a byte-for-byte comparison. */
function snapshotDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      const st = lstatSync(full);
      if (st.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = `${(st.mode & 0o7777).toString(8)} ${readFileSync(full).toString('hex')}`;
    }
  };
  walk(dir);
  return out;
}

function duBytes(dir: string): number {
  let total = 0;
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const st = lstatSync(path.join(at, name));
      if (st.isDirectory()) walk(path.join(at, name));
      else total += st.size;
    }
  };
  if (existsSync(dir)) walk(dir);
  return total;
}

function plantFiles(): void {
  writeFileSync(path.join(h.cwd, 'notes.txt'), 'original notes\n');
  chmodSync(path.join(h.cwd, 'notes.txt'), 0o644);
  writeFileSync(path.join(h.cwd, 'gone.sh'), '#!/bin/sh\necho gone\n');
  chmodSync(path.join(h.cwd, 'gone.sh'), 0o755);
  writeFileSync(path.join(h.cwd, 'data.txt'), 'data\n');
}

/**
 * A script beside the tree doing `body`: the approval policy asks before `rm` and `>` onto an
 * existing file whatever the config says, and a pipe answers no; a script it cannot see into runs.
 */
function script(name: string, body: string): string {
  writeFileSync(path.join(h.home, name), `#!/bin/sh\nset -e\n${body}\n`, { mode: 0o755 });
  return `../${name}`;
}
const ACTION_1 = "rm gone.sh; printf 'changed\\n' > notes.txt; chmod 755 notes.txt; printf 'new\\n' > new.txt";
const ACTION_2 = "printf 'again\\n' >> notes.txt; rm data.txt; mkdir -p sub; printf 'two\\n' > sub/new2.txt";

describe(':undo after CMD: lines', () => {
  it.each(['a git repository', 'a plain directory'])('in %s: a deletion, a modification (content and mode) and a creation, undone twice in a row', async (where) => {
    plantFiles();
    if (where === 'a git repository') {
      git(h.cwd, 'init', '-q');
      git(h.cwd, 'add', '.');
      git(h.cwd, 'commit', '-q', '-m', 'start');
    }
    const [one, two] = [script('one.sh', ACTION_1), script('two.sh', ACTION_2)];
    server.enqueue(textReply([`First.\nCMD: ${one}\n`]), textReply([`Second.\nCMD: ${two}\n`]));
    const run = startAish({ cwd: h.cwd, env: h.env });
    try {
      run.write('please change the notes\nplease change them more\n');
      await run.waitFor(/╰─ exit 0[\s\S]*╰─ exit 0/);
      expect(read('notes.txt')).toBe('changed\nagain\n');
      expect(has('data.txt')).toBe(false);
      expect(has('sub/new2.txt')).toBe(true);

      run.write(':undo\n');
      await run.waitFor(/\[aish\] undid '\.\.\/two\.sh'\n\[aish\] restored data\.txt, restored notes\.txt, removed sub\/new2\.txt\n/);
      expect(read('notes.txt')).toBe('changed\n');
      expect(mode('notes.txt')).toBe(0o755);
      expect(read('data.txt')).toBe('data\n');
      expect(has('sub/new2.txt')).toBe(false);
      expect(has('new.txt')).toBe(true);
      expect(has('gone.sh')).toBe(false);

      run.write(':undo\n');
      await run.waitFor(/\[aish\] undid '\.\.\/one\.sh'\n\[aish\] restored gone\.sh, restored notes\.txt, removed new\.txt\n/);
      expect(read('notes.txt')).toBe('original notes\n');
      expect(mode('notes.txt')).toBe(0o644);
      expect(read('gone.sh')).toBe('#!/bin/sh\necho gone\n');
      expect(mode('gone.sh')).toBe(0o755);
      expect(has('new.txt')).toBe(false);
      expect(read('data.txt')).toBe('data\n');

      run.write(':undo\n');
      await run.waitFor('[aish] nothing to undo in');
      if (where === 'a git repository') expect(git(h.cwd, 'status', '--porcelain')).toBe('');
    } finally {
      run.end();
      await run.exited;
    }
  });

  it('a command that removes the whole tree, its own directory: :undo makes it again', async () => {
    plantFiles();
    mkdirSync(path.join(h.cwd, 'src'));
    writeFileSync(path.join(h.cwd, 'src', 'main.c'), 'int main(void) { return 0; }\n');
    server.enqueue(textReply([`CMD: ${script('wipe.sh', `rm -rf '${h.cwd}'`)}\n`]));
    const r = await runAish({ stdin: 'please clean up\n:undo\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toMatch(/\[aish\] restored data\.txt, restored gone\.sh, restored notes\.txt, restored src\/main\.c\n/);
    expect(read('src/main.c')).toBe('int main(void) { return 0; }\n');
    expect(mode('gone.sh')).toBe(0o755);
  });

  it('a file changed again after the action is kept and named; :undo --force puts it back too', async () => {
    writeFileSync(path.join(h.cwd, 'keep.txt'), 'keep before\n');
    writeFileSync(path.join(h.cwd, 'other.txt'), 'other before\n');
    server.enqueue(textReply([`CMD: ${script('both.sh', "printf 'by the model\\n' > keep.txt; printf 'by the model\\n' > other.txt")}\n`]));
    const run = startAish({ cwd: h.cwd, env: h.env });
    try {
      run.write('please change both files\n');
      await run.waitFor('╰─ exit 0');
      // The person edits one of them (a typed line: no checkpoint of its own by default).
      run.write("printf 'edited by hand\\n' >> keep.txt\n:undo\n");
      await run.waitFor(':undo --force puts back');
      expect(run.stderr).toContain('[aish] kept keep.txt: changed since\n');
      expect(run.stderr).toContain('[aish] restored other.txt\n');
      expect(read('keep.txt')).toBe('by the model\nedited by hand\n');
      expect(read('other.txt')).toBe('other before\n');

      run.write(':undo --force\n');
      await run.waitFor(/undid[\s\S]*undid '[^\n]*\n\[aish\] restored keep\.txt\n/);
      expect(read('keep.txt')).toBe('keep before\n');
      expect(read('other.txt')).toBe('other before\n');
    } finally {
      run.end();
      await run.exited;
    }
  });

  it(':undo list shows the checkpoints newest first: when, how many files, what ran; undone ones marked', async () => {
    server.enqueue(textReply(['CMD: touch a.txt b.txt c.txt\n']), textReply(['CMD: rm b.txt\n']), textReply(['CMD: ls\n']));
    const r = await runAish({ stdin: 'please make three files\nplease remove one\nplease list them\n:undo\n:undo list\n', cwd: h.cwd, env: h.env });
    const list = r.stdout.slice(r.stdout.indexOf('checkpoints of'));
    expect(list).toMatch(/^checkpoints of .+ \(newest first\):\n {2}\d\d:\d\d:\d\d {2}1 file {3}rm b\.txt {2}\(undone\)\n {2}\d\d:\d\d:\d\d {2}3 files {2}touch a\.txt b\.txt c\.txt\n/);
    // `ls` changed nothing: no checkpoint of it.
    expect(list).not.toContain(' ls');
  });

  it('the model is told which action was undone, in the next request', async () => {
    server.enqueue(textReply(['CMD: printf hi > made.txt\n']), textReply(['ok']));
    await runAish({ stdin: 'please make a file\n:undo\nwhat now?\n', cwd: h.cwd, env: h.env });
    expect(server.requests).toHaveLength(2);
    const last = server.requests[1]!.body.messages.at(-1);
    expect(last.role).toBe('user');
    expect(last.content).toContain("[aish] the user undid 'printf hi > made.txt' with :undo: removed made.txt");
    expect(last.content).toMatch(/what now\?$/);
    expect(has('made.txt')).toBe(false);
  });
});

describe('what checkpoints keep, and what they leave alone', () => {
  it("a gitignored 50 MB file and a file over undo.max_file_bytes are not copied into the state dir, and an undo leaves them be", async () => {
    h.writeConfig(config({ undo: { max_file_bytes: 100_000 } }));
    git(h.cwd, 'init', '-q');
    writeFileSync(path.join(h.cwd, '.gitignore'), 'big.bin\n');
    writeFileSync(path.join(h.cwd, 'big.bin'), randomBytes(50 * 1024 * 1024));
    writeFileSync(path.join(h.cwd, 'large.dat'), randomBytes(200_000));
    server.enqueue(textReply(['CMD: printf x >> big.bin && printf x >> large.dat && printf small > small.txt\n']));
    const r = await runAish({ stdin: 'please touch things\n:undo\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[aish] removed small.txt');
    expect(has('small.txt')).toBe(false);
    expect(statSync(path.join(h.cwd, 'big.bin')).size).toBe(50 * 1024 * 1024 + 1);
    expect(statSync(path.join(h.cwd, 'large.dat')).size).toBe(200_001);
    expect(duBytes(path.join(h.stateDir, 'undo'))).toBeGreaterThan(0);
    expect(duBytes(path.join(h.stateDir, 'undo'))).toBeLessThan(100_000);
  });

  it("the person's .git is byte-identical afterwards (index, refs, stash, config), and none of its hooks or fsmonitor ran", async () => {
    const marker = path.join(h.home, 'ran.txt');
    const hook = `#!/bin/sh\necho "$0" >> ${marker}\n`;
    plantFiles();
    git(h.cwd, 'init', '-q');
    git(h.cwd, 'add', 'notes.txt', 'gone.sh');
    git(h.cwd, 'commit', '-q', '-m', 'start');
    writeFileSync(path.join(h.cwd, 'notes.txt'), 'stashed change\n');
    git(h.cwd, 'stash', '-q');
    git(h.cwd, 'add', 'data.txt');
    for (const name of ['pre-commit', 'post-index-change', 'reference-transaction', 'post-checkout']) {
      writeFileSync(path.join(h.cwd, '.git', 'hooks', name), hook, { mode: 0o755 });
    }
    const fsmonitor = path.join(h.home, 'fsmonitor.sh');
    writeFileSync(fsmonitor, hook, { mode: 0o755 });
    git(h.cwd, 'config', 'core.fsmonitor', fsmonitor);
    // The global config too: aish's git must not read it.
    writeFileSync(path.join(h.home, '.gitconfig'), `[core]\n\tfsmonitor = ${fsmonitor}\n\thooksPath = ${path.join(h.cwd, '.git', 'hooks')}\n`);
    const before = snapshotDir(path.join(h.cwd, '.git'));
    server.enqueue(textReply([`CMD: ${script('one.sh', ACTION_1)}\n`]));
    const r = await runAish({ stdin: 'please change things\n:undo\n:undo list\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[aish] restored gone.sh, restored notes.txt, removed new.txt');
    expect(snapshotDir(path.join(h.cwd, '.git'))).toEqual(before);
    expect(existsSync(marker)).toBe(false);
    expect(git(h.cwd, 'stash', 'list')).toMatch(/^stash@\{0\}/);
  });

  it('a tree of more than undo.max_files files gets no checkpoint, said once; the commands still run', async () => {
    h.writeConfig(config({ undo: { max_files: 5 } }));
    for (let i = 0; i < 8; i++) writeFileSync(path.join(h.cwd, `f${i}.txt`), `${i}\n`);
    server.enqueue(textReply(['CMD: touch one.txt\n']), textReply(['CMD: touch two.txt\n']));
    const r = await runAish({ stdin: 'please one\nplease two\n:undo\n', cwd: h.cwd, env: h.env });
    expect(count(r.stderr, `[aish] no checkpoint: ${h.cwd} has more than 5 files\n`)).toBe(1);
    expect(has('one.txt') && has('two.txt')).toBe(true);
    expect(r.stderr).toContain(`[aish] nothing to undo in ${h.cwd}`);
  });

  it('the home folder itself gets no checkpoint', async () => {
    server.enqueue(textReply(['CMD: touch in-home.txt\n']));
    const r = await runAish({ stdin: 'please touch it\n', cwd: h.home, env: h.env });
    expect(r.stderr).toContain(`[aish] no checkpoint: ${h.home} is the home folder`);
    expect(existsSync(path.join(h.home, 'in-home.txt'))).toBe(true);
  });

  it('without git, undo is off, said once, and the commands still run', async () => {
    const bin = path.join(h.home, 'bin');
    mkdirSync(bin);
    for (const tool of ['bash', 'sh', 'touch', 'rm', 'cat', 'ls', 'env', 'stty', 'tput']) {
      for (const dir of ['/usr/bin', '/bin']) {
        if (existsSync(path.join(dir, tool)) && !existsSync(path.join(bin, tool))) execFileSync('ln', ['-s', path.join(dir, tool), path.join(bin, tool)]);
      }
    }
    server.enqueue(textReply(['CMD: touch one.txt\n']), textReply(['CMD: touch two.txt\n']));
    const r = await runAish({ stdin: 'please one\nplease two\n', cwd: h.cwd, env: { ...h.env, PATH: bin } });
    expect(count(r.stderr, '[aish] undo is off: git is not installed or not on PATH')).toBe(1);
    expect(has('one.txt') && has('two.txt')).toBe(true);
  });

  it('undo.enabled: false takes no checkpoint and :undo says so', async () => {
    h.writeConfig(config({ undo: { enabled: false } }));
    server.enqueue(textReply(['CMD: touch one.txt\n']));
    const r = await runAish({ stdin: 'please one\n:undo\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[aish] undo is off (undo.enabled: false)');
    expect(existsSync(path.join(h.stateDir, 'undo'))).toBe(false);
  });

  it('undo.typed: true checkpoints a typed line too', async () => {
    h.writeConfig(config({ undo: { typed: true } }));
    writeFileSync(path.join(h.cwd, 'mine.txt'), 'mine\n');
    const r = await runAish({ stdin: 'rm mine.txt\n:undo\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain("[aish] undid 'rm mine.txt'");
    expect(read('mine.txt')).toBe('mine\n');
  });
});

describe('an undo removes only what the action created (issue 32)', () => {
  it('the ignore file moved away: :undo puts it back and leaves the ignored database alone, saying so', async () => {
    git(h.cwd, 'init', '-q');
    writeFileSync(path.join(h.cwd, '.gitignore'), 'data.db\n');
    writeFileSync(path.join(h.cwd, 'data.db'), 'the database');
    server.enqueue(textReply([`CMD: ${script('hide.sh', 'mv .gitignore old.gitignore')}\n`]));
    const r = await runAish({ stdin: 'please rename the ignore file\n:undo\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[aish] restored .gitignore, removed old.gitignore\n');
    expect(r.stderr).toMatch(/\[aish\] kept data\.db: ignored before the action[^\n]*\n/);
    expect(r.stderr).not.toContain('removed data.db');
    expect(read('data.db')).toBe('the database');
    expect(read('.gitignore')).toBe('data.db\n');
    expect(has('old.gitignore')).toBe(false);
  });

  it("a nested repository's .git moved aside: :undo keeps its files, its uncommitted work and the moved .git, saying so", async () => {
    const lib = path.join(h.cwd, 'vendor', 'lib');
    mkdirSync(lib, { recursive: true });
    writeFileSync(path.join(lib, 'lib.c'), 'int lib;\n');
    git(lib, 'init', '-q');
    git(lib, 'add', '.');
    git(lib, 'commit', '-q', '-m', 'lib');
    writeFileSync(path.join(lib, 'lib.c'), 'int lib; /* uncommitted work */\n');
    server.enqueue(textReply([`CMD: ${script('move.sh', 'mv vendor/lib/.git vendor/lib-git-backup')}\n`]));
    const run = startAish({ cwd: h.cwd, env: h.env });
    try {
      run.write('please move the nested git aside\n');
      await run.waitFor('╰─ exit 0');
      const moved = snapshotDir(path.join(h.cwd, 'vendor', 'lib-git-backup'));
      run.write(':undo\n');
      await run.waitFor(/\[aish\] kept vendor\/lib-git-backup\/[^\n]*\n/);
      expect(run.stderr).toMatch(/\[aish\] kept vendor\/lib\/: [^\n]*repository of its own before the action[^\n]*\n/);
      // Nothing restored, nothing removed.
      expect(run.stderr).not.toMatch(/^\[aish\] (restored|removed) /m);
      expect(read('vendor/lib/lib.c')).toBe('int lib; /* uncommitted work */\n');
      expect(snapshotDir(path.join(h.cwd, 'vendor', 'lib-git-backup'))).toEqual(moved);
      // Put back by hand, the repository is whole: its commit and the uncommitted work.
      execFileSync('mv', [path.join(h.cwd, 'vendor', 'lib-git-backup'), path.join(lib, '.git')]);
      expect(git(lib, 'status', '--porcelain')).toBe(' M lib.c\n');
    } finally {
      run.end();
      await run.exited;
    }
  });
});

describe('on a terminal', () => {
  it("the issue's command, answered y at the question: `rm -r build && sed -i s/a/b/ src/*.c`, then :undo", async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    mkdirSync(path.join(h.cwd, 'build'));
    writeFileSync(path.join(h.cwd, 'build', 'app.o'), 'object code\n');
    mkdirSync(path.join(h.cwd, 'src'));
    writeFileSync(path.join(h.cwd, 'src', 'one.c'), 'int a;\n');
    writeFileSync(path.join(h.cwd, 'src', 'two.c'), 'char a;\n');
    server.enqueue(textReply(['Cleaning.\nCMD: rm -r build && sed -i s/a/b/ src/*.c\n']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('please clean the build and rename a');
      await t.waitFor(/execute 'rm -r build && sed -i s\/a\/b\/ src\/\*\.c'\? \[y\/N\/e/);
      t.line('y');
      await t.waitFor(/exit 0[\s\S]*\[aish:fast\]> /);
      expect(existsSync(path.join(h.cwd, 'build'))).toBe(false);
      expect(read('src/one.c')).toBe('int b;\n');
      t.line(':undo');
      await t.waitFor('restored build/app.o, restored src/one.c, restored src/two.c');
      expect(read('build/app.o')).toBe('object code\n');
      expect(read('src/one.c')).toBe('int a;\n');
      expect(read('src/two.c')).toBe('char a;\n');
      await t.waitFor(/restored[\s\S]*\[aish:fast\]> /);
      t.write(KEY.ctrlD);
      await t.exited;
    } finally {
      t.kill();
    }
  });
});

describe('names from outside', () => {
  it('a file name with escape sequences or a newline is shown neutralised by :undo and :undo list, and told the model on one line', async () => {
    server.enqueue(textReply([`CMD: ${script('evil.sh', "touch \"$(printf 'evil\\033[2J\\033]0;owned\\007.txt')\" \"$(printf 'two\\nlines.txt')\"")}\n`]), textReply(['ok']));
    const r = await runAish({ stdin: 'please make it\n:undo\n:undo list\nand now?\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[aish] removed evil');
    // eslint-disable-next-line no-control-regex
    expect(r.stdout + r.stderr).not.toMatch(/\x1b\[2J|\x1b\]0;|\x07/);
    expect(readdirSync(h.cwd)).toEqual([]);
    const note = server.requests[1]!.body.messages.at(-1).content as string;
    expect(note).toMatch(/^\[aish\] the user undid '\.\.\/evil\.sh' with :undo: removed evil\\x1b\[2J\\x1b\]0;owned\\x07\.txt, removed two\\x0alines\.txt\n\nand now\?$/);
  });
});

describe(':undo norris', () => {
  it('undoes every step of the last Norris run at once, and nothing before it', async () => {
    h.writeConfig(config({ norris: { sandbox: 'off', unsandboxed: 'allow' } }));
    writeFileSync(path.join(h.cwd, 'a.txt'), 'a before\n');
    writeFileSync(path.join(h.cwd, 'gone.txt'), 'gone before\n');
    server.enqueue(
      textReply(['CMD: printf earlier > earlier.txt\n']),
      textReply(['Step one.\nCMD: echo one > n1.txt\n']),
      textReply(['Step two.\nCMD: rm gone.txt && echo more >> a.txt\n']),
      textReply(['GOAL: complete\n']),
    );
    const r = await runAish({ stdin: 'please make an earlier file\n:norris tidy up\n:undo list\n:undo norris\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[Norris] done');
    expect(r.stdout).toMatch(/norris step 2: rm gone\.txt && echo more >> a\.txt\n.*norris step 1: echo one > n1\.txt\n.*  printf earlier > earlier\.txt\n/);
    expect(r.stderr).toContain("[aish] undid 'norris step 2: rm gone.txt && echo more >> a.txt', 'norris step 1: echo one > n1.txt'");
    expect(has('n1.txt')).toBe(false);
    expect(read('a.txt')).toBe('a before\n');
    expect(read('gone.txt')).toBe('gone before\n');
    expect(read('earlier.txt')).toBe('earlier');
  });
});
