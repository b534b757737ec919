// Per-request model routing (SPEC §9, seed 002 §4): a pure classifier that puts what the person
// typed in the class `code`, `reasoning` or `default` by the original's heuristics (first rule that
// matches wins) and maps the class to a preset through `routing.classes`. No preset → active model.

export type RouteClass = 'code' | 'reasoning' | 'default';

/** The part of the config routing reads; the runtime `:route on|off` state goes in `auto`. */
export interface RoutingConfig {
  routing: { auto: boolean; classes: Partial<Record<RouteClass, string>> };
}

/** A class and the rule that decided it, in words (`contains a code fence`). */
export interface Classification {
  cls: RouteClass;
  reason: string;
}

/** A classification and where it sends the request: a preset name, or null for the active model. */
export interface ModelRoute extends Classification {
  preset: string | null;
}

/** One heuristic: the reason it fired, or null. Rules are tried in table order. */
export interface RoutingRule {
  cls: Exclude<RouteClass, 'default'>;
  name: string;
  match: (text: string) => string | null;
}

/** How far into the text an `error:` / `exception:` line still counts as "near the beginning". */
export const ERROR_HEAD_CHARS = 80;
/** A question (`?`) longer than this many characters is a reasoning request. */
export const LONG_QUESTION_CHARS = 100;
/** A paste has more lines than this, one of them indented. */
export const PASTE_MIN_LINES = 4;

const FENCE = /```/;
// "traceback", "stacktrace", "stack trace" (also "stack-trace" and plurals), as words, any case.
const TRACE = /\b(traceback|stack[ -]?trace)s?\b/i;
// `error:` / `exception:` as a word in any case, or as the end of a CamelCase name (TypeError:,
// NullPointerException:), optionally with a code in brackets (rustc's `error[E0382]:`). "terror:"
// and "error handling:" are not it.
const ERROR_HEAD = /(?:\b(error|Error|ERROR|exception|Exception|EXCEPTION)|(?<=[a-z0-9_])(Error|Exception))(?:\[[\w-]+\])?:/;
// A path that starts `./` (also `../`), `/usr/` or `~/` and names a source file; the extension must
// end the name (`./a.json`, `./a.go.tmpl` are not Go or JS source), a sentence's full stop may follow.
const SOURCE_PATH = /(?:\.\/|\/usr\/|~\/)[^\s'"`<>()]*?\.(py|lua|c|js|go|rs)(?![\w-]|\.\w)/;
const INDENTED = /^(?:\t| {2,})\S/;
const REASONING = /\b(explain|why|how\s+does|compare)\b/i;

/** The seed's heuristics, in its order. Exported so tests and `:route check` can name them. */
export const ROUTING_RULES: readonly RoutingRule[] = [
  { cls: 'code', name: 'fence', match: (t) => (FENCE.test(t) ? 'contains a code fence (```)' : null) },
  {
    cls: 'code',
    name: 'trace',
    match: (t) => {
      const m = TRACE.exec(t);
      return m ? `mentions "${m[0].toLowerCase()}"` : null;
    },
  },
  {
    cls: 'code',
    name: 'error-head',
    match: (t) => {
      const head = t.trimStart().slice(0, ERROR_HEAD_CHARS);
      const m = ERROR_HEAD.exec(head);
      if (!m) return null;
      const name = /[\w.$]*$/.exec(head.slice(0, m.index))![0];
      return `"${name}${m[0]}" near the beginning`;
    },
  },
  {
    cls: 'code',
    name: 'source-path',
    match: (t) => {
      const m = SOURCE_PATH.exec(t);
      return m ? `names a .${m[1]} source path (${m[0]})` : null;
    },
  },
  {
    cls: 'code',
    name: 'paste',
    match: (t) => {
      const lines = t.replace(/^(?:[ \t]*\r?\n)+|(?:\r?\n[ \t]*)+$/g, '').split(/\r?\n/);
      if (lines.length <= PASTE_MIN_LINES || !lines.some((l) => INDENTED.test(l))) return null;
      return `${lines.length} lines with indentation (looks like a paste)`;
    },
  },
  {
    cls: 'reasoning',
    name: 'keyword',
    match: (t) => {
      const m = REASONING.exec(t);
      return m ? `contains "${m[1]!.toLowerCase().replace(/\s+/, ' ')}"` : null;
    },
  },
  {
    cls: 'reasoning',
    name: 'long-question',
    match: (t) => {
      const length = [...t.trim()].length;
      return t.includes('?') && length > LONG_QUESTION_CHARS ? `a question of ${length} characters (over ${LONG_QUESTION_CHARS})` : null;
    },
  },
];

/**
 * The class of `text` and the rule that decided it, for `:route check`. Pure; the first rule of
 * `ROUTING_RULES` that matches wins, `default` when none does.
 */
export function classifyText(text: string): Classification {
  for (const rule of ROUTING_RULES) {
    const reason = rule.match(text);
    if (reason !== null) return { cls: rule.cls, reason };
  }
  return { cls: 'default', reason: 'no code or reasoning markers' };
}

/**
 * Where one user request goes: its class, the reason, and the preset `routing.classes` maps the
 * class to. `preset` is null when `routing.auto` is off or the class has no preset — the active
 * model is used then. Pure: the same text and config always give the same answer.
 */
export function classifyModel(text: string, cfg: RoutingConfig): ModelRoute {
  const { cls, reason } = classifyText(text);
  const preset = cfg.routing.auto ? (cfg.routing.classes[cls] ?? null) : null;
  return { cls, preset: preset === '' ? null : preset, reason };
}
