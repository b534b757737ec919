// What the preset models hand on besides replies: an askOnce error (an MCP server's sampling
// request sends it back to the server) is redacted like a request body.

import { afterEach, beforeEach, expect, it } from 'vitest';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig, type Config } from '../../src/config/schema.js';
import { Redactor } from '../../src/safety/redact.js';
import { secretShapeScan } from '../../src/secret-rules.js';
import { presetModels } from '../../src/turn/model-client.js';
import { fakeSecrets } from '../support/fake-secrets.js';
import { ModelServer } from '../support/model-server.js';

let server: ModelServer;
beforeEach(async () => {
  server = await ModelServer.start();
});
afterEach(async () => {
  await server.close();
});

it('askOnce rejects with the secret in an error body redacted', async () => {
  const ghp = fakeSecrets().find((s) => s.name === 'GitHub classic token')!.value;
  const r = resolveConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, default_model: 'fast' }, defaultModels({}));
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const config: Config = r.config;
  const { redact } = Redactor.forEnv({ env: () => ({}), config, shapes: secretShapeScan() });
  server.enqueue({ type: 'raw', status: 401, body: `{"error":{"message":"bad token ${ghp}"}}` });
  const asked = presetModels(config, {}, redact).askOnce('fast', [{ role: 'user', content: 'hi' }], { maxTokens: 5, timeoutMs: 10_000, purpose: 'sampling' });
  const err = await asked.then(() => null, (e: unknown) => e as Error);
  expect(err?.message).toMatch(/^transport: HTTP 401: .*\[redacted:github-token\]/);
  expect(err?.message).not.toContain(ghp);
});
