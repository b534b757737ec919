import { describe, expect, it } from 'vitest';
import { chatCompletionsUrl } from '../../src/broker/endpoint.js';
import { BrokerError } from '../../src/broker/errors.js';

describe('chatCompletionsUrl', () => {
  it.each([
    ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['http://127.0.0.1:8080/v1/', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['http://127.0.0.1:8080/v1//', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['http://localhost:11434/v1/chat/completions', 'http://localhost:11434/v1/chat/completions'],
    ['http://localhost:11434/v1/chat/completions/', 'http://localhost:11434/v1/chat/completions'],
    ['https://openrouter.ai/api/v1', 'https://openrouter.ai/api/v1/chat/completions'],
    ['https://gateway.example/openai', 'https://gateway.example/openai/v1/chat/completions'],
    ['https://proxy.example/custom/chat/completions', 'https://proxy.example/custom/chat/completions'],
    ['https://x.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21', 'https://x.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21'],
    ['https://host.example/v1?key=a', 'https://host.example/v1/chat/completions?key=a'],
    ['  http://127.0.0.1:8080/v1  ', 'http://127.0.0.1:8080/v1/chat/completions'],
  ])('%s -> %s', (endpoint, url) => {
    expect(chatCompletionsUrl(endpoint)).toBe(url);
  });

  it.each([
    ['not a url', 'broker: endpoint is not a URL: "not a url"'],
    ['', 'broker: endpoint is not a URL: ""'],
    ['ftp://host/v1', 'broker: endpoint must be http:// or https://, got "ftp://host/v1"'],
  ])('refuses %j as a config problem', (endpoint, message) => {
    const call = () => chatCompletionsUrl(endpoint);
    expect(call).toThrow(BrokerError);
    expect(call).toThrow(message);
  });
});
