// Tab candidates from a server's cached resource list: URIs, templates up to their first variable,
// and never a URI that would not show (or type back) as it is.

import { expect, it } from 'vitest';
import type { McpSession } from '../../src/mcp/session.js';
import { uriCandidates } from '../../src/meta/mcp-lists.js';

const session = {
  lists: {
    resources: [
      { uri: 'demo://doc/a.md', name: 'a' },
      { uri: 'demo://doc/b.md', name: 'b' },
      { uri: 'demo://doc/\x1b]0;pwned\x07', name: 'evil' },
      { uri: 'demo://doc/\u202eevil', name: 'bidi' },
      { uri: 'demo://doc/with space', name: 'space' },
    ],
    templates: [{ uriTemplate: 'demo://item/{id}', name: 'item' }, { uriTemplate: 'demo://doc/{x}', name: 'same prefix' }, { uriTemplate: '{whole}', name: 'empty prefix' }],
  },
} as unknown as McpSession;

it.each<[string, string[]]>([
  ['', ['demo://doc/', 'demo://doc/a.md', 'demo://doc/b.md', 'demo://item/']],
  ['demo://doc/a', ['demo://doc/a.md']],
  ['demo://i', ['demo://item/']],
  ['nope', []],
])('%j', (typed, expected) => {
  expect(uriCandidates(session, typed)).toEqual(expected);
});
