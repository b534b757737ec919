// What `aish -p --output json|jsonl` writes on stdout for a script (docs/usage.md "Scripting with
// -p"): one JSON object when the answer is complete, or one JSON event per line as the turn goes.
// Every line is whole (one write, ended by a newline, through `jsonLine`, so nothing raw reaches
// a terminal); the last line is the answer (`done`) or the error, never both, never twice; after
// stdout is lost nothing more is written. It also keeps the tally of tool calls the exit code
// reads, for plain `-p` too. Secrets: the same `redact` as the terminal's renderer, on the same
// fields (status and error lines, tool arguments and results); the reply text passes as is, as on
// the terminal (the model never saw a secret).

import type { ToolOutcome } from '../tool-call.js';
import type { TurnEvent, TurnObserver } from '../turn/types.js';
import type { Renderer } from './renderer.js';
import { jsonLine } from './sanitize.js';
import { drawToolAlerts } from './turn-view.js';

type ToolCall = Extract<TurnEvent, { type: 'tool-end' }>['call'];

/** `text` writes nothing here (the turn view draws the reply) and keeps only the tally. */
export type ScriptFormat = 'text' | 'json' | 'jsonl';

/** One tool call of the answer, in the order the model made them. */
export interface ScriptToolCall {
  name: string;
  /** The arguments as an object, or the model's text when it was not JSON. */
  arguments: unknown;
  status: ToolOutcome['status'];
  /** What the model was given as the call's result. */
  result: string;
}

/** The answer, as the `json` object and the `jsonl` `done` event carry it. */
export interface ScriptAnswer {
  reply: string;
  cmd_lines: string[];
  model: string;
  usage: { prompt_tokens: number; completion_tokens: number; estimated: boolean };
  session: string | null;
}

/**
 * Why there is no answer: a model or broker failure (`transport`, `decode`, `api`, `broker`),
 * `usage`, `config`, `interrupted` or `internal`.
 */
export interface ScriptError {
  kind: string;
  message: string;
}

/** Where the lines go: stdout. `destroyed` once it has failed (EPIPE). */
export interface LineSink {
  write(text: string): unknown;
  destroyed?: boolean;
}

/** The error's line in `format` (for an error before the turn's output exists: a bad config). */
export function scriptErrorLine(format: 'json' | 'jsonl', error: ScriptError): string {
  return `${jsonLine(format === 'json' ? { error } : { type: 'error', ...error })}\n`;
}

export class ScriptOutput {
  readonly #format: ScriptFormat;
  readonly #out: LineSink;
  readonly #redact: (text: string) => string;
  readonly #calls: Array<ScriptToolCall & { id: string }> = [];
  /** Text or reasoning of the current job, written as one event when the job is done. */
  #held: { type: 'text' | 'reasoning'; text: string } | null = null;
  /** The model failure as the person saw it (with its hint), for the final error. */
  #modelError: string | undefined;
  #finished = false;

  constructor(format: ScriptFormat, out: LineSink, redact: (text: string) => string) {
    this.#format = format;
    this.#out = out;
    this.#redact = redact;
  }

  /** Whether the last line (the answer or the error) has been written. */
  get finished(): boolean {
    return this.#finished;
  }

  /** Whether a tool call the model made did not run because of the policy (exit code 3). */
  get toolDenied(): boolean {
    return this.#calls.some((c) => c.status === 'denied' || c.status === 'needs_approval');
  }

  /** The turn core's observer: collects tool calls, and in `jsonl` writes each event as it comes. */
  readonly observer: TurnObserver = (e: TurnEvent) => {
    switch (e.type) {
      case 'text':
      case 'reasoning':
        this.#hold(e.type, e.text);
        return;
      case 'tool-begin':
        this.#callBegun(e.call, e.args);
        return;
      case 'tool-end':
        this.#callEnded(e.call, e.outcome);
        return;
      case 'tool-declined':
        this.#callBegun(e.call, e.args);
        this.#callEnded(e.call, e.outcome);
        return;
      case 'status':
      case 'notice':
      case 'context':
        this.#event({ type: 'status', message: this.#redact(e.message) });
        return;
      case 'error':
        // Written once the run ends, with its kind: the last line.
        this.#modelError = e.message;
        return;
      default:
        return;
    }
  };

  /** The answer: the `json` object, or the `jsonl` `done` event. Once. */
  answer(answer: ScriptAnswer): void {
    const tool_calls = this.#calls.map(({ id: _id, ...call }) => call);
    this.#last({ ...answer, tool_calls }, { type: 'done', ...answer, tool_calls });
  }

  /** The error instead of an answer. Once; a model failure keeps the message the person saw. */
  fail(error: ScriptError, modelFailure = false): void {
    const message = this.#redact(modelFailure ? (this.#modelError ?? error.message) : error.message);
    this.#last({ error: { kind: error.kind, message } }, { type: 'error', kind: error.kind, message });
  }

  #last(object: object, event: object): void {
    if (this.#finished) return;
    this.#flush();
    this.#finished = true;
    if (this.#format === 'json') this.#write(object);
    if (this.#format === 'jsonl') this.#write(event);
  }

  #callBegun(call: ToolCall, args: Record<string, unknown> | undefined): void {
    const shown = args === undefined ? this.#redact(call.arguments) : redactStrings(args, this.#redact);
    this.#calls.push({ id: call.id, name: call.name, arguments: shown, status: 'cancelled', result: '' });
    this.#event({ type: 'tool_call', id: call.id, name: call.name, arguments: shown });
  }

  #callEnded(call: ToolCall, outcome: ToolOutcome): void {
    const entry = this.#calls.findLast((c) => c.id === call.id);
    const result = this.#redact(outcome.content);
    if (entry) Object.assign(entry, { status: outcome.status, result });
    this.#event({ type: 'tool_result', id: call.id, name: call.name, status: outcome.status, result });
  }

  /** Text of one job (a network read's deltas) becomes one event; any other event comes after it. */
  #hold(type: 'text' | 'reasoning', text: string): void {
    if (this.#format !== 'jsonl' || text === '') return;
    if (this.#held && this.#held.type !== type) this.#flush();
    if (!this.#held) {
      this.#held = { type, text: '' };
      queueMicrotask(() => this.#flush());
    }
    this.#held.text += text;
  }

  #flush(): void {
    const held = this.#held;
    if (!held) return;
    this.#held = null;
    this.#write(held);
  }

  #event(event: object): void {
    if (this.#format !== 'jsonl' || this.#finished) return;
    this.#flush();
    this.#write(event);
  }

  #write(value: object): void {
    // A reader that went away (EPIPE) ends aish through the shutdown; writing on would fail again.
    if (this.#out.destroyed) return;
    this.#out.write(`${jsonLine(value)}\n`);
  }
}

/** `value` with `redact` applied to every string in it, keys left alone. */
function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, redact));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, redact)]));
  return value;
}

/**
 * The lines a person still reads on stderr while stdout carries JSON: status, context and error
 * lines, and a tool's own alerts and notices. No reply text, no frames, no spinner.
 */
export function createStatusView(render: Renderer): TurnObserver {
  // Notices are said once per session, as in the turn view.
  const noticed = new Set<string>();
  return (e) => {
    switch (e.type) {
      case 'status':
      case 'notice':
        render.status(e.message);
        return;
      case 'context':
        render.context(e.message);
        return;
      case 'error':
        render.error(e.message);
        return;
      case 'tool-end':
        drawToolAlerts(render, e.outcome, noticed);
        return;
      default:
        return;
    }
  };
}
