// Suggestions from a model (`suggest.model`) in the built program on a terminal: a pause asks the
// loopback model, the rest of the line appears dim and italic, Right takes it, `:cost` counts the
// request as `suggest`; a line holding a secret is never sent; a failure is said once; off by default.

import { describe, expect, it } from 'vitest';
import { loopbackHome } from '../support/loopback-home.js';
import { fakeSecrets } from '../support/fake-secrets.js';
import { textReply } from '../support/model-server.js';
import { KEY } from '../support/pty.js';

const lb = loopbackHome();

const PROMPT = '[aish:fast]';
const IDLE_MS = 100;
/** The model's suggestion's style (terminal-reader.ts): dim and italic. */
const MODEL_STYLE = '\x1b[2;3m';
const MODEL_STYLE_END = '\x1b[22;23m';
const RIGHT = '\x1b[C';
const CTRL_U = '\x15';

/** Proving that nothing was asked takes time: several idle waits after the last key. */
const noAskWait = () => new Promise((r) => setTimeout(r, IDLE_MS * 5));

describe('suggestions from a model', () => {
  it('come after a pause, dim and italic; Right takes one; :cost counts them; a secret line is never sent', async () => {
    lb.home.writeConfig({ models: { fast: { endpoint: lb.server.url, model: 'm' } }, suggest: { model: true, idle_ms: IDLE_MS } });
    const ghp = fakeSecrets().find((s) => s.name === 'GitHub classic token')!;
    lb.server.enqueue(textReply(['echo hello wor', 'ld']));
    const t = lb.pty();
    await t.waitFor(PROMPT);

    t.write(`echo ${ghp.value}`);
    await t.waitFor(ghp.value.slice(-6));
    await noAskWait();
    expect(lb.server.requests).toHaveLength(0);

    t.write(`${CTRL_U}echo hel`);
    await lb.server.waitForRequests(1);
    const mark = t.raw.length;
    await t.waitFor('echo hello world');
    // What was typed plain, the rest in the model's style (drawn a character at a time).
    const drawn = t.raw.slice(mark);
    expect(drawn).toContain(`echo hel${MODEL_STYLE}l`);
    expect(drawn.replaceAll(MODEL_STYLE, '').replaceAll(MODEL_STYLE_END, '')).toContain('echo hello world');
    const { body } = lb.server.requests[0]!;
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'echo hel' });
    expect(body.messages[0].content).toContain(lb.home.cwd);
    expect(body.max_tokens).toBeLessThanOrEqual(128);
    expect(JSON.stringify(lb.server.requests)).not.toContain(ghp.value);

    t.write(RIGHT + KEY.enter);
    await t.waitFor(/╰─ exit 0/);
    expect(t.text).toMatch(/\nhello world\r?\n/);

    const before = t.mark();
    t.line(':cost');
    const cost = await t.waitFor(/^suggest +1 /m, { from: before });
    expect(cost).toMatch(/^fast +1 /m);
    expect(lb.server.requests).toHaveLength(1);
  });

  it('a failed request is said once, when the line is entered, not in the middle of it', async () => {
    lb.home.writeConfig({ models: { fast: { endpoint: lb.server.url, model: 'm' } }, suggest: { model: 'fast', idle_ms: IDLE_MS } });
    // No scripted response: the server answers 500.
    const t = lb.pty();
    await t.waitFor(PROMPT);
    t.write('echo one');
    await lb.server.waitForRequests(1);
    await noAskWait();
    expect(t.text).not.toContain('suggestions from fast failed');
    t.write(KEY.enter);
    await t.waitFor(/suggestions from fast failed \(transport: HTTP 500.*\); not said again this session\n╭─ echo one/);
    await t.waitFor(/╰─ exit 0/);
    t.write('echo two');
    await lb.server.waitForRequests(2);
    const mark = t.mark();
    t.write(KEY.enter);
    await t.waitFor(/╰─ exit 0/, { from: mark });
    expect(t.text.match(/suggestions from fast failed/g)).toHaveLength(1);
  });

  it('are off by default: a pause asks nothing', async () => {
    const t = lb.pty();
    await t.waitFor(PROMPT);
    t.write('echo hel');
    await t.waitFor('echo hel');
    await noAskWait();
    expect(lb.server.requests).toHaveLength(0);
  });
});
