// Tab after `@` in a line for the model: `@out` once a command ran, the kept blocks' numbers after
// `@out:` (never a private one's), and paths as before.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { BlockStore } from '../../src/blocks/block-store.js';
import type { Config } from '../../src/config/schema.js';
import { lineCompleter, type LineCompletionParts } from '../../src/repl/line-completion.js';

function completer(blocks: BlockStore) {
  const cwd = mkdtempSync(path.join(tmpdir(), 'aish-complete-'));
  writeFileSync(path.join(cwd, 'outline.md'), '');
  const shell = { cwd, env: {}, wordKind: async () => undefined, knownKind: () => undefined, complete: async () => null, routeContext: () => ({}) };
  const parts: LineCompletionParts = { config: { shell: { known_commands: [] } } as unknown as Config, commands: [], mcp: { connected: () => [] }, shell, blocks };
  return lineCompleter(parts);
}

it('offers @out with the paths once a command ran, and the blocks after @out:, newest first, never a private one', async () => {
  const blocks = new BlockStore({ privateCommands: ['pass *'], redact: (t) => t });
  expect(await completer(blocks)('what is @ou')).toEqual([['@outline.md'], '@ou']);
  blocks.add({ command: 'ls', cwd: '/', exitCode: 0, output: '' });
  blocks.add({ command: 'pass show x', cwd: '/', exitCode: 0, output: 'secret' });
  for (let i = 0; i < 10; i++) blocks.add({ command: `echo ${i}`, cwd: '/', exitCode: 0, output: `${i}` });
  const complete = completer(blocks);
  expect(await complete('what is @ou')).toEqual([['@out', '@outline.md'], '@ou']);
  expect(await complete('what is @out:')).toEqual([['@out:12', '@out:11', '@out:10', '@out:9', '@out:8', '@out:7', '@out:6', '@out:5', '@out:4', '@out:3', '@out:1'], '@out:']);
  expect(await complete('see @out:1')).toEqual([['@out:12', '@out:11', '@out:10', '@out:1'], '@out:1']);
});
