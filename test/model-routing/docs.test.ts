// docs/routing.md stays true: its worked aish.config.ts loads and validates, and the status lines
// and heuristics it quotes are the ones the code produces.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { classifyModel } from '../../src/model-routing/classify.js';
import { fallbackReason } from '../../src/model-routing/fallback.js';
import { SUMMARY_PROMPT } from '../../src/context/summary-prompt.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(path.join(root, 'docs/routing.md'), 'utf8');
const dir = mkdtempSync(path.join(tmpdir(), 'aish-routing-doc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/routing.md', () => {
  it('has a worked aish.config.ts that loads with the real schema', async () => {
    const block = /```ts\n(\/\/ aish\.config\.ts[\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBeDefined();
    const file = path.join(dir, 'aish.config.ts');
    writeFileSync(file, block!);
    const { config } = await loadConfig({ cwd: dir, env: {}, configPath: file, stopDir: dir, definePath: path.join(root, 'src/config/define.ts') });
    expect(Object.keys(config.models)).toEqual(['fast', 'deep', 'cloud']);
    expect(config.routing).toEqual({ auto: true, classes: { code: 'deep', reasoning: 'cloud' }, cloud_fallback: true, fallback_model: 'cloud' });
    expect(config.context).toMatchObject({ summarize_on_evict: true, summarizer_model: 'fast', max_summary_chars: 2000 });

    // The walk-through under the example.
    const route = (text: string) => classifyModel(text, config).preset;
    expect(route('what time is it?')).toBeNull();
    expect(route('explain this Python traceback ...')).toBe('deep');
    expect(route('compare rsync and scp')).toBe('cloud');
  });

  it('quotes the seed prompt and the status-line shapes', () => {
    expect(doc).toContain(SUMMARY_PROMPT);
    expect(doc).toContain('[aish] local <name> failed (<reason>); retrying via <fallback>');
    expect(doc).toContain(`[aish] local fast failed (${fallbackReason(new Error('transport: Connection refused'))}); retrying via cloud`);
    expect(doc).toContain('[aish] routed to deep');
    for (const id of ['A1', 'A2', 'A3', 'Q37', 'Q38', 'Q39', 'Q40', 'Q41', 'Q42']) expect(doc).toContain(`**${id}`);
  });
});
