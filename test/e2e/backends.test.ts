// Backends as people run them, end to end: the built program from a pipe against the loopback
// model server answering as Ollama does for a model without tool support.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;
beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  h.writeConfig({ models: { fast: { endpoint: server.url, model: 'gemma3:1b' } } });
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

describe('a backend whose model takes no tools', () => {
  it('is asked again without them, said once; CMD: lines still work and later questions go without tools', async () => {
    server.enqueue(
      { type: 'raw', status: 400, body: '{"error":{"message":"registry.ollama.ai/library/gemma3:1b does not support tools","type":"api_error","param":null,"code":null}}' },
      textReply(['Try this:\nCMD: echo from-the-model']),
      textReply(['Second answer.']),
    );
    const r = await runAish({ stdin: 'list the files\nand again\n', cwd: h.cwd, env: h.env });
    expect(r.stderr.match(/\[aish\] fast: the model takes no tools; asking without them/g)).toHaveLength(1);
    expect(r.stdout).toContain('Second answer.');
    expect(r.stderr + r.stdout).toContain("execute 'echo from-the-model'");
    expect(server.requests.map((q) => Boolean(q.body.tools))).toEqual([true, false, false]);
    expect(r.stderr).not.toMatch(/does not support tools/);
  });
});
