// Token usage and cost per preset and per purpose for `:cost` and the stats line. Every request
// is counted, the conversation's and the short questions outside it (summaries, memory, Norris's
// second opinion, a server's sampling, the line editor's suggestions): presetModels (model-client.ts) counts each one it makes.
// Figures are the server's own when it reports usage, else estimated from the characters sent and
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

/** What a request was for (`suggest`: the line editor's suggestions, suggest.model). */
export type UsagePurpose = 'chat' | 'summary' | 'memory' | 'second-opinion' | 'sampling' | 'suggest';

export class UsageLedger {
  readonly #byPreset = new Map<string, PresetUsage>();
  readonly #byPurpose = new Map<UsagePurpose, PresetUsage & { cost: number }>();
  #last: string | undefined;

  constructor(private readonly config: Config) {}

  /** Counts one finished request to `preset`, made for `purpose`. */
  record(preset: string, messages: readonly ChatMessage[], result: ChatResult, purpose: UsagePurpose = 'chat'): void {
    const usage = result.usage;
    const reported = usage?.prompt_tokens !== undefined && usage.completion_tokens !== undefined;
    const one: PresetUsage = reported
      ? { requests: 1, promptTokens: usage.prompt_tokens!, completionTokens: usage.completion_tokens!, estimated: false }
      : {
          requests: 1,
          promptTokens: estimateTokens(JSON.stringify(messages)),
          completionTokens: estimateTokens(result.text + result.toolCalls.map((c) => c.name + c.arguments).join('')),
          estimated: true,
        };
    this.#byPreset.set(preset, addUsage(this.#byPreset.get(preset), one));
    const before = this.#byPurpose.get(purpose);
    this.#byPurpose.set(purpose, { ...addUsage(before, one), cost: (before?.cost ?? 0) + this.cost(preset, one) });
    if (purpose === 'chat') this.#last = preset;
  }

  /** The preset of the conversation's last request (after a fallback, the fallback's). */
  get last(): string | undefined {
    return this.#last;
  }

  /** Every preset's usage added up. */
  get total(): PresetUsage {
    let total: PresetUsage = { requests: 0, promptTokens: 0, completionTokens: 0, estimated: false };
    for (const u of this.#byPreset.values()) total = addUsage(total, u);
    return total;
  }

  /** Usage by preset, in the order first used. */
  get entries(): [string, PresetUsage][] {
    return [...this.#byPreset];
  }

  /** Usage by purpose (with its cost, its requests' presets' prices), in the order first used. */
  get purposes(): [UsagePurpose, PresetUsage & { cost: number }][] {
    return [...this.#byPurpose];
  }

  /** The cost of `usage` on `preset`, in the currency its prices are given in. */
  cost(preset: string, usage: PresetUsage): number {
    const model = this.config.models[preset];
    return ((model?.price_in ?? 0) * usage.promptTokens + (model?.price_out ?? 0) * usage.completionTokens) / 1_000_000;
  }

  /** A client that counts every request it completes in this ledger. */
  counting(client: ModelClient, purpose: UsagePurpose = 'chat'): ModelClient {
    return {
      name: client.name,
      stream: async (messages, onEvent, opts) => {
        const result = await client.stream(messages, onEvent, opts);
        this.record(client.name, messages, result, purpose);
        return result;
      },
    };
  }
}

function addUsage(sum: PresetUsage | undefined, one: PresetUsage): PresetUsage {
  if (!sum) return { ...one };
  return {
    requests: sum.requests + one.requests,
    promptTokens: sum.promptTokens + one.promptTokens,
    completionTokens: sum.completionTokens + one.completionTokens,
    estimated: sum.estimated || one.estimated,
  };
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
  const out = alignTable(table);
  const purposes = ledger.purposes;
  if (purposes.length > 1 || (purposes.length === 1 && purposes[0]![0] !== 'chat')) {
    const byPurpose = [['purpose', 'requests', 'tokens in', 'tokens out', 'cost'], ...purposes.map(([purpose, u]) => [purpose, String(u.requests), `${mark(u)}${u.promptTokens}`, `${mark(u)}${u.completionTokens}`, money(u.cost)])];
    out.push('', ...alignTable(byPurpose));
  }
  if (total.estimated) out.push('~ estimated (chars / 4): the server reported no usage');
  return out.join('\n');
}

/** Rows of cells: the first column left-aligned, the others right-aligned. */
function alignTable(table: string[][]): string[] {
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return table.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
}
