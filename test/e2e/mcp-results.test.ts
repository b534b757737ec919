// What a tool call shows and gives the model beyond its text, end to end through the REPL:
// server-everything (streamable HTTP, started here on 127.0.0.1) for progress, structured content
// and resource links; the fixture server (stdio, `--hostile`) for log lines and hostile bytes.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { RAW_CONTROL } from '../support/hostile.js';
import { fixtureStdio, startEverything, stopAllServers, type RunningServer } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';
import { PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;
let everything: RunningServer;

beforeAll(async () => {
  everything = await startEverything('streamableHttp');
});
afterAll(async () => {
  await stopAllServers();
});
beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  h.writeConfig({
    models: { fast: { endpoint: server.url, model: 'm' } },
    mcp: { servers: { everything: { url: `${everything.origin}/mcp` }, fx: fixtureStdio(['--hostile']) }, auto_approve: ['everything__*', 'fx__*'] },
  });
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

const call = (id: string, name: string, args: Record<string, unknown> = {}) => toolCallReply([{ id, name, arguments: JSON.stringify(args) }]);
/** The tool turn the model was sent back for call `id`. */
const toolTurn = (id: string) => server.requests.flatMap((r) => r.body.messages).find((m: { tool_call_id?: string }) => m.tool_call_id === id);

describe('server-everything capability tools through the REPL', () => {
  it('structured content and resource links reach the model; a long operation shows progress in place on the terminal', async () => {
    server.enqueue(
      call('w', 'everything__get-structured-content', { location: 'New York' }),
      call('l', 'everything__get-resource-links', { count: 2 }),
      call('p', 'everything__trigger-long-running-operation', { duration: 1.5, steps: 3 }),
      textReply(['All three done.']),
    );
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('weather, links and a long job please');
      await t.waitFor(/running everything__trigger-long-running-operation · (33|67)%/);
      await t.waitFor('All three done.');
      expect(JSON.parse(toolTurn('w').content)).toEqual({ temperature: 33, conditions: 'Cloudy', humidity: 82 });
      expect(toolTurn('l').content.split('\n').slice(1)).toEqual([
        expect.stringMatching(/^\[resource_link demo:\/\/resource\/\S+\] \w+ Resource 1: .+/),
        expect.stringMatching(/^\[resource_link demo:\/\/resource\/\S+\] \w+ Resource 2: .+/),
      ]);
      expect(toolTurn('p').content).toMatch(/^Long running operation completed/);
      // Gone when the call ended: the frame's end line follows, and no progress after it.
      const end = t.text.lastIndexOf('╰─');
      expect(end).toBeGreaterThan(t.text.lastIndexOf('%'));
    } finally {
      t.kill();
    }
  });
});

describe('log lines and results from a hostile server', () => {
  it('warning and above become dim status lines, sanitized; lower levels are not shown', async () => {
    server.enqueue(call('g', 'fx__log', { levels: ['info', 'warning', 'error'] }), call('k', 'fx__links'), textReply(['logged']));
    const r = await runAish({ stdin: 'log something\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[aish] mcp fx warning (fixture): warning from the fixture ^[]0;pwned^G');
    expect(r.stderr).toContain('[aish] mcp fx error (fixture): error from the fixture');
    expect(r.stderr).not.toContain('info from the fixture');
    expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
    expect(toolTurn('k').content).toMatch(/^\[resource_link file:\/\/\/srv\/report\.md\] report\.md \x1b\]0;pwned/);
  });

  it('a structuredContent that breaks its outputSchema is rejected, and both the model and the person are told', async () => {
    server.enqueue(call('b', 'fx__bad_weather'), call('v', 'fx__weather'), textReply(['ok']));
    const r = await runAish({ stdin: 'weather\n', cwd: h.cwd, env: h.env });
    expect(toolTurn('b').content).toMatch(/^\[aish\] tool result rejected: Structured content does not match the tool's output schema/);
    expect(r.stderr).toMatch(/\[aish\] tool result rejected: Structured content does not match/);
    expect(toolTurn('v').content).toBe('Mild today.\n[structured content] {"celsius":21.5}');
  });

  it('a log line that comes while the person types at the prompt waits until the line is entered', async () => {
    server.enqueue(call('late', 'fx__log', { levels: ['error'], after_ms: 1500 }), textReply(['It will log later.']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('log later');
      await t.waitFor('It will log later.');
      await t.waitFor('[aish:fast]> ', { from: t.text.indexOf('It will log later.') });
      t.write('echo typed-at-the-prompt');
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(t.text).not.toContain('late error');
      const typed = t.mark();
      t.write('\r');
      await t.waitFor('[aish] mcp fx error: late error', { from: typed });
      await t.waitFor(/^typed-at-the-prompt$/m, { from: typed });
      expect(t.text.slice(typed).indexOf('late error')).toBeLessThan(t.text.slice(typed).search(/^typed-at-the-prompt$/m));
    } finally {
      t.kill();
    }
  });
});
