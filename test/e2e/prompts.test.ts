// Saved prompts through the real program: saved in one session, sent again in the next with
// arguments appended, listed, forgotten; the file is 0600 under aish's data dir.

import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe(':prompt', () => {
  it('a saved prompt never keeps a secret', async () => {
    server.enqueue(textReply(['ok']));
    await runAish({ cwd: h.cwd, env: { ...h.env, MY_API_TOKEN: 'prompt-secret-0006' }, stdin: 'check prompt-secret-0006 please\n:prompt save s\n' });
    const saved = readFileSync(path.join(h.home, '.local', 'share', 'aish', 'prompts.json'), 'utf8');
    expect(saved).not.toContain('prompt-secret-0006');
    expect(saved).toContain('[redacted:MY_API_TOKEN]');
  });

  it('saves the last question, sends it again in a later session with args, lists and forgets it', async () => {
    server.enqueue(textReply(['one']), textReply(['two']));
    const first = await runAish({ cwd: h.cwd, env: h.env, stdin: ':prompt save early\nreview the last commit for bugs\n:prompt save review\n' });
    expect(first.stderr).toContain('no question sent to the model yet');
    expect(first.stderr).toContain('[aish] saved prompt review');
    const file = path.join(h.home, '.local', 'share', 'aish', 'prompts.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ review: 'review the last commit for bugs' });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = await runAish({ cwd: h.cwd, env: h.env, stdin: ':prompt\n:prompt review and be brief\n:prompt forget review\n:prompt\n:prompt review\n' });
    expect(second.stdout).toContain('review  review the last commit for bugs');
    expect(server.requests[1]!.body.messages.at(-1).content).toBe('review the last commit for bugs and be brief');
    expect(second.stderr).toContain('[aish] forgot prompt review');
    expect(second.stdout).toContain('no saved prompts');
    expect(second.stderr).toContain('no saved prompt named review');
    expect(server.requests).toHaveLength(2);
  });
});
