// stdio MCP servers as processes: Ctrl-C during a reply does not reach them (a process group of
// their own), nothing they started outlives aish (piped, -p), they get the network settings and
// not the secrets of aish's environment, and one that fails at start says why in its own words.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { FIXTURE_SERVER, PROJECT_ROOT } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';
import { commandLine, gone, isGone } from '../support/processes.js';
import { KEY, PtySession } from '../support/pty.js';
import { runAish, startAish } from '../support/run-aish.js';

const WRAPPER = path.join(PROJECT_ROOT, 'test', 'fixtures', 'mcp', 'wrapper.mjs');

let h: AishHome;
let server: ModelServer;
/** Server processes a test learned of: a failed test must not leave them running. */
const started: number[] = [];

function config(servers: Record<string, unknown>, mcp: Record<string, unknown> = {}) {
  return { models: { fast: { endpoint: server.url, model: 'm' } }, mcp: { servers, ...mcp } };
}

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
});
afterEach(async () => {
  for (const pid of started.splice(0)) {
    if (isGone(pid) || !commandLine(pid).includes('server.mjs')) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  await server.close();
  h.cleanup();
});

describe('Ctrl-C', () => {
  it('during a reply on a terminal leaves stdio servers connected and working', async () => {
    h.writeConfig(config({ fx: { command: process.execPath, args: [FIXTURE_SERVER, 'stdio'] } }, { auto_approve: ['fx__*'] }));
    server.enqueue(
      { type: 'stall', sendHeaders: true, body: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'partial answ' } }] })}\n\n` },
      toolCallReply([{ id: 'c1', name: 'fx__echo', arguments: '{"text":"still here"}' }]),
      textReply(['the server answered']),
    );
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('tell me');
      await t.waitFor('partial');
      t.write(KEY.ctrlC);
      let from = t.mark();
      await t.waitFor('[aish:fast]> ', { from });
      from = t.mark();
      t.line(':mcp list');
      const listed = await t.waitFor(/fx .*\n?.*(connected|disconnected|failed)/, { from });
      expect(listed).toMatch(/fx .*stdio\s+\d+\s+connected/);
      t.line('please call the tool once more');
      // Ctrl-D once the prompt is back: typed while the reply is handled (the terminal in cooked
      // mode) the end of input would be lost as the line editor takes the terminal again.
      await t.waitFor(/the server answered[\s\S]*\[aish:fast\]> $/);
      expect(server.requests[2]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'echo: still here' });
      t.write(KEY.ctrlD);
      await t.exited;
    } finally {
      t.kill();
    }
  });
});

describe('nothing a server started outlives aish', () => {
  /** A server behind a launcher that forwards no signal and a server that ignores EOF. */
  function wrappedServer(): string {
    const pidFile = path.join(h.home, 'server.pid');
    h.writeConfig(config({ fx: { command: process.execPath, args: [WRAPPER, pidFile, FIXTURE_SERVER, 'stdio', '--linger'] } }));
    return pidFile;
  }

  function serverPids(pidFile: string): { launcher: number; server: number } {
    const [launcher, child] = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    started.push(child!);
    return { launcher: launcher!, server: child! };
  }

  it('piped', async () => {
    const pidFile = wrappedServer();
    const r = await runAish({ stdin: ':mcp list\n', cwd: h.cwd, env: h.env });
    expect(r.stdout).toMatch(/fx .*connected/);
    const pids = serverPids(pidFile);
    await gone(pids.launcher, pids.server);
  });

  it('-p', async () => {
    const pidFile = wrappedServer();
    server.enqueue(textReply(['hello']));
    const r = await runAish({ args: ['-p', 'hi'], cwd: h.cwd, env: h.env });
    expect(r.stdout).toContain('hello');
    const pids = serverPids(pidFile);
    await gone(pids.launcher, pids.server);
  });
});

describe('a server deaf to SIGTERM', () => {
  it('does not outlive aish ended by SIGTERM while it starts (the exit backstop fires before its close)', async () => {
    const pidFile = path.join(h.home, 'deaf.pid');
    // Never answers initialize, ignores SIGTERM and EOF: only SIGKILL ends it.
    const script = `process.on('SIGTERM', () => {}); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 60000);`;
    h.writeConfig(config({ deaf: { command: process.execPath, args: ['-e', script] } }));
    const run = startAish({ cwd: h.cwd, env: h.env });
    let pid = 0;
    try {
      // The server writes its pid once it runs; aish is then waiting for its answer.
      while (!pid) {
        try {
          pid = Number(readFileSync(pidFile, 'utf8'));
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      run.child.kill('SIGTERM');
      const result = await run.exited;
      expect(result.code).toBe(143);
      await gone(pid);
    } finally {
      run.child.kill('SIGKILL');
      if (pid && !isGone(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});

describe('the environment of a stdio server', () => {
  it('holds the network settings of aish, not its secrets', async () => {
    const envFile = path.join(h.home, 'server-env.json');
    const caFile = path.join(h.home, 'proxy-ca.pem');
    writeFileSync(caFile, '');
    const network = {
      NODE_EXTRA_CA_CERTS: caFile,
      SSL_CERT_FILE: caFile,
      HTTPS_PROXY: 'http://proxy.example:3128',
      https_proxy: 'http://proxy.example:3129',
      HTTP_PROXY: 'http://proxy.example:3130',
      NO_PROXY: 'localhost,127.0.0.1',
      no_proxy: '127.0.0.1',
    };
    h.writeConfig(config({ fx: { command: process.execPath, args: [FIXTURE_SERVER, 'stdio', '--env-out', envFile] } }));
    const r = await runAish({ stdin: ':mcp list\n', cwd: h.cwd, env: { ...h.env, ...network, OPENAI_API_KEY: 'sk-proj-must-not-reach-servers', GITHUB_TOKEN: 'ghp_must_not_reach' } });
    expect(r.stdout).toMatch(/fx .*connected/);
    const seen = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    expect(seen).toMatchObject(network);
    expect(seen).not.toHaveProperty('OPENAI_API_KEY');
    expect(seen).not.toHaveProperty('GITHUB_TOKEN');
  });
});

describe('a server that fails at start', () => {
  it('is named, with the tail of its stderr, made visible', async () => {
    const script = "printf 'broken: reading config\\nbroken: proxy said \\033]0;pwned\\007 certificate unknown\\n' >&2; exit 3";
    h.writeConfig(config({ broken: { command: '/bin/sh', args: ['-c', script] } }));
    const r = await runAish({ stdin: ':mcp list\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[aish] mcp broken: the server exited during start-up; its stderr ended with:\n');
    expect(r.stderr).toContain('  broken: reading config\n');
    expect(r.stderr).toContain('  broken: proxy said ^[]0;pwned^G certificate unknown\n');
    expect(r.stderr + r.stdout).not.toContain('\x1b]0;');
    // :mcp list keeps one line: the reason and the server's last words.
    expect(r.stdout).toMatch(/broken .*failed: the server exited during start-up: broken: proxy said \^\[\]0;pwned\^G certificate unknown/);
  });
});
