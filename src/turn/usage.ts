// Token usage and cost per preset for `:cost` and the stats line. Every request is counted: with
// the server's own figures when it reports usage, else estimated from the characters sent and
// received (chars / 4) and marked `~`. Prices come from `models.<name>.price_in|price_out` per
// million tokens.

import type { ChatMessage, ChatResult, ModelClient } from '../broker/types.js';
import type { Config } from '../config/schema.js';

export interface PresetUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Some of the figures are estimates (the server reported no usage). */
  estimated: boolean;
}

export class UsageLedger {
  readonly #byPreset = new Map<string, PresetUsage>();
  #last: string | undefined;

  constructor(private readonly config: Config) {}

  /** Counts one finished request to `preset`. */
  record(preset: string, messages: readonly ChatMessage[], result: ChatResult): void {
    const entry = this.#byPreset.get(preset) ?? { requests: 0, promptTokens: 0, completionTokens: 0, estimated: false };
    entry.requests++;
    const usage = result.usage;
    if (usage?.prompt_tokens !== undefined && usage.completion_tokens !== undefined) {
      entry.promptTokens += usage.prompt_tokens;
      entry.completionTokens += usage.completion_tokens;
    } else {
      entry.estimated = true;
      entry.promptTokens += estimateTokens(JSON.stringify(messages));
      entry.completionTokens += estimateTokens(result.text + result.toolCalls.map((c) => c.name + c.arguments).join(''));
    }
    this.#byPreset.set(preset, entry);
    this.#last = preset;
  }

  /** The preset of the last request counted (after a fallback, the fallback's). */
  get last(): string | undefined {
    return this.#last;
  }

  /** Every preset's usage added up. */
  get total(): PresetUsage {
    const total: PresetUsage = { requests: 0, promptTokens: 0, completionTokens: 0, estimated: false };
    for (const u of this.#byPreset.values()) {
      total.requests += u.requests;
      total.promptTokens += u.promptTokens;
      total.completionTokens += u.completionTokens;
      total.estimated ||= u.estimated;
    }
    return total;
  }

  /** Usage by preset, in the order first used. */
  get entries(): [string, PresetUsage][] {
    return [...this.#byPreset];
  }

  /** The cost of `usage` on `preset`, in the currency its prices are given in. */
  cost(preset: string, usage: PresetUsage): number {
    const model = this.config.models[preset];
    return ((model?.price_in ?? 0) * usage.promptTokens + (model?.price_out ?? 0) * usage.completionTokens) / 1_000_000;
  }

  /** A client that counts every request it completes in this ledger. */
  counting(client: ModelClient): ModelClient {
    return {
      name: client.name,
      stream: async (messages, onEvent, opts) => {
        const result = await client.stream(messages, onEvent, opts);
        this.record(client.name, messages, result);
        return result;
      },
    };
  }
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** `:cost` as a table: per preset and in total. */
export function formatCost(ledger: UsageLedger): string {
  const rows = ledger.entries;
  if (rows.length === 0) return 'no model requests yet';
  const mark = (u: PresetUsage) => (u.estimated ? '~' : '');
  const money = (n: number) => `$${n.toFixed(4)}`;
  const total = ledger.total;
  let totalCost = 0;
  const lines = rows.map(([preset, u]) => {
    const cost = ledger.cost(preset, u);
    totalCost += cost;
    return [preset, String(u.requests), `${mark(u)}${u.promptTokens}`, `${mark(u)}${u.completionTokens}`, money(cost)];
  });
  const table = [['preset', 'requests', 'tokens in', 'tokens out', 'cost'], ...lines, ['total', String(total.requests), `${mark(total)}${total.promptTokens}`, `${mark(total)}${total.completionTokens}`, money(totalCost)]];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const out = table.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  if (total.estimated) out.push('~ estimated (chars / 4): the server reported no usage');
  return out.join('\n');
}
