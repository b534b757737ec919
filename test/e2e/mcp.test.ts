// MCP end to end through the REPL: the loopback model asks for a tool of the real
// server-everything (stdio), the gate decides, and the result reaches the next request.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fakeSecrets } from '../support/fake-secrets.js';
import { everythingStdio, FIXTURE_SERVER, startFixture } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';
import { KEY, PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;

function config(mcp: Record<string, unknown> = {}) {
  return {
    models: { fast: { endpoint: server.url, model: 'm' } },
    mcp: { servers: { everything: everythingStdio() }, ...mcp },
  };
}

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  h.writeConfig(config());
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

const echoCall = (id: string, message: string) => toolCallReply([{ id, name: 'everything__echo', arguments: JSON.stringify({ message }) }]);

function sessionLines(): any[] {
  const dir = path.join(h.stateDir, 'sessions');
  const file = readdirSync(dir).map((f) => path.join(dir, f))[0]!;
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

describe('MCP tools through the REPL', () => {
  it('on a terminal: the gate asks, the result goes back as a tool turn, the final text is printed', async () => {
    server.enqueue(echoCall('call_1', 'hi there'), textReply(['The server said hi there.']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('say hi there through the tool');
      await t.waitFor("call 'everything__echo'? [y/N/a] ");
      expect(t.text).toContain('"message": "hi there"');
      t.line('y');
      await t.waitFor('The server said hi there.');
      const second = server.requests[1]!.body;
      expect(second.tools.map((x: any) => x.function.name)).toContain('everything__echo');
      expect(second.messages.slice(-2)).toEqual([
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'everything__echo', arguments: '{"message":"hi there"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Echo: hi there' },
      ]);
      await t.waitFor(/hi there\.[\s\S]*\[aish:fast\]> /);
      t.write(KEY.ctrlD);
      await t.exited;
    } finally {
      t.kill();
    }
    const audit = sessionLines().find((l) => l.event === 'tool_audit');
    expect(audit).toMatchObject({ name: 'everything__echo', decision: 'approved', by: 'user', outcome: 'ok' });
    expect(audit.duration_ms).toEqual(expect.any(Number));
  });

  it('on a terminal the prompt comes before the servers connect; a model line waits for them', async () => {
    // The server starts only when the test writes to a FIFO: until then it is still connecting.
    const gate = path.join(h.home, 'gate');
    execFileSync('mkfifo', [gate]);
    const slow = { command: '/bin/sh', args: ['-c', 'read go < "$0"; exec "$1" "$2" stdio', gate, process.execPath, FIXTURE_SERVER] };
    h.writeConfig(config({ servers: { slow } }));
    server.enqueue(textReply(['tools seen']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('tell me about your tools');
      await t.waitFor('waiting for 1 MCP server to connect');
      expect(server.requests).toHaveLength(0);
      await writeFile(gate, 'go\n');
      await t.waitFor(/tools seen[\s\S]*\[aish:fast\]> /);
      expect(server.requests[0]!.body.tools.map((x: any) => x.function.name)).toContain('slow__echo');
      t.write(KEY.ctrlD);
      await t.exited;
    } finally {
      t.kill();
    }
  });

  it('on a terminal: a call leaked as text streams byte by byte, never shows, and runs like a real one', async () => {
    const leaked = 'Let me echo that.\n<tool_call>\n{"name": "everything__echo", "arguments": {"message": "leaky"}}\n</tool_call>';
    server.enqueue({ ...textReply([...leaked]), chunkSize: 1 }, textReply(['The server said leaky.']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('please repeat leaky through the tool');
      await t.waitFor("call 'everything__echo'? [y/N/a] ");
      expect(t.text).toContain('Let me echo that.');
      t.line('y');
      await t.waitFor(/The server said leaky\.[\s\S]*\[aish:fast\]> /);
      expect(t.text).not.toMatch(/tool_call>|"name"/);
      expect(server.requests[1]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: expect.any(String), content: 'Echo: leaky' });
      t.write(KEY.ctrlD);
      await t.exited;
    } finally {
      t.kill();
    }
  });

  it('piped input denies: the model gets a declined tool turn and nothing runs', async () => {
    server.enqueue(echoCall('call_9', 'x'), textReply(['ok, I will not.']));
    const r = await runAish({ stdin: 'use the tool\n', cwd: h.cwd, env: h.env });
    expect(r.code).toBe(0);
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_9', content: '[aish] tool call declined by user' });
    expect(r.stdout).toContain('ok, I will not.');
    expect(sessionLines().find((l) => l.event === 'tool_audit')).toMatchObject({ decision: 'declined', by: 'no-terminal' });
  });

  it('auto_approve alias__* runs without asking, also on a pipe', async () => {
    h.writeConfig(config({ auto_approve: ['everything__*'] }));
    server.enqueue(echoCall('c1', 'auto'), textReply(['done']));
    const r = await runAish({ stdin: 'please go ahead\n', cwd: h.cwd, env: h.env });
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'Echo: auto' });
    expect(r.stderr).toMatch(/╭─ tool everything__echo/);
  });

  it('invalid JSON arguments and schema errors become tool turns; nothing runs', async () => {
    h.writeConfig(config({ auto_approve: ['everything__*'] }));
    server.enqueue(
      toolCallReply([
        { id: 'bad', name: 'everything__echo', arguments: '{"message": ' },
        { id: 'wrong', name: 'everything__echo', arguments: '{"message": 42}' },
      ]),
      textReply(['sorry']),
    );
    await runAish({ stdin: 'please go ahead\n', cwd: h.cwd, env: h.env });
    const [bad, wrong] = server.requests[1]!.body.messages.slice(-2);
    expect(bad.tool_call_id).toBe('bad');
    expect(bad.content).toMatch(/^\[aish\] tool arguments not parseable as JSON: /);
    expect(wrong.tool_call_id).toBe('wrong');
    expect(wrong.content).toMatch(/^\[aish\] tool arguments do not match the tool's input schema: .*message.*string/);
  });

  it('stops at mcp.max_tool_depth with the status line', async () => {
    h.writeConfig(config({ auto_approve: ['everything__*'], max_tool_depth: 2 }));
    server.enqueue(echoCall('a', '1'), echoCall('b', '2'), echoCall('c', '3'));
    const r = await runAish({ stdin: 'loop\n', cwd: h.cwd, env: h.env });
    expect(server.requests).toHaveLength(2);
    expect(r.stderr).toContain('[aish] tool-call depth limit reached');
  });

  it('an unknown tool is answered at once: no question, never "declined by user"', async () => {
    server.enqueue(toolCallReply([{ id: 'u', name: 'nope__x', arguments: '{}' }]), textReply(['ok']));
    const r = await runAish({ stdin: 'please go ahead\n', cwd: h.cwd, env: h.env });
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'u',
      content: '[aish] no tool named nope__x exists; call only the tools offered in this request',
    });
    expect(r.stdout + r.stderr).not.toContain("call 'nope__x'?");
  });

  it('a stdio command line takes its alias from --alias, which the server never sees', async () => {
    const { command, args } = everythingStdio();
    const line = [command, ...args].map((w) => `'${w}'`).join(' ');
    const r = await runAish({ stdin: `:mcp connect ${line} --alias every\n:mcp list\n`, cwd: h.cwd, env: h.env, timeoutMs: 30_000 });
    expect(r.stderr).toMatch(/mcp every: connected \(stdio, \d+ tools\); resources: :mcp resources every, prompts: :mcp prompts every/);
    const row = r.stdout.split('\n').find((l) => l.startsWith('every '));
    expect(row).toBeDefined();
    expect(row).not.toContain('--alias');
  }, 40_000);

  it(':mcp connect to a Bearer-only server says authentication failed and how to pass a token; --token-env connects', async () => {
    const fixture = await startFixture(['--token', 'tok-e2e-51c3']);
    try {
      const url = `${fixture.origin}/mcp`;
      const r = await runAish({
        stdin: `:mcp connect ${url} fx\n:mcp connect ${url} fx --token-env FX_TOKEN\n:mcp list\n`,
        cwd: h.cwd,
        env: { ...h.env, FX_TOKEN: 'tok-e2e-51c3' },
      });
      const all = r.stdout + r.stderr;
      expect(all).toContain('[aish] mcp fx: authentication failed (HTTP 401); the server offers no OAuth login: pass its token with --token-env VAR');
      expect(all).not.toMatch(/legacy SSE|protocol error|open this URL/);
      expect(r.stderr).toMatch(/mcp fx: connected \(streamable-http, \d+ tools\)/);
      expect(all).not.toContain('tok-e2e-51c3');
    } finally {
      await fixture.stop();
    }
  });

  it('a configured server that cannot connect gets one status line and aish starts anyway', async () => {
    h.writeConfig(config({ servers: { everything: everythingStdio(), dead: { url: 'http://127.0.0.1:9/mcp' } } }));
    const r = await runAish({ stdin: ':mcp list\n', cwd: h.cwd, env: h.env });
    expect(r.stderr.match(/\[aish\] mcp dead: /g)).toHaveLength(1);
    expect(r.stdout).toMatch(/everything\s+.*stdio\s+\d+\s+connected/);
    expect(r.code).toBe(0);
  });

  it('resume restores tool turns', async () => {
    h.writeConfig(config({ auto_approve: ['everything__*'] }));
    server.enqueue(echoCall('r1', 'kept'), textReply(['first']), textReply(['second']));
    await runAish({ stdin: 'one\n', cwd: h.cwd, env: h.env });
    await runAish({ stdin: 'two\n', args: ['--resume'], cwd: h.cwd, env: h.env });
    expect(server.requests[2]!.body.messages.slice(1).map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(server.requests[2]!.body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'r1', content: 'Echo: kept' });
  });
});

describe(':tools', () => {
  it('when the tools sent are trimmed to mcp.max_tools, one status line says so and names :tools (issue 36)', async () => {
    h.writeConfig(config({ max_tools: 4 }));
    server.enqueue(textReply(['one']), textReply(['two']));
    const r = await runAish({ stdin: 'hello\nagain\n', cwd: h.cwd, env: h.env });
    expect(server.requests[0]!.body.tools).toHaveLength(4);
    const said = r.stderr.match(/\[aish\] offering the model 3 of \d+ tools, the likeliest for each request, and aish__find_tools for the rest \(mcp\.max_tools: 4\); :tools lists them and turns some off/g);
    expect(said).toHaveLength(1);
  });

  it('lists tools with group and state; disable/enable by group and pattern; the switches survive --resume', async () => {
    h.writeConfig(config({ groups: { talk: ['everything__echo'], clock: ['aish__current_date'] } }));
    server.enqueue(textReply(['one']), textReply(['two']));
    const first = await runAish({ stdin: ':tools\n:tools disable everything__*\n:tools enable talk\n:tools disable clock\n:tools disable nosuch\nhello\n', cwd: h.cwd, env: h.env });
    expect(first.stdout).toMatch(/^everything__echo +talk +on$/m);
    expect(first.stdout).toMatch(/^aish__current_date +clock +on$/m);
    expect(first.stdout).toMatch(/\d+ tools, \d+ on; the next request carries \d+ tools, about \d+ tokens of schema/);
    expect(first.stderr).toContain('no group or tool named nosuch');
    expect(server.requests[0]!.body.tools.map((t: any) => t.function.name)).toEqual(['aish__read_file', 'aish__list_dir', 'everything__echo']);

    const second = await runAish({ stdin: ':tools\nhi\n', args: ['--resume', 'last'], cwd: h.cwd, env: h.env });
    expect(second.stdout).toMatch(/^everything__echo +talk +on$/m);
    expect(second.stdout).toMatch(/^aish__current_date +clock +off$/m);
    expect(second.stdout).toMatch(/the next request carries 3 tools/);
    expect(server.requests[1]!.body.tools.map((t: any) => t.function.name)).toEqual(['aish__read_file', 'aish__list_dir', 'everything__echo']);
  });

  it('last: the last call\'s arguments and whole result that the frame folds to one line, redacted and sanitized', async () => {
    const token = fakeSecrets().find((x) => x.name === 'GitHub classic token')!;
    h.writeConfig(config({ auto_approve: ['everything__*'] }));
    const message = ['{', `  "token": "${token.value}",`, '  "title": "\x1b]0;pwned\x07",', '  "a": 1,', '  "b": 2,', '  "c": 3,', '}'].join('\n');
    server.enqueue(echoCall('c7', message), textReply(['done']));
    const r = await runAish({ stdin: 'please go ahead\n:tools last\n', cwd: h.cwd, env: h.env });
    // The tool's frame (on stderr from a pipe) folds the result to one line.
    expect(r.stderr).toContain('Echo: { (+6 more lines)');
    const shown = r.stdout.slice(r.stdout.indexOf('everything__echo (call c7)'));
    expect(shown).toContain('arguments:\n{\n  "message": "{\\n  \\"token\\": \\"[redacted:github-token]\\"');
    expect(shown).toContain(
      ['result:', 'Echo: {', '  "token": "[redacted:github-token]",', '  "title": "^[]0;pwned^G",', '  "a": 1,', '  "b": 2,', '  "c": 3,', '}'].join('\n'),
    );
    expect(r.stdout + r.stderr).not.toContain(token.value);
    expect(r.stdout).not.toContain('\x1b]0;pwned');
  });
});
