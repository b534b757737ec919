// Tab for `:prompt <alias>:<name> [key=value ...]`: prompt names after the alias, argument names
// after the name, and the server's values for an argument, never one that would not show as it is.

import { expect, it } from 'vitest';
import { completeServerPrompt, type ServerPromptPort } from '../../src/meta/server-prompt.js';

const asked: Array<[string, string, string, Record<string, string>]> = [];
const lib = {
  alias: 'lib',
  lists: {
    offersPrompts: true,
    ready: async () => {},
    prompts: [
      { name: 'greet', arguments: [{ name: 'name', required: true }, { name: 'style', required: false }] },
      { name: 'go\x1b]0;x\x07', arguments: [] },
      { name: 'grow', arguments: [] },
    ],
  },
  async completeArgument(prompt: string, argument: string, value: string, filled: Record<string, string>) {
    asked.push([prompt, argument, value, filled]);
    return ['Alice', 'Alan', 'Al\x1b[2J', 'Al Capone'];
  },
};
const ctx = { mcp: { connected: () => [lib], knows: (a: string) => a === 'lib' } } as unknown as ServerPromptPort;

it.each<[string, string, string[]]>([
  ['l', 'l', ['lib:']],
  ['lib:g', 'lib:g', ['lib:greet', 'lib:grow']],
  ['', 'lib:greet ', ['name=', 'style=']],
  ['s', 'lib:greet name=Al s', ['style=']],
  ['name=Al', 'lib:greet style=warm name=Al', ['name=Alice', 'name=Alan']],
  ['x', 'other:greet x', []],
])('%j in %j', async (prefix, args, expected) => {
  expect(await completeServerPrompt(ctx, prefix, args)).toEqual(expected);
});

it('asks the server with the arguments already given', async () => {
  asked.length = 0;
  await completeServerPrompt(ctx, 'name=A', 'lib:greet style=warm name=A');
  expect(asked).toEqual([['greet', 'name', 'A', { style: 'warm' }]]);
});
