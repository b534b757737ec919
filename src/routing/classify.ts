// Per-request model routing (SPEC §9, seed 002 §4): a pure classifier that puts a user's text in
// the class `code`, `reasoning` or `default` by the original's heuristics, first hit wins, and
// maps the class to a preset through `routing.classes`. No preset → the active model is used.

export type RouteClass = 'code' | 'reasoning' | 'default';

export interface RoutingConfig {
  routing: { auto: boolean; classes: Partial<Record<RouteClass, string>> };
}

const FENCE = /```/;
const TRACE = /\b(traceback|stacktrace|stack trace)\b/i;
// "error:" or "exception:" near the beginning (the first 80 characters).
const ERROR_HEAD = /\b(error|exception):/i;
const SOURCE_PATH = /(?:\.\/|\/usr|~\/)\S*\.(py|lua|c|js|go|rs)\b/;
const REASONING = /\b(explain|why|how does|compare)\b/i;

/** The class of `text` and the rule that decided it (for `:route check`). */
export function classifyText(text: string): { cls: RouteClass; reason: string } {
  if (FENCE.test(text)) return { cls: 'code', reason: 'contains a ``` code fence' };
  const trace = TRACE.exec(text);
  if (trace) return { cls: 'code', reason: `mentions "${trace[1]!.toLowerCase()}"` };
  const head = ERROR_HEAD.exec(text.slice(0, 80));
  if (head) return { cls: 'code', reason: `"${head[1]!.toLowerCase()}:" near the beginning` };
  const source = SOURCE_PATH.exec(text);
  if (source) return { cls: 'code', reason: `names a .${source[1]} source path` };
  const lines = text.split('\n');
  if (lines.length > 4 && lines.some((l) => /^(\t| {2,})\S/.test(l))) return { cls: 'code', reason: 'more than 4 lines with indentation (a paste)' };
  const word = REASONING.exec(text);
  if (word) return { cls: 'reasoning', reason: `asks "${word[1]!.toLowerCase()}"` };
  if (text.includes('?') && text.length > 100) return { cls: 'reasoning', reason: 'a question over 100 characters' };
  return { cls: 'default', reason: 'no code or reasoning markers' };
}

/**
 * The preset for this request: null when routing is off or the class has no preset (the active
 * model is used then). Pure: the same text and config always give the same answer.
 */
export function classifyModel(text: string, cfg: RoutingConfig): { cls: RouteClass; preset: string | null; reason: string } {
  const { cls, reason } = classifyText(text);
  if (!cfg.routing.auto) return { cls, preset: null, reason };
  return { cls, preset: cfg.routing.classes[cls] ?? null, reason };
}
