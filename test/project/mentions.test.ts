// @file and @alias:<uri> mentions: which words are mentions, what is attached, and the errors before anything is sent.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { attachMentions, findMentions, type ResourceReader } from '../../src/project/mentions.js';

const dir = mkdtempSync(path.join(tmpdir(), 'aish-mentions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(path.join(dir, 'src'));
writeFileSync(path.join(dir, 'src', 'a.ts'), Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n'));
writeFileSync(path.join(dir, 'notes.md'), '# Notes\nhello');
writeFileSync(path.join(dir, 'blob.bin'), Buffer.from([0x7f, 0x45, 0x00, 0x01]));
writeFileSync(path.join(dir, 'big.txt'), 'HEAD\n' + 'x'.repeat(10_000) + '\nTAIL');

describe('findMentions', () => {
  it.each<[string, object[]]>([
    ['explain @src/a.ts please', [{ path: 'src/a.ts' }]],
    ['@notes.md first', [{ path: 'notes.md' }]],
    ['lines @src/a.ts:10-12 only', [{ path: 'src/a.ts', lines: [10, 12] }]],
    ['mail me@example.com or user@host', []],
    ['two @a and @b and @a again', [{ path: 'a' }, { path: 'b' }]],
    ['no mentions here', []],
  ])('%j', (text, mentions) => {
    expect(findMentions(text)).toEqual(mentions);
  });
});

describe('attachMentions', () => {
  it('attaches a file after the line, and says so', async () => {
    const r = await attachMentions('what is in @notes.md?', dir, undefined, 16_000);
    expect(r.text).toBe('what is in @notes.md?\n\n[file: notes.md]\n# Notes\nhello');
    expect(r.notes).toEqual(['attached @notes.md (13 chars)']);
  });

  it('attaches lines 10 to 12 of a file', async () => {
    expect((await attachMentions('see @src/a.ts:10-12', dir, undefined, 16_000)).text).toBe('see @src/a.ts:10-12\n\n[file: src/a.ts, lines 10-12]\nline 10\nline 11\nline 12');
  });

  it('lists a directory', async () => {
    expect((await attachMentions('what is in @src/', dir, undefined, 16_000)).text).toBe('what is in @src/\n\n[directory: src/]\na.ts');
  });

  it('caps a big file head and tail', async () => {
    const r = await attachMentions('@big.txt', dir, undefined, 500);
    expect(r.text.length).toBeLessThan(1000);
    expect(r.text).toContain('HEAD');
    expect(r.text).toContain('TAIL');
    expect(r.notes[0]).toMatch(/capped at 500/);
  });

  it('does not attach a binary file, and says so', async () => {
    const r = await attachMentions('what is @blob.bin', dir, undefined, 16_000);
    expect(r.text).toBe('what is @blob.bin');
    expect(r.notes).toEqual(['@blob.bin looks binary: not attached']);
  });

  it('a missing file is a usage error', async () => {
    await expect(attachMentions('read @nope.txt', dir, undefined, 16_000)).rejects.toThrow(UsageError);
    await expect(attachMentions('read @nope.txt', dir, undefined, 16_000)).rejects.toThrow('@nope.txt: no such file or directory (nothing was sent)');
  });
});

describe('@alias:<uri> mentions', () => {
  const reads: string[] = [];
  const reader: ResourceReader = {
    knows: (alias) => alias === 'ev',
    async readResource(alias, uri) {
      reads.push(`${alias}:${uri}`);
      if (uri === 'demo://blob') return [{ uri, mimeType: 'image/png', summary: '[blob image/png, 12 KB]' }];
      if (uri === 'demo://gone') throw new UsageError('Resource demo://gone not found (JSON-RPC error -32002)');
      return [{ uri, mimeType: 'text/plain', text: 'has ``` inside' }];
    },
  };

  it.each<[string, object[]]>([
    ['see @ev:demo://a/b.md?', [{ path: 'ev:demo://a/b.md?', resource: { alias: 'ev', uri: 'demo://a/b.md' } }]],
    ['@ev:demo://x/{y} and @ev:file:///etc/hosts', [{ path: 'ev:demo://x/{y}', resource: { alias: 'ev', uri: 'demo://x/{y}' } }, { path: 'ev:file:///etc/hosts', resource: { alias: 'ev', uri: 'file:///etc/hosts' } }]],
    ['not a server @other:demo://x', [{ path: 'other:demo://x' }]],
    ['a file range @src/a.ts:1-2', [{ path: 'src/a.ts', lines: [1, 2] }]],
  ])('%j', (text, mentions) => {
    expect(findMentions(text, reader.knows)).toEqual(mentions);
  });

  it('attaches text in a fence longer than any backtick run, a blob as one line, in mention order', async () => {
    const r = await attachMentions('compare @ev:demo://t and @notes.md and @ev:demo://blob.', dir, undefined, 16_000, reader);
    expect(r.text).toBe(
      'compare @ev:demo://t and @notes.md and @ev:demo://blob.\n\n' +
        '[resource: ev:demo://t (text/plain)]\n````\nhas ``` inside\n````\n\n' +
        '[file: notes.md]\n# Notes\nhello\n\n' +
        '[resource: ev:demo://blob (image/png)]\n[blob image/png, 12 KB]',
    );
    expect(r.notes).toEqual(['attached @ev:demo://t (14 chars)', 'attached @notes.md (13 chars)', '@ev:demo://blob is binary: attached as [blob image/png, 12 KB]']);
  });

  it('a resource that cannot be read stops the line; an unknown alias is named', async () => {
    await expect(attachMentions('read @ev:demo://gone', dir, undefined, 16_000, reader)).rejects.toThrow(
      '@ev:demo://gone: Resource demo://gone not found (JSON-RPC error -32002) (nothing was sent)',
    );
    await expect(attachMentions('read @nosuch:demo://x', dir, undefined, 16_000, reader)).rejects.toThrow('@nosuch:demo://x: no such file, and no MCP server named nosuch (nothing was sent)');
  });
});
