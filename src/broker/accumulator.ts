// Tool-call accumulation across streamed deltas (SPEC §5), tolerant of how real backends differ:
// calls keyed by `index` (missing → position in the delta's array), a new id at an occupied index
// starts a new call, a repeated id or name is the same call, an empty name never clobbers.
// Pure: no I/O, no events; the stream reads `add`'s return value to announce new calls.

import { isRecord } from '../is-record.js';
import type { ToolCall } from './types.js';

interface Entry {
  id: string;
  name: string;
  args: string;
}

interface Fragment {
  slot: number;
  id: string;
  name: string;
  args: string;
}

/** A call that `add` just started: its position in `calls()` and its name when already known. */
export interface StartedCall {
  index: number;
  name?: string;
}

/** Collects the `tool_calls` arrays of one reply's deltas into whole calls. */
export class ToolCallAccumulator {
  readonly #entries: Entry[] = [];
  readonly #bySlot = new Map<number, Entry>();
  readonly #byId = new Map<string, Entry>();
  #argumentChars = 0;
  #withoutIndex = false;

  /** The chars of every call's arguments so far. */
  get argumentChars(): number {
    return this.#argumentChars;
  }

  /**
   * Whether a fragment came without a usable `index` (some llama.cpp builds omit it for a single
   * call; the OpenAI spec requires it): it was placed by its position in the delta's array.
   */
  get sawMissingIndex(): boolean {
    return this.#withoutIndex;
  }

  /** Adds one delta's `tool_calls` array (anything else is ignored); returns the calls it started. */
  add(toolCalls: unknown): StartedCall[] {
    if (!Array.isArray(toolCalls)) return [];
    const started: StartedCall[] = [];
    toolCalls.forEach((raw, position) => {
      const fragment = readFragment(raw, position);
      if (!fragment) return;
      if (readIndex((raw as Record<string, unknown>).index) === undefined) this.#withoutIndex = true;
      const { entry, isNew } = this.#entryFor(fragment);
      if (fragment.id && !entry.id) {
        entry.id = fragment.id;
        this.#byId.set(fragment.id, entry);
      }
      if (fragment.name && !entry.name) entry.name = fragment.name;
      if (!isRepeatOfWhole(entry, fragment)) {
        entry.args += fragment.args;
        this.#argumentChars += fragment.args.length;
      }
      if (isNew) started.push(entry.name ? { index: this.#entries.length - 1, name: entry.name } : { index: this.#entries.length - 1 });
    });
    return started;
  }

  /** Whether any call has started. */
  get size(): number {
    return this.#entries.length;
  }

  /**
   * The calls so far, in the order they started. Empty arguments become `"{}"`; a call without
   * an id gets `call_<n>` so the tool turn can refer to it. Calls that never got a name are left
   * out (nothing could run them); `unnamed` counts them.
   */
  calls(): { calls: ToolCall[]; unnamed: number } {
    const calls: ToolCall[] = [];
    let unnamed = 0;
    this.#entries.forEach((e, n) => {
      if (!e.name) {
        unnamed++;
        return;
      }
      calls.push({ id: e.id || `call_${n}`, name: e.name, arguments: e.args.trim() === '' ? '{}' : e.args });
    });
    return { calls, unnamed };
  }

  #entryFor(f: Fragment): { entry: Entry; isNew: boolean } {
    const known = f.id ? this.#byId.get(f.id) : undefined;
    if (known) {
      this.#bySlot.set(f.slot, known);
      return { entry: known, isNew: false };
    }
    const current = this.#bySlot.get(f.slot);
    if (current && !startsAnotherCall(current, f)) return { entry: current, isNew: false };
    const entry: Entry = { id: '', name: '', args: '' };
    this.#entries.push(entry);
    this.#bySlot.set(f.slot, entry);
    return { entry, isNew: true };
  }
}

/**
 * Whether a fragment at an occupied slot begins a different call: it carries a new id, or a
 * different name, or (no ids to tell them apart) the same name with a fresh JSON object after
 * the current call's arguments are already complete (Ollama reusing index 0 without ids).
 */
function startsAnotherCall(current: Entry, f: Fragment): boolean {
  if (f.id && current.id) return f.id !== current.id;
  if (f.name && current.name && f.name !== current.name) return true;
  if (f.name && f.args.trimStart().startsWith('{') && current.args !== '' && f.args !== current.args) {
    return isCompleteJson(current.args);
  }
  return false;
}

/** A proxy that re-sends a finished call whole: appending would break its JSON, so it is dropped. */
function isRepeatOfWhole(entry: Entry, f: Fragment): boolean {
  return f.args !== '' && f.args === entry.args && isCompleteJson(entry.args);
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function readFragment(raw: unknown, position: number): Fragment | undefined {
  if (!isRecord(raw)) return undefined;
  const fn = isRecord(raw.function) ? raw.function : {};
  return {
    slot: readIndex(raw.index) ?? position,
    id: typeof raw.id === 'string' ? raw.id : '',
    name: typeof fn.name === 'string' ? fn.name : '',
    args: readArguments(fn.arguments),
  };
}

function readIndex(index: unknown): number | undefined {
  const n = typeof index === 'string' && index.trim() !== '' ? Number(index) : index;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** Arguments are a JSON string on the wire; a few servers send the object itself. */
function readArguments(args: unknown): string {
  if (typeof args === 'string') return args;
  if (isRecord(args) || Array.isArray(args)) return JSON.stringify(args);
  return '';
}

/** Runs a whole reply's `tool_calls` arrays through a fresh accumulator (for tests and buffered replies). */
export function accumulateToolCalls(deltas: readonly unknown[]): ToolCall[] {
  const acc = new ToolCallAccumulator();
  for (const d of deltas) acc.add(d);
  return acc.calls().calls;
}
