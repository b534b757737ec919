// Memory across restarts: items survive and reach the next request's system message.

import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { PtySession } from '../support/pty.js';
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

it(':memory summarize on a terminal asks about each item by one key: another key asks again, e edits, Enter declines', async () => {
  server.enqueue(textReply(['Noted.']), textReply(['(fact): the build uses pnpm\n(pref): answer tersely\n(context): porting aish']));
  const t = PtySession.start({ cwd: h.cwd, env: h.env });
  try {
    await t.waitFor('[aish:fast]> ');
    t.line('I build with pnpm and like terse answers');
    await t.waitFor('Noted.');
    let mark = t.mark();
    t.line(':memory summarize');
    await t.waitFor('remember (fact) the build uses pnpm? [y/N/e] ', { from: mark });
    mark = t.mark();
    t.write('x');
    await t.waitFor('(one key: y, n or e; Enter: n)', { from: mark });
    t.write('y');
    await t.waitFor('remember (pref) answer tersely? [y/N/e] ', { from: mark });
    const edit = t.mark();
    t.write('e');
    // The edit is a line, the proposed text on it to change.
    await t.waitFor('(pref) answer tersely', { from: edit });
    t.write(', in English\r');
    await t.waitFor('remember (context) porting aish? [y/N/e] ', { from: mark });
    t.write('\r');
    await t.waitFor('remembered 2 of 3 proposed item(s)', { from: mark });
    const list = t.mark();
    t.line(':memory list');
    await t.waitFor('#2  (pref) answer tersely, in English', { from: list });
    expect(t.text.slice(list)).toContain('#1  (fact) the build uses pnpm');
    expect(t.text.slice(list)).not.toContain('(context)');
    t.line(':quit');
    await t.exited;
  } finally {
    t.kill();
  }
});

it(':memory summarize asks the memory.summarizer_model preset, not context.summarizer_model', async () => {
  h.writeConfig({
    models: { fast: { endpoint: server.url, model: 'm' }, small: { endpoint: server.url, model: 'small-m' } },
    context: { summarizer_model: 'fast' },
    memory: { summarizer_model: 'small' },
  });
  server.enqueue(textReply(['Noted.']), textReply(['(fact): the build uses pnpm']));
  const t = PtySession.start({ cwd: h.cwd, env: h.env });
  try {
    await t.waitFor('[aish:fast]> ');
    t.line('I build with pnpm');
    await t.waitFor('Noted.');
    const mark = t.mark();
    t.line(':memory summarize');
    await t.waitFor('remember (fact) the build uses pnpm? [y/N/e] ', { from: mark });
    t.write('n');
    await t.waitFor('remembered 0 of 1 proposed item(s)', { from: mark });
    expect(server.requests.map((r) => r.body.model)).toEqual(['m', 'small-m']);
    t.line(':quit');
    await t.exited;
  } finally {
    t.kill();
  }
});
