// OAuth end to end through the REPL, against a real authorization server built from the SDK's
// server-side auth parts (test/fixtures/mcp/oauth-server.mjs) on 127.0.0.1: start-up never logs
// in, `:mcp login` runs the browser flow ($BROWSER is a stand-in that follows the redirect to the
// loopback listener), tokens are kept 0600 and reused at the next start, never shown, logged or
// sent to the model, and `:mcp logout` forgets them.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { FAKE_BROWSER, startOAuthServer, type RunningServer } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let auth: RunningServer;
let model: ModelServer;
let browserLog: string;

beforeEach(async () => {
  h = makeHome();
  auth = await startOAuthServer();
  model = await ModelServer.start();
  browserLog = path.join(h.home, 'browser.log');
  h.env.BROWSER = `${process.execPath} ${FAKE_BROWSER}`;
  h.env.FAKE_BROWSER_LOG = browserLog;
  h.writeConfig({
    models: { fast: { endpoint: model.url, model: 'm' } },
    mcp: { servers: { srv: { url: `${auth.origin}/mcp` } }, auto_approve: ['srv__*'] },
  });
});
afterEach(async () => {
  await auth.stop();
  await model.close();
  h.cleanup();
});

const tokenFile = () => path.join(h.stateDir, 'mcp-oauth.json');
const storedToken = (): string | undefined => {
  const data = JSON.parse(readFileSync(tokenFile(), 'utf8'));
  return data.servers[`${auth.origin}/mcp`]?.tokens?.access_token;
};
const sessionText = () => {
  const dir = path.join(h.stateDir, 'sessions');
  return readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8')).join('');
};

describe('OAuth logins for MCP servers', () => {
  it('start-up says login needed, :mcp login runs the flow, the token is kept 0600 and never shown', async () => {
    model.enqueue(toolCallReply([{ id: 'c1', name: 'srv__whoami', arguments: '{}' }]), textReply(['done']));
    const run = await runAish({ cwd: h.cwd, env: h.env, stdin: ':mcp list\n:mcp login srv\n:mcp list\nwho am i?\n', timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[aish] mcp srv: login needed (:mcp login srv)');
    expect(run.stdout).toMatch(/srv .* login needed/);
    expect(run.stderr).toContain('mcp srv: logged in and connected (streamable-http, 1 tools)');
    expect(run.stdout).toMatch(/srv .* 1 +connected/);
    // The browser went to the server's authorization page and came back to aish on loopback.
    expect(readFileSync(browserLog, 'utf8')).toMatch(new RegExp(`^${auth.origin}/authorize -> http://127\\.0\\.0\\.1:\\d+`));

    const token = storedToken();
    expect(token).toBeTruthy();
    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
    expect(statSync(h.stateDir).mode & 0o077).toBe(0);
    // The server repeats the token in its tool result: the model gets it redacted.
    const toolTurn = model.requests[1]!.body.messages.at(-1);
    expect(toolTurn.content).toContain('[redacted:mcp-oauth]');
    for (const text of [run.stdout, run.stderr, sessionText(), JSON.stringify(model.requests.map((r) => r.body))]) {
      expect(text).not.toContain(token);
    }
  }, 40_000);

  it('the next start connects with the kept token; :mcp logout forgets it', async () => {
    await runAish({ cwd: h.cwd, env: h.env, stdin: ':mcp login srv\n', timeoutMs: 30_000 });
    expect(storedToken()).toBeTruthy();
    const visits = readFileSync(browserLog, 'utf8');

    const run = await runAish({ cwd: h.cwd, env: h.env, stdin: ':mcp list\n:mcp logout srv\n:mcp list\n', timeoutMs: 30_000 });
    expect(run.stderr).not.toContain('login needed (:mcp login srv)');
    expect(run.stdout).toMatch(/srv .* 1 +connected/);
    expect(readFileSync(browserLog, 'utf8')).toBe(visits);
    expect(run.stderr).toContain('mcp srv: logged out (tokens forgotten)');
    expect(run.stdout).toMatch(/srv .* 0 +login needed/);
    expect(storedToken()).toBeUndefined();
  }, 60_000);

  it(':mcp connect <url> that meets a 401 logs in at once', async () => {
    h.writeConfig({ models: { fast: { endpoint: model.url, model: 'm' } } });
    const run = await runAish({ cwd: h.cwd, env: h.env, stdin: `:mcp connect ${auth.origin}/mcp web\n:mcp tools\n`, timeoutMs: 30_000 });
    expect(run.stderr).toContain('mcp web: connected (streamable-http, 1 tools)');
    expect(run.stdout).toContain('web__whoami');
  }, 40_000);

  it('start-up never opens the browser, even for a model turn', async () => {
    model.enqueue(textReply(['fine']));
    const run = await runAish({ cwd: h.cwd, env: h.env, stdin: ':mcp list\nhello\n', timeoutMs: 30_000 });
    expect(run.stdout).toMatch(/srv .* login needed/);
    expect(run.stderr).not.toContain('/authorize?');
    expect(() => statSync(browserLog)).toThrow();
    // Only aish's own built-ins are offered: nothing of the server that still needs a login.
    expect((model.requests[0]!.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name).filter((n: string) => !n.startsWith('aish__'))).toEqual([]);
  }, 40_000);
});
