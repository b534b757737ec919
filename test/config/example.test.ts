// config.example.ts is the reference for every key: it must load and it must mention each key.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { rawConfigSchema } from '../../src/config/schema.js';
import { makeHome } from '../support/aish-env.js';
import { runAish } from '../support/run-aish.js';
import { ROOT } from '../support/aish-env.js';

const example = readFileSync(path.join(ROOT, 'config.example.ts'), 'utf8');

function keysOf(schema: z.core.$ZodType, prefix = ''): string[] {
  let s: any = schema;
  while (s?.def?.innerType || s?.def?.in) s = s.def.innerType ?? s.def.in;
  if (s?.def?.type !== 'object') return [];
  return Object.entries(s.def.shape as Record<string, z.core.$ZodType>).flatMap(([key, child]) => [
    `${prefix}${key}`,
    ...keysOf(child, `${prefix}${key}.`),
  ]);
}

describe('config.example.ts', () => {
  it.each(keysOf(rawConfigSchema))('mentions %s', (key) => {
    const leaf = key.split('.').pop()!;
    expect(example).toMatch(new RegExp(`\\b${leaf}:`));
  });

  it('is a valid config for the real program', async () => {
    const h = makeHome();
    try {
      const r = await runAish({ args: ['--config', path.join(ROOT, 'config.example.ts')], stdin: ':models\n', cwd: h.cwd, env: h.env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\* fast/m);
    } finally {
      h.cleanup();
    }
  });
});
