// The meta commands in docs/usage.md: every command of the table :help is drawn from has its row.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { CommandInfo } from '../../src/meta/types.js';
import { ROOT } from '../support/aish-env.js';

it('docs/usage.md has a row for every meta command', async () => {
  const dir = path.join(ROOT, 'src', 'meta');
  const names: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const mod = (await import(path.join(dir, file))) as Record<string, unknown>;
    for (const [key, value] of Object.entries(mod)) {
      if (key.endsWith('Commands') && Array.isArray(value)) names.push(...(value as CommandInfo[]).map((c) => c.name));
    }
  }
  expect(names).toContain('copy');
  expect(names).toContain('edit');
  const usage = readFileSync(path.join(ROOT, 'docs', 'usage.md'), 'utf8');
  const table = usage.slice(usage.indexOf('## Meta commands'));
  const missing = names.filter((name) => !new RegExp(`^\\| \`:${name}[\` ,]`, 'm').test(table));
  expect(missing).toEqual([]);
});

it('the docs show the default prompt, [aish:<preset>]> (with ↻ or ⚡ where they say so), at the start of a line', () => {
  const files = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((f) => path.join('docs', f))].filter((f) => f.endsWith('.md'));
  const wrong: string[] = [];
  for (const file of files) {
    for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
      const prompt = /^(\S*\]>) /.exec(line)?.[1];
      if (prompt && !/^\[aish:[\w-]+( ↻)?( ⚡)?\]>$/.test(prompt)) wrong.push(`${file}: ${line}`);
    }
  }
  expect(wrong).toEqual([]);
});
