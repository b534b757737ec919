// config.example.ts is the reference for every key: it must load and it must mention each key.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawConfigSchema } from '../../src/config/schema.js';
import { makeHome } from '../support/aish-env.js';
import { runAish } from '../support/run-aish.js';
import { ROOT } from '../support/aish-env.js';

const example = readFileSync(path.join(ROOT, 'config.example.ts'), 'utf8');

/** Every key of a zod object schema, nested ones dotted, looking through optional and default. */
function keysOf(schema: unknown, prefix = ''): string[] {
  type Def = { innerType?: { _zod: { def: Def } }; shape?: Record<string, unknown> };
  let def = (schema as { _zod?: { def: Def } } | undefined)?._zod?.def;
  while (def?.innerType) def = def.innerType._zod.def;
  if (!def?.shape) return [];
  return Object.entries(def.shape).flatMap(([key, child]) => [`${prefix}${key}`, ...keysOf(child, `${prefix}${key}.`)]);
}

describe('config.example.ts', () => {
  it('finds the keys of the schema, nested ones too', () => {
    expect(keysOf(rawConfigSchema)).toEqual(expect.arrayContaining(['models', 'shell.confirm_cmd', 'context.project.max_chars', 'norris.unsandboxed']));
  });

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
