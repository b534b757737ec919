// config.example.ts is the reference for every key: it must load and it must mention each key.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultModels } from '../../src/config/default-models.js';
import { readConfigData, readConfigFile } from '../../src/config/load.js';
import { rawConfigSchema, resolveConfig } from '../../src/config/schema.js';
import { makeHome } from '../support/aish-env.js';
import { runAish } from '../support/run-aish.js';
import { ROOT } from '../support/aish-env.js';

const example = readFileSync(path.join(ROOT, 'config.example.ts'), 'utf8');

/** Every key of a valibot object schema, nested ones dotted, looking through optional and pipe. */
function keysOf(schema: unknown, prefix = ''): string[] {
  let s = schema as { wrapped?: unknown; pipe?: unknown[]; entries?: Record<string, unknown> } | undefined;
  while (s?.wrapped || s?.pipe) s = (s.wrapped ?? s.pipe!.find((item) => (item as typeof s)?.entries) ?? s.pipe![0]) as typeof s;
  if (!s?.entries) return [];
  return Object.entries(s.entries).flatMap(([key, child]) => [`${prefix}${key}`, ...keysOf(child, `${prefix}${key}.`)]);
}

describe('config.example.ts', () => {
  // keysOf reads the schema library's objects: one that changes them must not leave it finding none.
  it('finds the keys of the schema, nested ones too', () => {
    expect(keysOf(rawConfigSchema)).toEqual(expect.arrayContaining(['models', 'shell.confirm_cmd', 'context.project.max_chars', 'norris.unsandboxed']));
  });

  it.each(keysOf(rawConfigSchema))('mentions %s', (key) => {
    const leaf = key.split('.').pop()!;
    expect(example).toMatch(new RegExp(`\\b${leaf}:`));
  });

  // The seed put tool results in front of the next user turn; the code keeps them where the tool
  // turns were (src/context/messages.ts), and the example must say what the code does.
  it('describes use_tool_role = false as the code does it: a user message where the tool turns were', () => {
    const said = example.slice(example.indexOf('token_budget:'), example.indexOf('summarize_on_evict:'));
    expect(said).toMatch(/\buse_tool_role:/);
    expect(said).not.toMatch(/prefix of the next user turn/);
    expect(said).toMatch(/\[tool: name\]/);
    expect(said).toMatch(/where the tool turns were/);
  });

  it('changes nothing: loading it as it is resolves to the same config as no config file', async () => {
    const data = await readConfigData(readConfigFile(path.join(ROOT, 'config.example.ts')), path.join(ROOT, 'src', 'config', 'define.ts'));
    for (const env of [{}, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_MODEL: 'qwen3' }]) {
      const fromExample = resolveConfig(data, defaultModels(env));
      const fromNothing = resolveConfig({}, defaultModels(env));
      expect(fromExample.ok).toBe(true);
      expect(fromExample).toEqual(fromNothing);
    }
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
