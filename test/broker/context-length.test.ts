// How many tokens a preset's server holds: the parsers over recorded answers of llama.cpp, vLLM,
// OpenRouter and Ollama, and the questions asked of the loopback model server.

import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askContextLength, contextLengthUrls, fromLlamaProps, fromModelList, fromOllamaShow } from '../../src/broker/context-length.js';
import { llamaProps, ModelServer, ollamaShow, openRouterModels, vllmModels, type ContextAnswers } from '../support/model-server.js';

describe('contextLengthUrls', () => {
  it.each([
    ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/props', 'http://127.0.0.1:8080/v1/models', 'http://127.0.0.1:8080/api/show'],
    ['http://localhost:11434', 'http://localhost:11434/props', 'http://localhost:11434/v1/models', 'http://localhost:11434/api/show'],
    ['https://openrouter.ai/api/v1/', 'https://openrouter.ai/api/props', 'https://openrouter.ai/api/v1/models', 'https://openrouter.ai/api/api/show'],
    ['http://h/v1/chat/completions?api-version=1', 'http://h/props', 'http://h/v1/models', 'http://h/api/show'],
  ])('%s', (endpoint, props, models, show) => {
    expect(contextLengthUrls(endpoint)).toEqual({ props, models, show });
  });
});

describe('the answers', () => {
  it.each<[string, number | null]>([
    ['llama.cpp', fromLlamaProps(llamaProps(8192))],
    ['llama.cpp, an older n_ctx at the top', fromLlamaProps({ n_ctx: 8192 })],
    ['vLLM', fromModelList(vllmModels('Qwen/Qwen2.5-7B-Instruct', 8192), 'Qwen/Qwen2.5-7B-Instruct')],
    ['OpenRouter', fromModelList(openRouterModels('openai/gpt-4o', 8192), 'openai/gpt-4o')],
    ['Ollama model_info', fromOllamaShow(ollamaShow(8192))],
    ['Ollama num_ctx before model_info', fromOllamaShow(ollamaShow(32768, 8192))],
  ])('%s', (_name, length) => {
    expect(length).toBe(8192);
  });

  it.each<[string, number | null]>([
    ['a model list without the model', fromModelList(vllmModels('other', 8192), 'mine')],
    ['an OpenAI model list (no lengths)', fromModelList({ object: 'list', data: [{ id: 'gpt-4o', object: 'model', owned_by: 'openai' }] }, 'gpt-4o')],
    ['props with a string n_ctx', fromLlamaProps({ n_ctx: '8192' })],
    ['props with a negative n_ctx', fromLlamaProps({ default_generation_settings: { n_ctx: -1 } })],
    ['a length past belief', fromModelList(vllmModels('m', 1e12), 'm')],
    ['not an object', fromOllamaShow('<html>')],
  ])('%s: none', (_name, length) => {
    expect(length).toBeNull();
  });
});

describe('askContextLength against the loopback server', () => {
  let server: ModelServer;
  beforeEach(async () => {
    server = await ModelServer.start();
  });
  afterEach(async () => {
    await server.close();
  });
  const model = () => ({ endpoint: server.url, model: 'test-model', key_env: 'TEST_KEY', headers: {}, temperature: 0.2, timeout_ms: 60_000 });

  it.each<[string, ContextAnswers, number | null]>([
    ['llama.cpp', { props: llamaProps(4096), models: { object: 'list', data: [{ id: 'test-model', meta: { n_ctx_train: 32768 } }] } }, 4096],
    ['vLLM', { models: vllmModels('test-model', 32768) }, 32768],
    ['OpenRouter', { models: openRouterModels('test-model', 128000) }, 128000],
    ['Ollama', { show: ollamaShow(40960) }, 40960],
    ['a server that says nothing', {}, null],
  ])('%s', async (_name, answers, expected) => {
    server.context = answers;
    expect(await askContextLength(model(), { TEST_KEY: 'k-123' })).toBe(expected);
    // The preset's key goes with the questions; Ollama is asked about the preset's model.
    expect(server.contextQuestions.map((q) => `${q.method} ${q.path}`).sort()).toEqual(['GET /props', 'GET /v1/models', 'POST /api/show']);
    expect(server.contextQuestions.every((q) => q.headers.authorization === 'Bearer k-123')).toBe(true);
    expect(server.contextQuestions.find((q) => q.path === '/api/show')?.body).toEqual({ model: 'test-model' });
    expect(server.requests).toEqual([]);
  });

  it('a closed port is null', async () => {
    const closed = model();
    await server.close();
    expect(await askContextLength(closed, {})).toBeNull();
    server = await ModelServer.start();
  });

  it('a server that takes the questions and never answers is null once the timeout ends them', async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as net.AddressInfo;
      expect(await askContextLength({ ...model(), endpoint: `http://127.0.0.1:${port}/v1` }, {}, { timeoutMs: 300 })).toBeNull();
    } finally {
      silent.close();
    }
  });
});
