// A server's prompt as the user turn, a resource's parts and a prompt's key=value arguments (pure).

import { describe, expect, it } from 'vitest';
import { blobSummary, missingArguments, promptArguments, promptTurnText, resourceParts } from '../../src/mcp/server-content.js';
import type { McpPrompt } from '../../src/mcp/server-lists.js';

const greet: McpPrompt = { name: 'greet', arguments: [{ name: 'name', required: true }, { name: 'style', required: false }] };

describe('promptTurnText', () => {
  it('keeps text, flattens an embedded resource as a tool result does, summarises an image, marks the assistant', () => {
    const png = Buffer.alloc(5 * 1024, 1).toString('base64');
    const { text, summarised } = promptTurnText({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Look at this:' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://notes', mimeType: 'text/plain', text: 'line one\nline two' } } },
        { role: 'user', content: { type: 'image', data: png, mimeType: 'image/png' } },
        { role: 'assistant', content: { type: 'text', text: 'Seen.' } },
      ],
    });
    expect(text).toBe('Look at this:\n\n[resource demo://notes (text/plain)]\nline one\nline two\n\n[image image/png, 5 KB]\n\n[assistant]\nSeen.');
    expect(summarised).toEqual(['image']);
  });
});

describe('resourceParts', () => {
  it('keeps text and summarises a blob in one line', () => {
    const blob = Buffer.alloc(12 * 1024).toString('base64');
    expect(
      resourceParts({
        contents: [
          { uri: 'a://t', text: 'hello' },
          { uri: 'a://b', mimeType: 'image/png', blob },
        ],
      }),
    ).toEqual([
      { uri: 'a://t', text: 'hello' },
      { uri: 'a://b', mimeType: 'image/png', summary: '[blob image/png, 12 KB]' },
    ]);
    expect(blobSummary(undefined, 10)).toBe('[blob unknown type, 10 B]');
  });
});

describe('promptArguments', () => {
  it.each<[string[], Record<string, string> | string]>([
    [['name=Ada'], { name: 'Ada' }],
    [['name=New York', 'style=a=b'], { name: 'New York', style: 'a=b' }],
    [['name='], { name: '' }],
    [['Ada'], 'ev:greet: give arguments as key=value (not "Ada")'],
    [['=x'], 'ev:greet: give arguments as key=value (not "=x")'],
    [['nme=Ada'], 'ev:greet has no argument nme (its arguments: name, style)'],
    [['name=a', 'name=b'], 'ev:greet: name given twice'],
  ])('%j', (words, expected) => {
    if (typeof expected === 'string') expect(() => promptArguments(greet, words, 'ev:greet')).toThrow(expected);
    else expect(promptArguments(greet, words, 'ev:greet')).toEqual(expected);
  });

  it('names the required arguments not given', () => {
    expect(missingArguments(greet, {})).toEqual(['name']);
    expect(missingArguments(greet, { name: 'x' })).toEqual([]);
    expect(() => promptArguments({ name: 'p', arguments: [] }, ['a=1'], 'ev:p')).toThrow('ev:p has no argument a (it takes none)');
  });
});
