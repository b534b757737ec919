// MCP resources and prompts on a terminal (issue 27), with server-everything over stdio: Tab after
// `@` offers the server's alias and after `@ev:` its resource URIs; `:prompt ev:` completes prompt
// names and argument names; a missing required argument is asked for, with the server's
// completion (`completion/complete`) on Tab.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { everythingStdio } from '../support/mcp-servers.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { KEY, PtySession } from '../support/pty.js';

let h: AishHome;
let server: ModelServer;
let t: PtySession;

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, mcp: { servers: { ev: everythingStdio() } } });
  t = PtySession.start({ cwd: h.cwd, env: h.env, cols: 160 });
  await t.waitFor('[aish:fast]> ');
  // The servers connect behind the prompt; Tab offers what is connected, so wait for it.
  t.line(':mcp list');
  await t.waitFor(/ev .* connected\n[\s\S]*\[aish:fast\]> $/);
});
afterEach(async () => {
  t.kill();
  await server.close();
  h.cleanup();
});

const userTurn = (n: number) => server.requests[n]!.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content as string;

/** Types `text` and waits for its echo. */
async function type(text: string): Promise<void> {
  const from = t.mark();
  t.write(text);
  await t.waitFor(text.slice(-3), { from });
}

/** Presses Tab and waits for `completed` (what the completion adds) to be echoed. */
async function tab(completed: string): Promise<void> {
  const from = t.mark();
  t.write(KEY.tab);
  await t.waitFor(completed, { from });
}

/** Ends the session with Ctrl-D at the prompt. */
async function quit(): Promise<void> {
  await t.waitFor(/\[aish:fast\]> $/);
  t.write(KEY.ctrlD);
  await t.exited;
}

describe('on a terminal', () => {
  it('Tab completes @ to the alias and @ev: to a resource URI; the resource reaches the request', async () => {
    server.enqueue(textReply(['read it']));
    await type('explain @e');
    await tab('v:');
    await type('demo://resource/static/document/arch');
    await tab('itecture.md');
    t.write(KEY.enter);
    await t.waitFor('read it');
    expect(userTurn(0)).toMatch(/^explain @ev:demo:\/\/resource\/static\/document\/architecture\.md\n\n\[resource: ev:demo:\/\/resource\/static\/document\/architecture\.md \(text\/markdown\)\]\n```\n# /);
    await quit();
  });

  it('Tab completes :prompt ev: with a prompt name and its arguments; a missing required one is asked for', async () => {
    server.enqueue(textReply(['weather answered']));
    await type(':prompt ev:arg');
    await tab('s-prompt');
    await type(' st');
    await tab('ate=');
    t.write('CA\r');
    await t.waitFor('[aish] ev:args-prompt needs city: ');
    t.write('Sacramento\r');
    await t.waitFor('weather answered');
    expect(userTurn(0)).toBe("What's weather in Sacramento, CA?");
    await quit();
  });

  it('the question for a missing argument completes from the server on Tab', async () => {
    server.enqueue(textReply(['promoted']));
    t.line(':prompt ev:completable-prompt');
    await t.waitFor('[aish] ev:completable-prompt needs department: ');
    await type('Eng');
    await tab('ineering');
    t.write(KEY.enter);
    await t.waitFor('[aish] ev:completable-prompt needs name: ');
    await type('Al');
    await tab('ice');
    t.write(KEY.enter);
    await t.waitFor('promoted');
    expect(userTurn(0)).toBe('Please promote Alice to the head of the Engineering team.');
    await quit();
  });

  it('Tab completes :mcp read ev: with a URI; the resource is shown, the model is not asked', async () => {
    await type(':mcp read ev:demo://resource/static/document/struc');
    await tab('ture.md');
    const from = t.mark();
    t.write(KEY.enter);
    await t.waitFor('[aish] ev:demo://resource/static/document/structure.md (text/markdown)', { from });
    await quit();
    expect(server.requests).toHaveLength(0);
  });

  it('Ctrl-C at the question cancels: nothing is sent', async () => {
    t.line(':prompt ev:args-prompt');
    await t.waitFor('[aish] ev:args-prompt needs city: ');
    const from = t.mark();
    t.write(KEY.ctrlC);
    await t.waitFor('[aish:fast]> ', { from });
    expect(server.requests).toHaveLength(0);
    await quit();
  });
});
