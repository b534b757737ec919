// The meta commands in docs/usage.md: every command of the table :help is drawn from has its row.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { MetaCommand } from '../../src/meta/types.js';
import { ROOT } from '../support/aish-env.js';

it('docs/usage.md has a row for every meta command', async () => {
  const dir = path.join(ROOT, 'src', 'meta');
  const names: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const mod = (await import(path.join(dir, file))) as Record<string, unknown>;
    for (const [key, value] of Object.entries(mod)) {
      if (key.endsWith('Commands') && Array.isArray(value)) names.push(...(value as MetaCommand[]).map((c) => c.name));
    }
  }
  expect(names).toContain('copy');
  expect(names).toContain('edit');
  const usage = readFileSync(path.join(ROOT, 'docs', 'usage.md'), 'utf8');
  const table = usage.slice(usage.indexOf('## Meta commands'));
  const missing = names.filter((name) => !new RegExp(`^\\| \`:${name}[\` ,]`, 'm').test(table));
  expect(missing).toEqual([]);
});
