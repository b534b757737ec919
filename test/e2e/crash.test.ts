// Crash safety: aish killed with SIGKILL mid-conversation loses at most the line being written;
// resume restores every complete turn and repairs tool calls left without results.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_RESULT } from '../../src/history/load.js';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { everythingStdio } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';
import { PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, mcp: { servers: { everything: everythingStdio() } } });
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

it('SIGKILL while a tool call waits for approval: resume repairs it and the next request is valid', async () => {
  server.enqueue(
    textReply(['first answer']),
    toolCallReply([{ id: 'call_open', name: 'everything__echo', arguments: '{"message":"x"}' }], 'Let me check.'),
    textReply(['after resume']),
  );
  const t = PtySession.start({ cwd: h.cwd, env: h.env });
  try {
    await t.waitFor('[aish:fast]> ');
    t.line('first question');
    await t.waitFor(/first answer[\s\S]*\[aish:fast\]> /);
    t.line('second question');
    await t.waitFor("call 'everything__echo'? [y/N/a] ");
    process.kill(t.pid, 'SIGKILL');
    await t.exited;
  } finally {
    t.kill();
  }

  const r = await runAish({ stdin: 'third question\n', args: ['--resume', 'last'], cwd: h.cwd, env: h.env });
  expect(r.stderr).toContain('1 unanswered tool call(s) closed as interrupted');
  const messages = server.requests[2]!.body.messages.slice(1);
  expect(messages).toEqual([
    { role: 'user', content: 'first question' },
    { role: 'assistant', content: 'first answer' },
    { role: 'user', content: 'second question' },
    {
      role: 'assistant',
      content: 'Let me check.',
      tool_calls: [{ id: 'call_open', type: 'function', function: { name: 'everything__echo', arguments: '{"message":"x"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_open', content: INTERRUPTED_TOOL_RESULT },
    { role: 'user', content: 'third question' },
  ]);
  // The new log is complete on its own, repaired turn included.
  const dir = path.join(h.stateDir, 'sessions');
  const newest = readdirSync(dir).sort((a, b) => statSync(path.join(dir, a)).mtimeMs - statSync(path.join(dir, b)).mtimeMs).at(-1)!;
  const roles = readFileSync(path.join(dir, newest), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.role).map((l) => l.role);
  expect(roles).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'user', 'assistant']);
});
