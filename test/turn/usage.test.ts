import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/schema.js';
import { formatCost, UsageLedger } from '../../src/turn/usage.js';

const resolved = resolveConfig({ models: { fast: { endpoint: 'http://127.0.0.1:1/v1', model: 'm', price_in: 1, price_out: 2 } } }, {});
if (!resolved.ok) throw new Error('test config');
const config = resolved.config;
const result = (prompt: number, completion: number) => ({ text: 'x', toolCalls: [], finishReason: 'stop', usage: { prompt_tokens: prompt, completion_tokens: completion } }) as never;

describe('UsageLedger', () => {
  it('counts each request by preset and by purpose, with the purpose its cost', () => {
    const ledger = new UsageLedger(config);
    ledger.record('fast', [], result(1_000_000, 0));
    ledger.record('fast', [], result(0, 1_000_000), 'memory');
    ledger.record('fast', [], result(10, 1), 'sampling');
    expect(ledger.entries).toEqual([['fast', { requests: 3, promptTokens: 1_000_010, completionTokens: 1_000_001, estimated: false }]]);
    expect(ledger.purposes.map(([p, u]) => [p, u.requests, u.cost])).toEqual([
      ['chat', 1, 1],
      ['memory', 1, 2],
      ['sampling', 1, 0.00001 + 0.000002],
    ]);
    const text = formatCost(ledger);
    expect(text).toMatch(/^purpose +requests/m);
    expect(text).toMatch(/^memory +1 +0 +1000000 +\$2\.0000$/m);
  });

  it('shows no purpose table when every request was the conversation', () => {
    const ledger = new UsageLedger(config);
    ledger.record('fast', [], result(1, 1));
    expect(formatCost(ledger)).not.toContain('purpose');
  });
});
