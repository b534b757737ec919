// The Norris sandbox as data: the bwrap argv built from the settings, the secret places, what
// stays read-only in the tree, and which failures are the box's doing. Then the real thing:
// NorrisBox's probe and a step through a real ShellRunner behind bubblewrap.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/schema.js';
import { PendingOutput } from '../../src/context/pending-output.js';
import { NorrisBox } from '../../src/norris/box.js';
import { agentSocketPaths, blockedNote, bwrapArgv, isInside, laterRunPlaces, secretPlaces, socketSearch, withoutAgents, type BoxSettings } from '../../src/norris/sandbox.js';
import { withoutSecrets } from '../../src/safety/redact.js';
import { ShellRunner } from '../../src/shell/shell-runner.js';
import { canSandbox } from '../support/programs.js';

const base: BoxSettings = {
  bwrap: '/usr/bin/bwrap',
  tree: '/home/me/src/app',
  cwd: '/home/me/src/app/lib',
  network: false,
  hidden: [
    { path: '/home/me/.ssh', kind: 'dir' },
    { path: '/home/me/.netrc', kind: 'file' },
  ],
  readOnly: [{ path: '/home/me/src/app/.git', kind: 'dir' }],
};

/** The value after each occurrence of `flag`. */
const after = (argv: string[], flag: string, n = 1) => argv.flatMap((a, i) => (a === flag ? [argv.slice(i + 1, i + 1 + n).join(' ')] : []));

describe('bwrapArgv', () => {
  it('starts with bwrap, ends with --chdir <cwd> --, and unshares the network by default', () => {
    const argv = bwrapArgv(base);
    expect(argv[0]).toBe('/usr/bin/bwrap');
    expect(argv.slice(-3)).toEqual(['--chdir', '/home/me/src/app/lib', '--']);
    expect(argv).toContain('--unshare-net');
    for (const flag of ['--unshare-user', '--unshare-pid', '--die-with-parent', '--new-session']) expect(argv).toContain(flag);
    expect(after(argv, '--cap-drop')).toEqual(['ALL']);
  });

  it('norris.network keeps the network (and the resolver under /run)', () => {
    const argv = bwrapArgv({ ...base, network: true });
    expect(argv).not.toContain('--unshare-net');
    expect(after(argv, '--ro-bind-try', 2)).toEqual(['/run/systemd/resolve /run/systemd/resolve']);
  });

  it('the whole filesystem read-only, then /tmp and /run private, then the tree writable, then the read-only and hidden places', () => {
    const argv = bwrapArgv(base);
    const at = (...seq: string[]) => argv.findIndex((_, i) => seq.every((s, j) => argv[i + j] === s));
    const order = [at('--ro-bind', '/', '/'), at('--tmpfs', '/tmp'), at('--tmpfs', '/run'), at('--bind', base.tree, base.tree), at('--ro-bind', '/home/me/src/app/.git'), at('--tmpfs', '/home/me/.ssh'), at('--ro-bind', '/dev/null', '/home/me/.netrc')];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('a blocked place (a .git or .gitmodules not there) is an empty read-only tmpfs, after the tree and its read-only places', () => {
    const argv = bwrapArgv({ ...base, readOnly: [], blocked: ['/home/me/src/app/.git', '/home/me/src/app/.gitmodules'] });
    const i = argv.indexOf('/home/me/src/app/.git');
    expect(argv.slice(i - 1, i + 3)).toEqual(['--tmpfs', '/home/me/src/app/.git', '--remount-ro', '/home/me/src/app/.git']);
    expect(after(argv, '--tmpfs')).toContain('/home/me/src/app/.gitmodules');
    expect(i).toBeGreaterThan(argv.indexOf('--bind'));
  });

  it('a hidden folder is an empty tmpfs of mode 0000, read-only; a hidden file is /dev/null on a nodev mount', () => {
    const argv = bwrapArgv(base);
    const i = argv.indexOf('/home/me/.ssh');
    expect(argv.slice(i - 3, i + 3)).toEqual(['--perms', '0000', '--tmpfs', '/home/me/.ssh', '--remount-ro', '/home/me/.ssh']);
    expect(after(argv, '--ro-bind', 2)).toContain('/dev/null /home/me/.netrc');
  });
});

describe('the sockets a box covers', () => {
  it.each([
    ['an agent in HOME', ['/home/me/.1password/agent.sock'], ['/home/me/.1password/agent.sock']],
    ['one deep in HOME and one in a runtime folder outside /run', ['/home/me/.local/share/a/b/deep.sock', '/srv/run/me/bus'], ['/home/me/.local/share/a/b/deep.sock', '/srv/run/me/bus']],
    ['one in a hidden folder (gone with it: no mount point there)', ['/home/me/.ssh/agent.sock'], []],
    ['one in the tree (when the tree holds HOME)', ['/home/me/src/app/.git/fsmonitor--daemon.ipc'], ['/home/me/src/app/.git/fsmonitor--daemon.ipc']],
  ])('%s: /dev/null is mounted on each, after the tree and read-only places, before the hidden ones', (_, sockets, covered) => {
    const argv = bwrapArgv({ ...base, sockets });
    expect(after(argv, '--ro-bind', 2).filter((m) => m.startsWith('/dev/null ') && m !== '/dev/null /home/me/.netrc')).toEqual(covered.map((p) => `/dev/null ${p}`));
    for (const p of covered) {
      const i = argv.indexOf(p);
      expect(i).toBeGreaterThan(argv.indexOf('/home/me/src/app/.git'));
      expect(i).toBeLessThan(argv.indexOf('/home/me/.ssh'));
    }
  });

  const hidden = [{ path: '/home/me/.ssh', kind: 'dir' as const }, { path: '/home/me/.netrc', kind: 'file' as const }];
  it.each([
    ['a tree below HOME is searched with HOME (its sockets are programs of yours too); hidden folders are passed over', '/home/me/src/app', {}, ['/home/me'], ['/home/me/.ssh']],
    ['a tree that holds HOME is searched, HOME with it', '/home', {}, ['/home'], ['/home/me/.ssh']],
    ['a tree elsewhere is searched beside HOME', '/srv/app', {}, ['/home/me', '/srv/app'], ['/home/me/.ssh']],
    ['a tree at / is not (all of it: /proc, /sys), HOME still is', '/', {}, ['/home/me'], ['/home/me/.ssh']],
    ['a runtime folder outside /run is searched', '/home/me/src/app', { XDG_RUNTIME_DIR: '/srv/run/me' }, ['/home/me', '/srv/run/me'], ['/home/me/.ssh']],
    ['one under /run or /tmp is not (the box has its own, empty)', '/home/me/src/app', { XDG_RUNTIME_DIR: '/run/user/1000' }, ['/home/me'], ['/home/me/.ssh']],
    ['one under HOME is searched with it', '/home/me/src/app', { XDG_RUNTIME_DIR: '/home/me/.run' }, ['/home/me'], ['/home/me/.ssh']],
    ['a relative one is not a place', '/home/me/src/app', { XDG_RUNTIME_DIR: 'run' }, ['/home/me'], ['/home/me/.ssh']],
  ])('socketSearch: %s', (_, tree, env, roots, skip) => {
    expect(socketSearch('/home/me', env, tree, hidden)).toMatchObject({ roots, skip });
  });

  it.each([
    ['SSH_AUTH_SOCK', { SSH_AUTH_SOCK: '/home/me/.1password/agent.sock' }, ['/home/me/.1password/agent.sock']],
    ["GPG_AGENT_INFO's first field", { GPG_AGENT_INFO: '/home/me/.gnupg/S.gpg-agent:42:1' }, ['/home/me/.gnupg/S.gpg-agent']],
    ["every path= of a D-Bus address, escapes decoded (not an abstract one)", { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/srv/run/my%20bus,guid=1;unix:abstract=/tmp/dbus-x' }, ['/srv/run/my bus']],
    ["GNOME_KEYRING_CONTROL's control socket", { GNOME_KEYRING_CONTROL: '/srv/run/keyring' }, ['/srv/run/keyring/control']],
    ['a relative path, nothing', { SSH_AUTH_SOCK: 'agent.sock' }, []],
  ])('agentSocketPaths: %s', (_, env, paths) => {
    expect(agentSocketPaths(env)).toEqual(paths);
  });

  it('withoutAgents drops the agent and session-bus variables, and keeps the rest', () => {
    const env = { HOME: '/h', SSH_AUTH_SOCK: '/h/a', SSH_AGENT_PID: '1', GPG_AGENT_INFO: '/h/g:1:1', GNOME_KEYRING_CONTROL: '/k', GNOME_KEYRING_PID: '2', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/b', XDG_RUNTIME_DIR: '/run/user/1' };
    expect(withoutAgents(env)).toEqual({ HOME: '/h', XDG_RUNTIME_DIR: '/run/user/1' });
  });
});

describe('secretPlaces and laterRunPlaces', () => {
  it('names the credentials folders, aish own XDG folders and norris.hidden_paths (~ expanded)', () => {
    const places = secretPlaces('/h', { XDG_STATE_HOME: '/s' }, ['~/.config/rclone', '/srv/keys']);
    expect(places).toEqual(
      expect.arrayContaining(['/h/.ssh', '/h/.aws', '/h/.gnupg', '/h/.config/gh', '/h/.netrc', '/h/.docker', '/h/.kube', '/h/.npmrc', '/h/.git-credentials', '/h/.config/gcloud', '/s/aish', '/h/.config/aish', '/h/.local/share/aish', '/h/.config/rclone', '/srv/keys']),
    );
  });

  it("keeps the tree's .git and .gitmodules read-only; rc files and aish's own config too when the tree holds HOME", () => {
    expect(laterRunPlaces('/h/src/app', '/h', ['.aishrc.json'])).toEqual(['/h/src/app/.git', '/h/src/app/.gitmodules']);
    const inHome = laterRunPlaces('/h', '/h', ['.aishrc.json']);
    expect(inHome).toEqual(expect.arrayContaining(['/h/.git', '/h/.gitmodules', '/h/.bashrc', '/h/.zshrc', '/h/.config/fish', '/h/.profile', '/h/.gitconfig', '/h/.aishrc.json']));
  });

  it.each([
    ['/a/b', '/a', true],
    ['/a', '/a', true],
    ['/ab', '/a', false],
    ['/', '/a', false],
  ])('isInside(%s, %s) is %s', (inner, outer, yes) => {
    expect(isInside(inner, outer)).toBe(yes);
  });
});

describe('blockedNote', () => {
  it.each([
    ['curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn\'t connect to server', 7, 'no network'],
    ['curl: (6) Could not resolve host: example.com', 6, 'no network'],
    ['bash: connect: Network is unreachable\nbash: /dev/tcp/1.2.3.4/80: Network is unreachable', 1, 'no network'],
    ['fatal: unable to access \'https://github.com/x/y/\': Could not resolve host: github.com', 128, 'no network'],
    ['npm ERR! request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org', 1, 'no network'],
    ['sh: 1: cannot create /home/me/outside.txt: Read-only file system', 2, 'read-only file system outside /home/me/src/app (and in its .git)'],
    ["fatal: Unable to create '/home/me/src/app/.git/index.lock': Read-only file system", 128, 'read-only file system outside'],
    ['cat: /home/me/.ssh/id_rsa: Permission denied', 1, '/home/me/.ssh cannot be read in the box'],
    ['cat: /home/me/.netrc: Permission denied', 1, '/home/me/.netrc cannot be read in the box'],
  ])('%j (exit %i) is the box: %s', (output, exitCode, why) => {
    const note = blockedNote({ exitCode, output }, base);
    expect(note).toMatch(/^\[aish\] blocked by the Norris sandbox: /);
    expect(note).toContain(why);
  });

  it.each([
    ['ok', 0],
    ['Could not resolve host: example.com', 0],
    ['npm ERR! Test failed', 1],
    ['cat: /etc/shadow: Permission denied', 1],
    ['error: src/x.ts(3,1): expected ;', 2],
  ])('%j (exit %i) is not the box', (output, exitCode) => {
    expect(blockedNote({ exitCode, output }, base)).toBeNull();
  });

  it('with norris.network on, a network failure is not blamed on the box', () => {
    expect(blockedNote({ exitCode: 6, output: 'curl: (6) Could not resolve host: example.com' }, { ...base, network: true })).toBeNull();
  });

  it('a .git the box keeps from being made counts as its .git', () => {
    const note = blockedNote({ exitCode: 1, output: "mkdir: cannot create directory '.git/hooks': Read-only file system" }, { ...base, readOnly: [], blocked: ['/home/me/src/app/.git'] });
    expect(note).toBe('[aish] blocked by the Norris sandbox: read-only file system outside /home/me/src/app (and in its .git)');
  });

  it('a box that could not be built says so', () => {
    expect(blockedNote({ exitCode: 1, output: 'bwrap: Can\'t mkdir /x: Read-only file system' }, base)).toBe("[aish] the Norris sandbox could not start: Can't mkdir /x: Read-only file system");
  });
});

describe('withoutSecrets', () => {
  it('drops secret-looking names whatever the length, and the values of named keys', () => {
    const config = resolveConfig({ models: { fast: { endpoint: 'http://127.0.0.1:1/v1', model: 'm', key_env: 'MY_LLM' } } }, {});
    if (!config.ok) throw new Error('config');
    const env = withoutSecrets({ HOME: '/h', PATH: '/bin', GITHUB_TOKEN: 'short', AWS_SECRET_ACCESS_KEY: 'abcdefghijkl', MY_LLM: 'sk-0123456789', COPY: 'sk-0123456789', EMPTY: undefined }, config.config);
    expect(env).toEqual({ HOME: '/h', PATH: '/bin' });
  });
});


describe('NorrisBox', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join('/var/tmp', 'aish-box-'));
    mkdirSync(path.join(dir, 'home', '.ssh'), { recursive: true });
    mkdirSync(path.join(dir, 'home', 'tree'));
    writeFileSync(path.join(dir, 'home', '.ssh', 'id_rsa'), 'KEY');
    writeFileSync(path.join(dir, 'home', 'outside'), 'before');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const config = (norris: Record<string, unknown>) => {
    const r = resolveConfig({ models: { fast: { endpoint: 'http://127.0.0.1:1/v1', model: 'm' } }, norris, shell: { session: false, program: '/bin/bash' } }, {});
    if (!r.ok) throw new Error('config');
    return r.config;
  };
  const setUp = (norris: Record<string, unknown>, env: Record<string, string>) => {
    const pending = new PendingOutput();
    const notes: string[] = [];
    const view = { execBegin: () => {}, execOutput: () => {}, execEnd: () => {}, info: () => {}, status: () => {}, error: () => {} };
    const cwd = path.join(dir, 'home', 'tree');
    const shell = new ShellRunner({ shell: config(norris).shell, cwd, env, isTTY: false, view, pending, session: null, redact: (text) => text });
    const box = new NorrisBox({ config: config(norris), env, shell, note: (t) => notes.push(t), status: () => {} });
    return { box, pending, notes, cwd };
  };
  const env = () => ({ HOME: path.join(dir, 'home'), PATH: '/usr/bin:/bin', SECRET_TOKEN: 'abcdefghijkl' });

  it('norris.sandbox "off" is unavailable without trying', async () => {
    expect(await setUp({ sandbox: 'off' }, env()).box.availability()).toEqual({ available: false, why: 'norris.sandbox is off' });
  });

  it('without bwrap on PATH there is no box, and it says why', async () => {
    expect(await setUp({}, { ...env(), PATH: dir }).box.availability()).toEqual({ available: false, why: 'bubblewrap (bwrap) is not installed' });
  });

  it.skipIf(!canSandbox)('runs a step in the box: writes in the tree, not outside; the key unreadable; the model told why (skipped where no box can be built)', async () => {
    const { box, pending, notes, cwd } = setUp({}, env());
    expect(await box.availability()).toEqual({ available: true });
    await box.run('echo in > inside; echo $SECRET_TOKEN; cat ~/.ssh/id_rsa; echo after > ~/outside', cwd, new AbortController().signal);
    expect(readFileSync(path.join(cwd, 'inside'), 'utf8')).toBe('in\n');
    expect(readFileSync(path.join(dir, 'home', 'outside'), 'utf8')).toBe('before');
    const text = pending.take();
    expect(text).not.toContain('abcdefghijkl');
    expect(text).not.toContain('KEY\n');
    expect(notes.join('\n')).toMatch(/blocked by the Norris sandbox: read-only file system outside .*tree \(and in its \.git\); .*\.ssh cannot be read in the box/);
    // The tree had no .git nor .gitmodules: the box kept them from being made, and left nothing.
    expect(readdirSync(cwd)).toEqual(['inside']);
  });

  it.skipIf(!canSandbox)("writes only in the run's tree, even from a directory outside it (skipped where no box can be built)", async () => {
    const { box, cwd } = setUp({}, env());
    const tree = path.join(dir, 'home', 'other');
    mkdirSync(tree);
    await box.run('echo here > here; echo there > ../other/there', tree, new AbortController().signal);
    expect(readdirSync(cwd)).toEqual([]);
    expect(readFileSync(path.join(tree, 'there'), 'utf8')).toBe('there\n');
  });

  it.skipIf(!canSandbox)("a .git link at the tree's top does not bring its target into the box: /tmp stays private (skipped where no box can be built)", async () => {
    const { box, pending, cwd } = setUp({}, env());
    const outside = mkdtempSync(path.join(tmpdir(), 'aish-box-host-'));
    try {
      writeFileSync(path.join(outside, 'agent'), 'HOST-ONLY');
      symlinkSync(path.join(outside, 'agent'), path.join(cwd, '.git'));
      expect(box.settings(cwd, cwd).readOnly).toEqual([]);
      await box.run(`cat ${path.join(outside, 'agent')}`, cwd, new AbortController().signal);
      expect(pending.take()).not.toContain('HOST-ONLY');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it.skipIf(!canSandbox)('the git folder a .git file names inside the tree stays read-only, like a .git folder (skipped where no box can be built)', async () => {
    const { box, cwd } = setUp({}, env());
    mkdirSync(path.join(cwd, '.cache-gitdir', 'hooks'), { recursive: true });
    writeFileSync(path.join(cwd, '.git'), 'gitdir: .cache-gitdir\n');
    await box.run('echo x > .cache-gitdir/hooks/post-checkout; echo x > .cache-gitdir/config; echo x > made', cwd, new AbortController().signal);
    expect(readdirSync(path.join(cwd, '.cache-gitdir', 'hooks'))).toEqual([]);
    expect(readdirSync(path.join(cwd, '.cache-gitdir'))).toEqual(['hooks']);
    expect(readFileSync(path.join(cwd, 'made'), 'utf8')).toBe('x\n');
  });

  it.skipIf(!canSandbox)('with the tree holding HOME, a missing rc file or git config cannot be made, and the box leaves nothing behind (skipped where no box can be built)', async () => {
    const { box } = setUp({}, env());
    const home = path.join(dir, 'home');
    await box.run('echo "echo pwned" > ~/.bashrc; echo x > ~/.profile; mkdir -p ~/.config/git && echo x > ~/.config/git/config; echo x > ~/.gitconfig; echo ok > ~/fine', home, new AbortController().signal);
    expect(readdirSync(home).sort()).toEqual(['.ssh', 'fine', 'outside', 'tree']);
  });

  it.skipIf(!canSandbox)('the signal stops a boxed step and what it started (skipped where no box can be built)', async () => {
    const { box, cwd } = setUp({}, env());
    const controller = new AbortController();
    const started = Date.now();
    const run = box.run('sleep 30 & sleep 30', cwd, controller.signal);
    setTimeout(() => controller.abort(), 200);
    await run;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
