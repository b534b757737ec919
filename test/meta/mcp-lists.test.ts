// Tab candidates from a server's cached resource list: URIs, templates up to their first variable,
// and never a URI that would not show (or type back) as it is; what `:mcp read` shows of a long text.

import { describe, expect, it } from 'vitest';
import type { McpSession } from '../../src/mcp/session.js';
import { readResource, uriCandidates, type McpListsPort } from '../../src/meta/mcp-lists.js';

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

describe(':mcp read (issue 36)', () => {
  /** A port whose server answers `text` for every URI, and what the person was shown. */
  function port(text: string) {
    const shown: { info: string[]; status: string[] } = { info: [], status: [] };
    const ctx = {
      mcp: { readResource: async (_alias: string, uri: string) => [{ uri, mimeType: 'text/javascript', text }] },
      render: { info: (s: string) => shown.info.push(s), status: (s: string) => shown.status.push(s) },
    } as unknown as McpListsPort;
    return { ctx, shown };
  }
  const signal = new AbortController().signal;
  const minified = `HEAD${'x'.repeat(1_200_000)}TAIL`;

  it('shows a long text capped head and tail, and says how to get all of it', async () => {
    const { ctx, shown } = port(minified);
    await readResource(ctx, ['app:ui://bundle.js'], signal);
    expect(shown.info).toHaveLength(1);
    expect(shown.info[0]!.length).toBeLessThan(16_100);
    expect(shown.info[0]).toMatch(/^HEAD[\s\S]*chars cut by aish[\s\S]*TAIL$/);
    expect(shown.status).toEqual([
      'app:ui://bundle.js (text/javascript)',
      'showed 16000 of 1200008 chars (head and tail); :mcp read app:ui://bundle.js --all shows all of it',
    ]);
  });

  it('--all shows the whole text, before or after the target', async () => {
    for (const args of [['app:ui://bundle.js', '--all'], ['--all', 'app:ui://bundle.js']]) {
      const { ctx, shown } = port(minified);
      await readResource(ctx, args, signal);
      expect(shown.info).toEqual([minified]);
      expect(shown.status).toEqual(['app:ui://bundle.js (text/javascript)']);
    }
  });

  it('a short text is shown as it is, with no note', async () => {
    const { ctx, shown } = port('short\n');
    await readResource(ctx, ['app:ui://a.txt'], signal);
    expect(shown.info).toEqual(['short']);
    expect(shown.status).toEqual(['app:ui://a.txt (text/javascript)']);
  });

  it('another flag is a usage error', async () => {
    await expect(readResource(port('x').ctx, ['app:ui://a', '--head'], signal)).rejects.toThrow('usage: :mcp read <alias>:<uri> [--all]');
  });
});
