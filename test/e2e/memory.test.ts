// Memory across restarts: items survive and reach the next request's system message.

import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

it('items survive a restart and appear in the next request as [background], newest first', async () => {
  const first = await runAish({
    stdin: ':remember the build uses pnpm\n:memory add pref answer tersely\n:memory add context porting aish\n:memory forget 3\n:memory list\n',
    cwd: h.cwd,
    env: h.env,
  });
  expect(first.stderr).toContain('[aish] remembered #1');
  expect(first.stdout).toContain('#1  (fact) the build uses pnpm\n#2  (pref) answer tersely');
  expect(first.stdout).not.toContain('porting aish');

  server.enqueue(textReply(['ok']));
  const second = await runAish({ stdin: ':memory inject\nhello\n', cwd: h.cwd, env: h.env });
  const block = '[background] (memory.jsonl; manage via :memory)\n- (pref) answer tersely\n- (fact) the build uses pnpm';
  expect(second.stdout).toContain(block);
  expect(server.requests[0]!.body.messages[0].content).toContain(block);
});

it('memory.enabled: false sends no block and the commands say so', async () => {
  await runAish({ stdin: ':remember x\n', cwd: h.cwd, env: h.env });
  h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, memory: { enabled: false } });
  server.enqueue(textReply(['ok']));
  const r = await runAish({ stdin: ':memory list\nhello\n', cwd: h.cwd, env: h.env });
  expect(r.stderr).toContain('memory is off (memory.enabled: false)');
  expect(server.requests[0]!.body.messages[0].content).not.toContain('[background]');
});
