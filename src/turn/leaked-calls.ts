// Tool calls that small models write into their text instead of `tool_calls` (seeds 003/004):
// `name[ARGS]{json}`, Mistral's `[TOOL_CALLS]`, Hermes/Qwen `<tool_call>`, Llama's
// `<|python_tag|>`, `<function=name>`, and a reply that is only a (fenced) JSON call. Pure:
// `readLeakedCalls` judges a finished reply, `heldFrom` says how much of a reply still streaming
// is known to be text. Only names of tools offered in the request count as calls.

import { isRecord } from '../is-record.js';

/** One call recovered from text; `arguments` is a JSON object as text. */
export interface LeakedCall {
  name: string;
  arguments: string;
}

export type LeakVerdict =
  /** Plain text (mentions of tools included). */
  | { type: 'text' }
  /** Calls to offered tools; `before` is the prose in front of them (kept as the reply's content). */
  | { type: 'calls'; before: string; calls: LeakedCall[] }
  /** It looks like a call but cannot be used; `reason` says why, for the model's correction. */
  | { type: 'malformed'; before: string; reason: string };

/** Markers that start a call wherever they stand (unless quoted in backticks). */
const MARKERS = ['[TOOL_CALLS]', '<tool_call>', '<|python_tag|>', '<function='] as const;
const ARGS = '[ARGS]';
/** End-of-turn tokens some servers leave in the text after a call. */
const END_TOKENS = ['</tool_call>', '</function>', '<|eom_id|>', '<|eot_id|>', '</s>', '[/TOOL_CALLS]'] as const;
const NAME_CHAR = /[A-Za-z0-9_-]/;
/** A fenced block of JSON (or of no language) that makes up the whole reply. */
const JSON_FENCE = /^```[ \t]*(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```$/i;

/**
 * Judges a finished reply that came without `tool_calls`. A marker form is a call (or a malformed
 * one) wherever it starts; a JSON call must be the whole reply. With no tools offered, everything is
 * text.
 */
export function readLeakedCalls(text: string, offered: ReadonlySet<string>): LeakVerdict {
  if (offered.size === 0) return { type: 'text' };
  const start = firstMarker(text);
  if (start !== undefined) return readMarked(text, start, offered);
  return readBareJson(text.trim(), offered);
}

/**
 * How much of a reply still streaming is known to be text: the index from which it must be held
 * back because it is, or could still become, a leaked call. Never decreases as the text grows.
 */
export function heldFrom(text: string, offered: ReadonlySet<string>): number {
  return new HoldScan(offered).end(text);
}

/**
 * `heldFrom` for one reply as it streams, remembering what it already settled (where the text
 * starts, whether it opens like a JSON call, the markers searched for so far), so each call costs
 * about the new text rather than the whole reply: this runs for every delta.
 */
export class HoldScan {
  #start = -1;
  /** The reply opens like a bare or fenced JSON call, and that can no longer change. */
  #jsonSettled: boolean | undefined;
  #markerEnd: number | undefined;
  #scanned = 0;
  #argsSeen = false;

  constructor(private readonly offered: ReadonlySet<string>) {}

  /** Whether text before the last released point is no longer needed (see `end`'s `base`). */
  get settled(): boolean {
    return this.#start >= 0 && this.#jsonSettled === false;
  }

  /**
   * The held-from index for the reply, of which `text` is the part from index `base` on (the
   * whole reply while not `settled`; after that, anything from a little before what was shown).
   * The reply only ever grows from one call to the next.
   */
  end(text: string, base = 0): number {
    if (this.offered.size === 0) return base + text.length;
    if (this.#start < 0) this.#start = indexOfNonSpace(text, 0);
    if (this.#start < 0) return 0;
    if (this.#jsonSettled === true) return 0;
    if (this.#jsonSettled === undefined) {
      const { json, settled } = jsonStart(text, this.#start);
      if (settled) this.#jsonSettled = json;
      if (json) return 0;
    }
    if (this.#markerEnd !== undefined) return this.#markerEnd;
    const found = markerFrom(text, Math.max(0, this.#scanned - base - LONGEST_MARKER + 1), this.#argsSeen);
    this.#argsSeen = found.argsSeen;
    this.#scanned = base + text.length;
    // Spaces before a call are not shown either (nor trailing ones, until text follows them).
    if (found.at !== undefined) {
      this.#markerEnd = base + trimmedEnd(text, found.at);
      return this.#markerEnd;
    }
    return base + trimmedEnd(text, partialMarkerAt(text, this.offered));
  }
}

const ALL_MARKERS: readonly string[] = [...MARKERS, ARGS];
const LONGEST_MARKER = Math.max(...ALL_MARKERS.map((m) => m.length));

/** Whether a reply whose text starts at `s` opens like a (fenced) JSON call, and whether that is settled. */
function jsonStart(text: string, s: number): { json: boolean; settled: boolean } {
  if (text[s] === '{') return { json: true, settled: true };
  if (text[s] === '[') {
    // `[TOOL_CALLS]` is a marker (held by the marker search), not JSON.
    const marker = '[TOOL_CALLS]';
    if (text.startsWith(marker, s)) return { json: false, settled: true };
    if (text.length - s < marker.length && marker.startsWith(text.slice(s))) return { json: false, settled: false };
    const next = indexOfNonSpace(text, s + 1);
    return next === -1 ? { json: true, settled: false } : { json: text[next] === '{', settled: true };
  }
  if (text.length - s < 3 && '```'.startsWith(text.slice(s))) return { json: true, settled: false };
  if (!text.startsWith('```', s)) return { json: false, settled: true };
  const eol = text.indexOf('\n', s);
  if (eol === -1) return { json: true, settled: false };
  if (!/^```[ \t]*(json)?[ \t]*\r?$/i.test(text.slice(s, eol))) return { json: false, settled: true };
  const body = indexOfNonSpace(text, eol + 1);
  return body === -1 ? { json: true, settled: false } : { json: text[body] === '{' || text[body] === '[', settled: true };
}

const NON_SPACE = /\S/g;

function indexOfNonSpace(text: string, from: number): number {
  NON_SPACE.lastIndex = from;
  return NON_SPACE.exec(text)?.index ?? -1;
}

/** `end`, less the white space right before it. */
function trimmedEnd(text: string, end: number): number {
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end;
}

/** Where the first marker (or `name[ARGS]`) begins; a marker right after a backtick is quoted. */
function firstMarker(text: string): number | undefined {
  return markerFrom(text, 0, false).at;
}

/**
 * The first unquoted marker at or after `from`; `[ARGS]` counts only at its first unquoted
 * occurrence in the whole text (`argsSeen`: that occurrence lies before `from`).
 */
function markerFrom(text: string, from: number, argsSeen: boolean): { at: number | undefined; argsSeen: boolean } {
  let best: number | undefined;
  const consider = (at: number) => {
    if (at >= 0 && text[at - 1] !== '`' && (best === undefined || at < best)) best = at;
  };
  for (const m of MARKERS) consider(unquotedIndexOf(text, m, from));
  if (!argsSeen) {
    const args = unquotedIndexOf(text, ARGS, from);
    if (args >= 0) {
      argsSeen = true;
      consider(args - nameRunBefore(text, args));
    }
  }
  return { at: best, argsSeen };
}

function unquotedIndexOf(text: string, needle: string, from = 0): number {
  for (let i = text.indexOf(needle, from); i >= 0; i = text.indexOf(needle, i + 1)) {
    if (text[i - 1] !== '`') return i;
  }
  return -1;
}

/** The length of the run of name characters that ends at `end`. */
function nameRunBefore(text: string, end: number): number {
  let i = end;
  while (i > 0 && NAME_CHAR.test(text[i - 1]!)) i--;
  return end - i;
}

/** The start of a tail that could still grow into a marker or `name[ARGS]`; else text.length. */
function partialMarkerAt(text: string, offered: ReadonlySet<string>): number {
  let at = text.length;
  // The longest tail that is the start of a marker. This runs for every delta: a tail is compared
  // only when its first character starts some marker, and without copying it.
  for (let k = Math.min(LONGEST_MARKER - 1, text.length); k > 0; k--) {
    if (!MARKER_STARTS.has(text.charCodeAt(text.length - k))) continue;
    if (MARKER_PREFIXES.some((prefixes) => k <= prefixes.length && text.endsWith(prefixes[k - 1]!))) {
      at = text.length - k;
      break;
    }
  }
  // A word at the very end that could be an offered tool's name may be followed by `[ARGS]`; hold
  // it until the next character says. Other words show at once (also when a stream stalls).
  const run = nameRunBefore(text, at);
  if (run === 0) return at;
  const name = text.slice(at - run, at);
  for (const n of offered) if (n.startsWith(name)) return at - run;
  return at;
}

/** The first characters of the markers (`[`, `<`). */
const MARKER_STARTS = new Set(ALL_MARKERS.map((m) => m.charCodeAt(0)));
/** For each marker, its proper prefixes by length: `[`, `[T`, ... `[TOOL_CALLS`. */
const MARKER_PREFIXES: readonly string[][] = ALL_MARKERS.map((m) => Array.from({ length: m.length - 1 }, (_, i) => m.slice(0, i + 1)));

function readMarked(text: string, start: number, offered: ReadonlySet<string>): LeakVerdict {
  const before = text.slice(0, start).trimEnd();
  const calls: LeakedCall[] = [];
  let i = start;
  const fail = (reason: string): LeakVerdict => ({ type: 'malformed', before, reason });
  for (;;) {
    i = skipFiller(text, i);
    if (i >= text.length) break;
    const rest = text.slice(i);
    let found: { value: unknown; end: number } | string;
    if (rest.startsWith('[TOOL_CALLS]') || rest.startsWith('<|python_tag|>')) {
      i += rest.startsWith('[TOOL_CALLS]') ? '[TOOL_CALLS]'.length : '<|python_tag|>'.length;
      continue;
    } else if (rest.startsWith('<tool_call>')) {
      found = jsonAt(text, skipFiller(text, i + '<tool_call>'.length));
    } else if (rest.startsWith('<function=')) {
      found = functionTag(text, i);
    } else if (rest.startsWith('{') || rest.startsWith('[')) {
      found = jsonAt(text, i);
    } else {
      found = argsForm(text, i);
      if (typeof found === 'string' && calls.length > 0) break; // prose after the calls: dropped
    }
    if (typeof found === 'string') return fail(found);
    for (const value of Array.isArray(found.value) ? found.value : [found.value]) {
      const call = toCall(value);
      if (typeof call === 'string') return fail(call);
      if (!offered.has(call.name)) return fail(`no tool named "${call.name}" was offered`);
      calls.push(call);
    }
    i = found.end;
  }
  return calls.length > 0 ? { type: 'calls', before, calls } : fail('no call after the marker');
}

/** Whitespace, separators and end tokens between calls. */
function skipFiller(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /[\s;,]/.test(text[i]!)) i++;
    const token = END_TOKENS.find((t) => text.startsWith(t, i));
    if (!token) return i;
    i += token.length;
  }
}

/** `name[ARGS]{json}` at i. */
function argsForm(text: string, i: number): { value: unknown; end: number } | string {
  let j = i;
  while (j < text.length && NAME_CHAR.test(text[j]!)) j++;
  if (!text.startsWith(ARGS, j)) return 'expected name[ARGS]{arguments}';
  const name = text.slice(i, j);
  if (name === '') return 'no tool name before [ARGS]';
  const args = jsonAt(text, skipSpace(text, j + ARGS.length));
  if (typeof args === 'string') return args;
  return { value: { name, arguments: args.value }, end: args.end };
}

/** `<function=name>{json}</function>` at i. */
function functionTag(text: string, i: number): { value: unknown; end: number } | string {
  const open = i + '<function='.length;
  const close = text.indexOf('>', open);
  if (close === -1) return 'unterminated <function=...> tag';
  const name = text.slice(open, close).trim();
  const args = jsonAt(text, skipSpace(text, close + 1));
  if (typeof args === 'string') return args;
  return { value: { name, arguments: args.value }, end: args.end };
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/** The JSON object or array starting at i, and the index after it. */
function jsonAt(text: string, i: number): { value: unknown; end: number } | string {
  if (text[i] !== '{' && text[i] !== '[') return 'expected a JSON object';
  const end = jsonEnd(text, i);
  if (end === -1) return 'the JSON is not complete';
  let value: unknown;
  try {
    value = JSON.parse(text.slice(i, end));
  } catch (err) {
    return `not valid JSON (${err instanceof Error ? err.message : String(err)})`;
  }
  return { value, end };
}

/** The index after the balanced JSON value starting at i, or -1 when it never closes. */
function jsonEnd(text: string, i: number): number {
  let depth = 0;
  let inString = false;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (inString) {
      if (c === '\\') j++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

/**
 * `{name, arguments | parameters}` (or wrapped in `function`) → a call; arguments given as a JSON
 * string are unwrapped, absent ones are `{}`. A string is the reason it is not a call.
 */
function toCall(value: unknown): LeakedCall | string {
  if (!isRecord(value)) return 'a call must be a JSON object';
  const fn = callBody(value);
  const name = fn.name;
  if (typeof name !== 'string' || name === '') return 'the call has no "name"';
  let args = fn.arguments ?? fn.parameters ?? {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args.trim() === '' ? '{}' : args);
    } catch {
      return `the arguments of ${name} are not valid JSON`;
    }
  }
  if (!isRecord(args)) return `the arguments of ${name} must be a JSON object`;
  return { name, arguments: JSON.stringify(args) };
}

/** The object holding `name` and the arguments: the call itself, or its `function`. */
function callBody(value: Record<string, unknown>): Record<string, unknown> {
  return isRecord(value.function) ? value.function : value;
}

function isCallShaped(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const fn = callBody(value);
  return typeof fn.name === 'string' && ('arguments' in fn || 'parameters' in fn);
}

function callName(value: unknown): string {
  return isRecord(value) ? String(callBody(value).name) : '';
}

/** A reply that is only a JSON call (or a fenced one). Unknown names, or other JSON, stay text. */
function readBareJson(trimmed: string, offered: ReadonlySet<string>): LeakVerdict {
  const body = (JSON_FENCE.exec(trimmed)?.[1] ?? trimmed).trim();
  if (!body.startsWith('{') && !body.startsWith('[')) return { type: 'text' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    // Broken JSON naming an offered tool is a failed call; anything else is the model's JSON.
    const named = /"name"\s*:\s*"([^"]+)"/.exec(body)?.[1];
    if (named && offered.has(named)) return { type: 'malformed', before: '', reason: `not valid JSON (${err instanceof Error ? err.message : String(err)})` };
    return { type: 'text' };
  }
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0 || !items.every(isCallShaped)) return { type: 'text' };
  if (!items.every((item) => offered.has(callName(item)))) return { type: 'text' };
  const calls: LeakedCall[] = [];
  for (const item of items) {
    const call = toCall(item);
    if (typeof call === 'string') return { type: 'malformed', before: '', reason: call };
    calls.push(call);
  }
  return { type: 'calls', before: '', calls };
}
