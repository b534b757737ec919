// The broker's place in the dependency graph (STYLE.md): it knows nothing of MCP, tools or
// rendering, and the HTTP client and SSE parser load lazily so start-up does not pay for them.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/aish-env.js';

const dir = path.join(ROOT, 'src', 'broker');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

function imports(file: string): { specifier: string; lazy: boolean; typeOnly: boolean }[] {
  const text = readFileSync(path.join(dir, file), 'utf8');
  const found: { specifier: string; lazy: boolean; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(/^import\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm)) found.push({ specifier: m[2]!, lazy: false, typeOnly: Boolean(m[1]) });
  for (const m of text.matchAll(/import\('([^']+)'\)/g)) found.push({ specifier: m[1]!, lazy: true, typeOnly: false });
  return found;
}

describe('src/broker imports', () => {
  it.each(files)('%s stays inside its layer', (file) => {
    for (const { specifier, typeOnly } of imports(file)) {
      const allowed =
        specifier.startsWith('./') ||
        specifier === '../errors.js' ||
        (specifier === '../config/schema.js' && typeOnly) ||
        specifier.startsWith('node:') ||
        specifier === 'undici' ||
        specifier === 'eventsource-parser';
      expect(allowed, `${file} imports ${specifier}`).toBe(true);
    }
  });

  it('loads undici and the SSE reader only lazily from the entry module', () => {
    for (const { specifier, lazy } of imports('stream.ts')) {
      if (specifier === 'undici' || specifier === './sse.js') expect(lazy, specifier).toBe(true);
    }
    for (const file of files.filter((f) => f !== 'sse.ts')) {
      for (const { specifier, lazy, typeOnly } of imports(file)) {
        if (specifier === 'eventsource-parser' || specifier === 'undici') expect(lazy || typeOnly, `${file}: ${specifier}`).toBe(true);
      }
    }
  });
});
