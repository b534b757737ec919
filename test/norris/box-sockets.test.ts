// Unix sockets in the box (issue 32): an agent's socket is a credential, and a read-only mount does
// not stop a connection. Through a real ShellRunner behind bubblewrap: listeners on sockets in a
// temporary HOME (an agent's, a deeper one, a dev server's in the run's tree) and in an
// XDG_RUNTIME_DIR outside /run; a step connects to each with curl and with Python. The listeners
// hear nothing, a socket the step makes itself works, the agent variables are gone.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/schema.js';
import { PendingOutput } from '../../src/context/pending-output.js';
import { NorrisBox } from '../../src/norris/box.js';
import { findSockets, globEscape, socketsToCover } from '../../src/norris/box-sockets.js';
import { ShellRunner } from '../../src/shell/shell-runner.js';
import { canSandbox, runs } from '../support/programs.js';

const hasCurl = runs('curl', ['--version']);
const hasPython = runs('python3', ['--version']);

let dir: string;
let home: string;
let tree: string;
let runtime: string;
let listeners: net.Server[];
/** What each listener heard, by its socket's path. */
let heard: Map<string, string[]>;

beforeEach(() => {
  // Outside /tmp: the box gives each step a private /tmp, which would hide a home under it.
  dir = mkdtempSync(path.join('/var/tmp', 'aish-sockets-'));
  home = path.join(dir, 'home');
  tree = path.join(home, 'src', 'app');
  runtime = path.join(dir, 'runtime');
  for (const d of [path.join(home, '.1password'), path.join(home, '.local', 'share', 'a', 'b', 'c'), tree, runtime]) mkdirSync(d, { recursive: true });
  listeners = [];
  heard = new Map();
});
afterEach(async () => {
  await Promise.all(listeners.map((l) => new Promise<void>((resolve) => l.close(() => resolve()))));
  rmSync(dir, { recursive: true, force: true });
});

/** A listener on the unix socket `p` that records every connection and what it is sent. */
async function listen(p: string): Promise<string> {
  const got: string[] = [];
  heard.set(p, got);
  const server = net.createServer((socket) => {
    got.push('<connection>');
    socket.on('data', (b) => got.push(b.toString('utf8')));
    socket.on('error', () => {});
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\nREACHED');
  });
  await new Promise<void>((resolve) => server.listen(p, resolve));
  listeners.push(server);
  return p;
}

const config = () => {
  const r = resolveConfig({ models: { fast: { endpoint: 'http://127.0.0.1:1/v1', model: 'm' } }, shell: { session: false, program: '/bin/bash' } }, {});
  if (!r.ok) throw new Error('config');
  return r.config;
};

function setUp(env: Record<string, string>) {
  const pending = new PendingOutput();
  const notes: string[] = [];
  const said: string[] = [];
  const view = { execBegin: () => {}, execOutput: () => {}, execEnd: () => {}, info: () => {}, status: () => {}, error: () => {} };
  const shell = new ShellRunner({ shell: config().shell, cwd: tree, env, isTTY: false, view, pending, session: null, redact: (text) => text });
  const box = new NorrisBox({ config: config(), env, shell, note: (t) => notes.push(t), status: (m) => said.push(m) });
  return { box, pending, notes, said };
}

/** A step that tries `p` with curl and with Python, and says for each whether it got through. */
const tryBoth = (p: string, label: string) =>
  [
    ...(hasCurl ? [`curl -sS --max-time 3 --unix-socket '${p}' http://x/${label} && echo "curl ${label}: THROUGH" || echo "curl ${label}: failed"`] : []),
    ...(hasPython ? [`python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"python ${label}")' '${p}' && echo "python ${label}: THROUGH" || echo "python ${label}: failed"`] : []),
  ].join('; ');

describe('findSockets', () => {
  const signal = () => new AbortController().signal;

  it('finds sockets at any depth, passes over the skipped folders (even with glob characters in their names) and links, adds the named ones', async () => {
    const odd = path.join(home, 'src', 'we*ird[1]?');
    mkdirSync(odd, { recursive: true });
    const agent = await listen(path.join(home, '.1password', 'agent.sock'));
    const deep = await listen(path.join(home, '.local', 'share', 'a', 'b', 'c', 'deep.sock'));
    await listen(path.join(tree, 'dev.sock'));
    await listen(path.join(odd, 'x.sock'));
    const bus = await listen(path.join(runtime, 'bus'));
    symlinkSync(runtime, path.join(home, 'runtime-link'));
    writeFileSync(path.join(home, 'plain'), 'not a socket');
    const found = await findSockets({ roots: [home], skip: [tree, odd], named: [bus, path.join(home, 'plain'), path.join(home, 'missing')] }, 'find', signal());
    expect(found.type === 'found' && [...found.sockets].sort()).toEqual([agent, deep, bus].sort());
  });

  it('a search that does not end in time, or is cancelled, is unfinished: the box does not guess', async () => {
    const slow = path.join(dir, 'slow-find');
    writeFileSync(slow, '#!/bin/sh\nexec sleep 20\n');
    chmodSync(slow, 0o755);
    const late = await findSockets({ roots: [home], skip: [], named: [] }, slow, signal(), 200);
    expect(late).toEqual({ type: 'unfinished', why: `the search for unix sockets in ${home} did not finish (it took longer than 0.2 s)` });
    const controller = new AbortController();
    controller.abort();
    expect(await findSockets({ roots: [home], skip: [], named: [] }, 'find', controller.signal)).toMatchObject({ type: 'unfinished' });
    expect(await findSockets({ roots: [home], skip: [], named: [] }, path.join(dir, 'no-find'), signal())).toMatchObject({ type: 'unfinished' });
  });

  it('socketsToCover follows a runtime folder given as a link, and adds the sockets the step environment names', async () => {
    const bus = await listen(path.join(runtime, 'bus'));
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const agent = await listen(path.join(elsewhere, 'agent'));
    symlinkSync(runtime, path.join(dir, 'runtime-link'));
    const found = await socketsToCover({ home, env: { PATH: process.env.PATH, XDG_RUNTIME_DIR: path.join(dir, 'runtime-link') }, stepEnv: { SSH_AUTH_SOCK: agent }, tree, hidden: [] }, signal());
    expect(found.type === 'found' && [...found.sockets].sort()).toEqual([bus, agent].sort());
  });

  it.each([
    ['/h/plain', '/h/plain'],
    ['/h/a*b?[c]', '/h/a\\*b\\?\\[c\\]'],
    ['/h/back\\slash', '/h/back\\\\slash'],
  ])('globEscape(%j) is %j', (p, escaped) => {
    expect(globEscape(p)).toBe(escaped);
  });
});

describe.skipIf(!canSandbox || (!hasCurl && !hasPython))('unix sockets in the Norris box (bubblewrap; skipped where no box can be built)', () => {
  it('sockets in HOME (an agent, a deeper one), in the tree and in an XDG_RUNTIME_DIR outside /run are unreachable; one the step makes works', async () => {
    const agent = await listen(path.join(home, '.1password', 'agent.sock'));
    const deep = await listen(path.join(home, '.local', 'share', 'a', 'b', 'c', 'deep.sock'));
    const bus = await listen(path.join(runtime, 'bus'));
    const own = await listen(path.join(tree, 'dev.sock'));
    const env = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', XDG_RUNTIME_DIR: runtime, SSH_AUTH_SOCK: agent, GPG_AGENT_INFO: `${bus}:0:1`, DBUS_SESSION_BUS_ADDRESS: `unix:path=${bus}`, GNOME_KEYRING_CONTROL: runtime };
    const { box, pending } = setUp(env);
    expect(await box.availability()).toEqual({ available: true });
    const ownMade = hasPython ? [`python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.bind("made.sock"); s.listen(); c=socket.socket(socket.AF_UNIX); c.connect("made.sock"); print("made: works")'`] : [];
    const command = [tryBoth(agent, 'agent'), tryBoth(deep, 'deep'), tryBoth(bus, 'bus'), tryBoth(own, 'own'), ...ownMade, 'echo "ssh=[$SSH_AUTH_SOCK] gpg=[$GPG_AGENT_INFO] dbus=[$DBUS_SESSION_BUS_ADDRESS] keyring=[$GNOME_KEYRING_CONTROL]"'].join('; ');
    await box.run(command, tree, new AbortController().signal);
    const out = pending.take();
    // Whole lines: the step's command, shown first, holds these words too.
    const said = (line: string) => out.split('\n').includes(line);
    for (const label of ['agent', 'deep', 'bus', 'own']) {
      if (hasCurl) expect(said(`curl ${label}: failed`)).toBe(true);
      if (hasPython) expect(said(`python ${label}: failed`)).toBe(true);
    }
    expect(heard.get(agent)).toEqual([]);
    expect(heard.get(deep)).toEqual([]);
    expect(heard.get(bus)).toEqual([]);
    // A dev server's socket in the tree is a program of the person's, out of reach like the loopback.
    expect(heard.get(own)).toEqual([]);
    if (hasPython) expect(said('made: works')).toBe(true);
    expect(said('ssh=[] gpg=[] dbus=[] keyring=[]')).toBe(true);
  }, 30_000);

  it('when the tree holds HOME, the sockets in HOME are still hidden', async () => {
    const agent = await listen(path.join(home, '.1password', 'agent.sock'));
    const { box, pending } = setUp({ HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' });
    await box.run(tryBoth(agent, 'agent'), home, new AbortController().signal);
    const out = pending.take();
    expect(out).not.toMatch(/: THROUGH$/m);
    expect(heard.get(agent)).toEqual([]);
  }, 30_000);

  it('a search for sockets that cannot finish stops the step: it does not run, and the model is told why', async () => {
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'find'), '#!/bin/sh\necho "find: broken" >&2\nexit 2\n');
    chmodSync(path.join(bin, 'find'), 0o755);
    const { box, pending, notes, said } = setUp({ HOME: home, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` });
    await box.run('echo ran > ran.txt', tree, new AbortController().signal);
    expect(pending.take()).toBe('');
    expect(existsSync(path.join(tree, 'ran.txt'))).toBe(false);
    expect(said).toEqual([`[Norris] 'echo ran > ran.txt' not run: the search for unix sockets in ${home} did not finish (find: broken) (a big folder without sockets can go in norris.hidden_paths, which hides it from steps too)`]);
    expect(notes).toEqual([`[aish] the Norris sandbox could not start: the search for unix sockets in ${home} did not finish (find: broken); the step did not run (a big folder without sockets can be listed in norris.hidden_paths, which hides it too)`]);
  });
});
