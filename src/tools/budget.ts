// The tool budget (`mcp.max_tools`): a small model chooses worse, and its context fills, when every
// tool of every server is in every request. Past the budget the likeliest tools are sent, ranked by
// what was found with `aish__find_tools`, what this conversation already used, the person's words,
// and essential verbs (list, search, read) before rare ones; ties keep the servers' own order, never
// the alphabet (seed 004 issue 2). `aish__find_tools` searches every tool; what it finds is offered
// from the next round on.

import type { ToolHint, ToolHost } from '../turn/types.js';
import { schemaMismatchOutcome, type ToolOutcome } from '../tool-call.js';

type ToolDefinition = ReturnType<ToolHost['definitions']>[number];

export const FIND_TOOLS = 'aish__find_tools';
/** How many tools one search returns. */
const FOUND_MAX = 8;

export interface BudgetOptions {
  /** `mcp.max_tools`. */
  maxTools: number;
  /** Whether `aish__find_tools` is on (`tools.builtin`). */
  findTools: boolean;
  /** Told once, the first time tools are left out, what was sent and where to look (`:tools`). */
  onTrimmed?: (message: string) => void;
}

/** The one line that says the tools sent were trimmed to the budget. */
function trimmedMessage(sent: number, total: number, opts: BudgetOptions): string {
  const finder = opts.findTools ? `, and ${FIND_TOOLS} for the rest` : '';
  return `offering the model ${sent} of ${total} tools, the likeliest for each request${finder} (mcp.max_tools: ${opts.maxTools}); :tools lists them and turns some off`;
}

/** Verbs a task usually starts with, and their weight; rarer verbs weigh nothing. */
const ESSENTIAL_VERBS: Record<string, number> = { list: 3, search: 3, read: 3, find: 2, get: 2, query: 2, fetch: 2, show: 1, status: 1, info: 1 };
const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'what', 'which', 'please', 'can', 'you', 'how', 'are', 'was', 'use', 'tool', 'tools', 'file', 'files']);

/** Lower-case words of a text or a tool name (`git__log_commits` → git, log, commits; camelCase split). */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 || ESSENTIAL_VERBS[w] !== undefined);
}

/** `a` and `b` name the same thing: equal, or one a prefix of the other (add / adds, list / listing). */
function sameWord(a: string, b: string): boolean {
  return a === b || (Math.min(a.length, b.length) >= 3 && (a.startsWith(b) || b.startsWith(a)));
}

/**
 * How likely `tool` is needed for `hint`: found by a search > used before > named by the person's
 * words (name counts more than description). Essential verbs are added by `rankTools`. Pure.
 */
export function scoreTool(tool: ToolDefinition, hint: ToolHint, found: readonly string[]): number {
  const name = tool.function.name;
  const nameWords = wordsOf(name.replace(/^[^_]+__/, ''));
  const descriptionWords = wordsOf(tool.function.description ?? '');
  const asked = wordsOf(hint.words).filter((w) => !STOP_WORDS.has(w));
  let score = 0;
  const foundAt = found.lastIndexOf(name);
  if (foundAt >= 0) score += 1000 + foundAt;
  const usedAt = hint.used.lastIndexOf(name);
  if (usedAt >= 0) score += 500 + usedAt;
  for (const w of new Set(asked)) {
    if (nameWords.some((n) => sameWord(n, w))) score += 20;
    else if (descriptionWords.some((d) => sameWord(d, w))) score += 6;
  }
  return score;
}

/** The essential verb of a tool's name, if any (`fs__list_directory` → list). */
function verbOf(name: string): string | undefined {
  return wordsOf(name.replace(/^[^_]+__/, '')).find((w) => ESSENTIAL_VERBS[w] !== undefined);
}

/**
 * The `maxTools` likeliest of `tools`, in ranked order (ties keep the given order). An essential
 * verb weighs fully for a server's first tool with it and a third after that, so four `read_*`
 * tools do not crowd out `list_directory` and `search_files`.
 */
export function rankTools(tools: readonly ToolDefinition[], hint: ToolHint, found: readonly string[], maxTools: number): ToolDefinition[] {
  const verbsSeen = new Set<string>();
  const verbBonus = (name: string) => {
    const verb = verbOf(name);
    if (!verb) return 0;
    const key = `${name.split('__')[0]}:${verb}`;
    const first = !verbsSeen.has(key);
    verbsSeen.add(key);
    return first ? ESSENTIAL_VERBS[verb]! : ESSENTIAL_VERBS[verb]! / 3;
  };
  return tools
    .map((tool, index) => ({ tool, index, score: scoreTool(tool, hint, found) + verbBonus(tool.function.name) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, Math.max(0, maxTools))
    .map((r) => r.tool);
}

/** `inner`'s tools within the budget, plus `aish__find_tools` when some had to stay out. */
export function budgetTools(inner: ToolHost, opts: BudgetOptions): ToolHost {
  // Found tools, oldest first; they stay offered for the rest of the session.
  const found: string[] = [];
  const finder = (total: number): ToolDefinition => ({
    type: 'function',
    function: {
      name: FIND_TOOLS,
      description: `Finds more tools: ${total} exist, only some are offered now. Give a few words for what you need; the tools found are offered from your next step on.`,
      parameters: { type: 'object', properties: { query: { type: 'string', description: 'Words for the task, e.g. "list directory" or "git log"' } }, required: ['query'], additionalProperties: false },
    },
  });
  const validQuery = (args: Record<string, unknown>) => (typeof args.query === 'string' && args.query.trim() !== '' ? [] : ['/query: must be a non-empty string']);

  // A person with 132 tools should learn once that the model sees 32 of them, not guess.
  let told = false;
  const tell = (sent: number, total: number) => {
    if (told || !opts.onTrimmed) return;
    told = true;
    opts.onTrimmed(trimmedMessage(sent, total, opts));
  };

  return {
    definitions(hint = { words: '', used: [] }) {
      const all = inner.definitions(hint);
      if (all.length <= opts.maxTools) return all;
      const ranked = rankTools(all, hint, found, opts.findTools ? opts.maxTools - 1 : opts.maxTools);
      tell(ranked.length, all.length);
      return opts.findTools ? [finder(all.length), ...ranked] : ranked;
    },
    has: (name) => (name === FIND_TOOLS ? Boolean(opts.findTools) : inner.has(name)),
    validate: (name, args) => (name === FIND_TOOLS ? validQuery(args) : inner.validate(name, args)),
    annotations: (name) => (name === FIND_TOOLS ? { readOnlyHint: true } : inner.annotations(name)),
    async call(name, args, options) {
      if (name !== FIND_TOOLS) return inner.call(name, args, options);
      const problems = validQuery(args);
      if (problems.length > 0) return schemaMismatchOutcome(problems);
      return findTools(inner.definitions(), String(args.query), found);
    },
  };
}

/** The tools matching `query`, best first; each one found is remembered in `found`. */
function findTools(all: readonly ToolDefinition[], query: string, found: string[]): ToolOutcome {
  const hint = { words: query, used: [] };
  const matches = all
    .map((tool, index) => ({ tool, index, score: scoreTool(tool, hint, []) }))
    .filter((r) => r.score >= 6)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, FOUND_MAX)
    .map((r) => r.tool);
  if (matches.length === 0) {
    return { status: 'ok', content: `No tool matches "${query}" (${all.length} tools exist). Try other words.`, display: `no match for "${query}"` };
  }
  for (const m of [...matches].reverse()) {
    const at = found.indexOf(m.function.name);
    if (at >= 0) found.splice(at, 1);
    found.push(m.function.name);
  }
  const lines = matches.map((m) => `${m.function.name}: ${m.function.description ?? '(no description)'}`);
  return {
    status: 'ok',
    content: `${matches.length} tool${matches.length === 1 ? '' : 's'} found; offered from your next step on:\n${lines.join('\n')}`,
    display: `found ${matches.map((m) => m.function.name).join(', ')}`,
  };
}
