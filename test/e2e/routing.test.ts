// Routing, cloud fallback and summaries end to end: a failing "local" and a working "cloud"
// loopback server, asserting which server received which request.

import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer, textReply, toolCallReply, type ScriptedResponse } from '../support/model-server.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let local: ModelServer;
let cloud: ModelServer;

beforeEach(async () => {
  h = makeHome();
  local = await ModelServer.start();
  cloud = await ModelServer.start();
});
afterEach(async () => {
  await Promise.all([local.close(), cloud.close()]);
  h.cleanup();
});

function writeConfig(extra: { localEndpoint?: string; routing?: object; context?: object; timeout_ms?: number; models?: object; mcp?: object } = {}) {
  h.writeConfig({
    models: {
      fast: { endpoint: extra.localEndpoint ?? local.url, model: 'local-model', timeout_ms: extra.timeout_ms ?? 60_000 },
      cloud: { endpoint: cloud.url, model: 'cloud-model' },
      ...extra.models,
    },
    routing: { cloud_fallback: true, fallback_model: 'cloud', ...extra.routing },
    ...(extra.context ? { context: extra.context } : {}),
    ...(extra.mcp ? { mcp: extra.mcp } : {}),
  });
}

const run = (stdin: string) => runAish({ stdin, cwd: h.cwd, env: h.env });

async function closedPortUrl(): Promise<string> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/v1`;
}

describe('cloud fallback: eligible failures retry once on the fallback preset', () => {
  it.each<[string, ScriptedResponse, RegExp]>([
    ['HTTP 503', { type: 'raw', status: 503, body: 'overloaded' }, /local fast failed \(HTTP 503: overloaded\); retrying via cloud/],
    ['HTTP 502', { type: 'raw', status: 502, body: '' }, /local fast failed \(HTTP 502: Bad Gateway\); retrying via cloud/],
    ['HTTP 404 model_not_found', { type: 'raw', status: 404, body: '{"error":{"code":"model_not_found","message":"model local-model not found"}}' }, /local fast failed \(HTTP 404: .*model_not_found.*\); retrying via cloud/],
    ['HTTP 408', { type: 'raw', status: 408, body: 'request timeout' }, /local fast failed \(HTTP 408: request timeout\); retrying via cloud/],
  ])('%s', async (_name, failure, status) => {
    writeConfig();
    local.enqueue(failure);
    cloud.enqueue(textReply(['from the cloud']));
    const r = await run('hello\n');
    expect(r.stderr).toMatch(status);
    expect(r.stdout).toContain('from the cloud');
    expect(local.requests).toHaveLength(1);
    expect(cloud.requests).toHaveLength(1);
    expect(cloud.requests[0]!.body.model).toBe('cloud-model');
    expect(cloud.requests[0]!.body.messages).toEqual(local.requests[0]!.body.messages);
  });

  it('with a cloud preset and no fallback_model, the fallback goes to cloud (seed 002 default)', async () => {
    h.writeConfig({
      models: { fast: { endpoint: local.url, model: 'local-model' }, cloud: { endpoint: cloud.url, model: 'cloud-model' } },
      routing: { cloud_fallback: true },
    });
    local.enqueue({ type: 'raw', status: 503, body: 'overloaded' });
    cloud.enqueue(textReply(['from the cloud']));
    const r = await run('hello\n');
    expect(r.stderr).toMatch(/local fast failed \(HTTP 503: overloaded\); retrying via cloud/);
    expect(r.stdout).toContain('from the cloud');
  });

  it('connection refused', async () => {
    writeConfig({ localEndpoint: await closedPortUrl() });
    cloud.enqueue(textReply(['cloud answer']));
    const r = await run('hello\n');
    expect(r.stderr).toContain('[aish] local fast failed (Connection refused); retrying via cloud');
    expect(r.stdout).toContain('cloud answer');
  });

  it('host not resolved', async () => {
    writeConfig({ localEndpoint: 'http://nonexistent.invalid/v1' });
    cloud.enqueue(textReply(['cloud answer']));
    const r = await run('hello\n');
    expect(r.stderr).toContain("[aish] local fast failed (Couldn't resolve host); retrying via cloud");
    expect(cloud.requests).toHaveLength(1);
  });

  it('timeout', async () => {
    writeConfig({ timeout_ms: 300 });
    local.enqueue({ type: 'stall' });
    cloud.enqueue(textReply(['cloud answer']));
    const r = await run('hello\n');
    expect(r.stderr).toContain('[aish] local fast failed (Timeout was reached); retrying via cloud');
    expect(cloud.requests).toHaveLength(1);
  });
});

describe('cloud fallback: never for these', () => {
  it.each<[string, ScriptedResponse, string]>([
    ['HTTP 400', { type: 'raw', status: 400, body: 'bad request' }, 'transport: HTTP 400: bad request'],
    ['HTTP 401', { type: 'raw', status: 401, body: 'unauthorized' }, 'transport: HTTP 401: unauthorized'],
    ['HTTP 403', { type: 'raw', status: 403, body: 'forbidden' }, 'transport: HTTP 403: forbidden'],
    ['an api: error', { type: 'sse', events: [{ error: { message: 'context length exceeded' } }] }, 'api: context length exceeded'],
    ['a decode: error', { type: 'raw', status: 200, body: '<html>login</html>', headers: { 'content-type': 'text/html' } }, 'decode: '],
    [
      'a stream that fails after text',
      { type: 'close-mid', body: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'partial' } }] })}\n\ndata: {"choices":[{"ind` },
      'transport: ',
    ],
  ])('%s', async (_name, failure, message) => {
    writeConfig();
    local.enqueue(failure);
    cloud.enqueue(textReply(['must not be asked']));
    const r = await run('hello\n');
    expect(r.stderr).toContain(`[aish] ${message}`);
    expect(r.stderr).not.toContain('retrying via');
    expect(cloud.requests).toHaveLength(0);
  });

  it(':fallback off turns it off at runtime', async () => {
    writeConfig();
    local.enqueue({ type: 'raw', status: 503, body: 'down' });
    const r = await run(':fallback off\nhello\n');
    expect(r.stderr).toContain('[aish] transport: HTTP 503: down');
    expect(cloud.requests).toHaveLength(0);
  });

  it('one hop only: a failing fallback is reported, not retried', async () => {
    writeConfig();
    local.enqueue({ type: 'raw', status: 503, body: 'down' });
    cloud.enqueue({ type: 'raw', status: 503, body: 'also down' });
    const r = await run('hello\n');
    expect(r.stderr).toContain('retrying via cloud');
    expect(r.stderr).toContain('[aish] transport: HTTP 503: also down');
    expect(local.requests).toHaveLength(1);
    expect(cloud.requests).toHaveLength(1);
  });
});

describe('routing', () => {
  const codeQuestion = 'fix this function:\n```python\ndef add(a, b):\n    return a - b\n```';

  it('routes a code request to the code preset for the whole tool sub-loop, once per request', async () => {
    writeConfig({ routing: { auto: true, classes: { code: 'cloud' }, cloud_fallback: false }, mcp: { auto_approve: ['nope__*'] } });
    cloud.enqueue(toolCallReply([{ id: 't1', name: 'nope__x', arguments: '{}' }]), textReply(['fixed']));
    local.enqueue(textReply(['plain']));
    const r = await run(`:ask ${codeQuestion.replace(/\n/g, ' ')}\nhello there\n:model\n`);
    expect(r.stderr.match(/\[aish\] routed to cloud/g)).toHaveLength(1);
    expect(cloud.requests).toHaveLength(2);
    expect(local.requests).toHaveLength(1);
    expect(local.requests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'hello there' });
    expect(r.stdout).toContain('fast: local-model at');
  });

  it('routing off (the default) never routes', async () => {
    writeConfig({ routing: { classes: { code: 'cloud' }, cloud_fallback: false } });
    local.enqueue(textReply(['local']));
    await run(`:ask ${codeQuestion.replace(/\n/g, ' ')}\n`);
    expect(cloud.requests).toHaveLength(0);
    expect(local.requests).toHaveLength(1);
  });

  it(':route on / check / classes at runtime', async () => {
    writeConfig({ routing: { classes: { code: 'cloud' }, cloud_fallback: false } });
    cloud.enqueue(textReply(['routed']));
    const r = await run(`:route check ${codeQuestion.replace(/\n/g, ' ')}\n:route on\n:route classes\n:ask ${codeQuestion.replace(/\n/g, ' ')}\n`);
    expect(r.stdout).toMatch(/^code: .* → fast \(routing is off\)$/m);
    expect(r.stdout).toMatch(/routing is on\n {2}code {6}→ cloud/);
    expect(cloud.requests).toHaveLength(1);
  });
});

describe('summaries on eviction', () => {
  const summarizer = (extra: object = {}) => ({
    localEndpoint: local.url,
    routing: { cloud_fallback: false },
    context: { max_turns: 2, summarize_on_evict: true, summarizer_model: 'cloud', ...extra },
  });

  it('the evicted exchange goes to the summarizer and the summary into the next system message', async () => {
    writeConfig(summarizer());
    local.enqueue(textReply(['a1']), textReply(['a2']));
    cloud.enqueue(textReply(['User asked q1; got a1.']));
    const r = await run('q1\nq2\n:cost\n');
    expect(r.stderr).toContain('[context] oldest 2 turns evicted');
    // The summary is counted with the conversation's requests, under its purpose.
    expect(r.stdout).toMatch(/^summary +1 /m);
    expect(r.stdout).toMatch(/^chat +2 /m);
    expect(r.stdout).toMatch(/^total +3 /m);
    const summaryRequest = cloud.requests[0]!.body;
    expect(summaryRequest.max_tokens).toBe(300);
    expect(JSON.stringify(summaryRequest.messages)).toContain('q1');
    expect(JSON.stringify(summaryRequest.messages)).toContain('a1');
    const second = local.requests[1]!.body.messages;
    expect(second[0].content).toContain('[earlier conversation summary]\nUser asked q1; got a1.');
    expect(second.slice(1)).toEqual([{ role: 'user', content: 'q2' }]);
    // saved in the session and restored on resume
    const dir = path.join(h.stateDir, 'sessions');
    const log = readFileSync(path.join(dir, readdirSync(dir)[0]!), 'utf8');
    expect(log).toContain('"event":"summary"');
    local.enqueue(textReply(['a3']));
    await runAish({ stdin: 'q3\n', args: ['--resume'], cwd: h.cwd, env: h.env });
    expect(local.requests.at(-1)!.body.messages[0].content).toContain('User asked q1; got a1.');
  });

  it('a summary past max_summary_chars is summarized again', async () => {
    writeConfig(summarizer({ max_summary_chars: 50 }));
    local.enqueue(textReply(['a1']), textReply(['a2']));
    cloud.enqueue(textReply(['x'.repeat(200)]), textReply(['short again']));
    await run('q1\nq2\n');
    expect(cloud.requests).toHaveLength(2);
    expect(JSON.stringify(cloud.requests[1]!.body.messages)).toContain('x'.repeat(200));
    expect(local.requests[1]!.body.messages[0].content).toContain('[earlier conversation summary]\nshort again');
  });

  it('a failing summarizer falls back to silent eviction with one status line', async () => {
    writeConfig(summarizer());
    local.enqueue(textReply(['a1']), textReply(['a2']));
    cloud.enqueue({ type: 'raw', status: 500, body: 'no' });
    const r = await run('q1\nq2\n');
    expect(r.stderr.match(/summary failed/g)).toHaveLength(1);
    expect(local.requests[1]!.body.messages[0].content).not.toContain('[earlier conversation summary]');
    expect(local.requests[1]!.body.messages.slice(1)).toEqual([{ role: 'user', content: 'q2' }]);
  });
});
