// Reads a session file back (SPEC §8) as turns that can always be appended to a Context: torn and
// garbage lines are skipped with a warning, turns out of order are dropped, and tool calls the
// session never answered get an "interrupted" tool turn. Streams the file; with `keepTurns` the
// memory held is bounded by that, not by the file's size.

import fs from 'node:fs';
import readline from 'node:readline';
import { errorMessage } from '../errors.js';
import {
  nextOpenCalls,
  orderProblem,
  parseTurn,
  withToolName,
  type AssistantTurn,
  type ToolCall,
  type ToolTurn,
  type Turn,
} from '../context/turns.js';
import { SESSION_FORMAT, type SessionMeta } from './format.js';
import { CappedWarnings, jsonlStream } from './jsonl.js';
import { SessionError } from './session-error.js';
import { isRecord } from '../is-record.js';

/** The content of a tool turn made up for a call the session never answered. */
export const INTERRUPTED_TOOL_RESULT = '[aish] tool call interrupted (session ended before it finished)';
/** The content of an assistant turn made up for a last question whose reply the log does not have. */
export const NO_REPLY_RESULT = '[aish] no reply (the session log ends before one was written)';

/** A `:tools enable|disable <target>` switch as the log keeps it. */
export interface SessionToolRule {
  op: 'enable' | 'disable';
  target: string;
}

/** The rules of a `"tools"` event; malformed entries are dropped. */
function parseToolRules(value: unknown): SessionToolRule[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((r) =>
    isRecord(r) && (r.op === 'enable' || r.op === 'disable') && typeof r.target === 'string' && r.target !== '' ? [{ op: r.op, target: r.target }] : [],
  );
}

export interface LoadOptions {
  /**
   * Keep about this many of the newest turns (whole exchanges: the oldest are dropped while more
   * than this are held; the newest exchange is always kept whole). Default: all. Resume passes a
   * few times `context.max_turns` (e.g. 4x), so memory follows the context budget, not the file.
   */
  keepTurns?: number;
}

export interface LoadedSession {
  file: string;
  meta: SessionMeta;
  /** The turns in order, repairs included; valid to `Context.appendMany` as they are. */
  turns: Turn[];
  /** The last summary recorded, or null. */
  summary: string | null;
  /** The last `:tools` switches recorded (a `"tools"` event), or null when none were. */
  toolRules: SessionToolRule[] | null;
  /** One line per problem, naming the line (`line 17: not valid JSON, skipped`). */
  warnings: string[];
  /** The turns made up to close what the log left open (also in `turns`, in place): a tool turn for each unanswered call, an assistant turn after a last question with no reply. */
  repaired: Array<ToolTurn | AssistantTurn>;
  /** Older turns left out because of `keepTurns`. */
  omitted: number;
}

/**
 * Loads a session file. Throws SessionError when the file cannot be read, is empty, does not start
 * with a session header, or was written by a newer aish (header `format` above ours).
 */
export async function loadSession(file: string, options: LoadOptions = {}): Promise<LoadedSession> {
  const keep = options.keepTurns ?? Infinity;
  const warnings = new CappedWarnings();
  const warn = (message: string) => warnings.add(message);

  let meta: SessionMeta | null = null;
  let summary: string | null = null;
  let toolRules: SessionToolRule[] | null = null;
  const repaired: Array<ToolTurn | AssistantTurn> = [];
  // The newest exchanges, each starting with a user turn.
  const exchanges: Turn[][] = [];
  let held = 0;
  let omitted = 0;
  let open: ToolCall[] = [];
  let lastUserLine = 0;

  const lastTurn = (): Turn | undefined => exchanges[exchanges.length - 1]?.at(-1);
  const push = (turn: Turn) => {
    if (turn.role === 'user' || exchanges.length === 0) exchanges.push([]);
    exchanges[exchanges.length - 1]!.push(turn);
    held++;
    open = nextOpenCalls(open, turn);
    while (held > keep && exchanges.length > 1) {
      const dropped = exchanges.shift()!;
      held -= dropped.length;
      omitted += dropped.length;
    }
  };
  const repairOpenCalls = () => {
    for (const call of open.slice()) {
      const tool: ToolTurn = { role: 'tool', tool_call_id: call.id, content: INTERRUPTED_TOOL_RESULT, name: call.name };
      repaired.push(tool);
      push(tool);
    }
  };

  const input = fs.createReadStream(file, { encoding: 'utf8' });
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  // An unreadable line is told once it is known whether it was the last (a write cut short).
  let unreadable = 0;
  try {
    for await (const entry of jsonlStream(lines)) {
      const { lineNo } = entry;
      if (unreadable) {
        warn(`line ${unreadable}: not valid JSON, skipped`);
        unreadable = 0;
      }
      if (meta === null) {
        meta = parseHeader(file, entry.invalid ? null : entry.record);
        continue;
      }
      if (entry.invalid) {
        unreadable = lineNo;
        continue;
      }
      const { record } = entry;
      if (isRecord(record) && 'event' in record) {
        if (record.event === 'summary') summary = typeof record.summary === 'string' && record.summary !== '' ? record.summary : null;
        if (record.event === 'tools') toolRules = parseToolRules(record.rules);
        // `:reset` emptied the conversation: what came before is not part of it any more.
        if (record.event === 'reset') {
          omitted += held;
          exchanges.length = 0;
          held = 0;
          open = [];
          summary = null;
        }
        continue;
      }
      let turn: Turn;
      try {
        turn = parseTurn(record);
      } catch (err) {
        warn(`line ${lineNo}: not a turn (${errorMessage(err)}), skipped`);
        continue;
      }
      // A crash mid tool loop leaves calls open; a later turn closes them as interrupted.
      if (turn.role !== 'tool' && open.length > 0) repairOpenCalls();
      // A user turn whose request failed is logged but was never answered; the retry follows it.
      if (turn.role === 'user' && lastTurn()?.role === 'user') {
        const unanswered = exchanges.pop()!;
        held -= unanswered.length;
        warn(`line ${lastUserLine}: user turn never answered, dropped`);
      }
      turn = withToolName(turn, open);
      const problem = orderProblem(lastTurn(), open, turn);
      if (problem) {
        warn(`line ${lineNo}: ${problem}, skipped`);
        continue;
      }
      if (turn.role === 'user') lastUserLine = lineNo;
      push(turn);
    }
  } catch (err) {
    if (err instanceof SessionError) throw err;
    throw new SessionError(`cannot read session ${file}: ${errorMessage(err)}`, { cause: err });
  } finally {
    lines.close();
    input.destroy();
  }
  if (meta === null) throw new SessionError(`session ${file} is empty`);
  if (unreadable) warn(`line ${unreadable}: cut off mid-write (the last line is torn), dropped`);
  repairOpenCalls();
  // The last question has no reply in the log (cut off, or the process died): it stays, closed,
  // so the conversation can go on and the question is not lost.
  if (lastTurn()?.role === 'user') {
    const closing: AssistantTurn = { role: 'assistant', content: NO_REPLY_RESULT };
    repaired.push(closing);
    push(closing);
    warn(`line ${lastUserLine}: the last question has no reply in the log, closed`);
  }
  return { file, meta, turns: exchanges.flat(), summary, toolRules, warnings: warnings.list, repaired, omitted };
}

/** The session header from the first line's record (null: the line is not JSON). */
function parseHeader(file: string, value: unknown): SessionMeta {
  const meta = isRecord(value) ? value.meta : undefined;
  if (!isRecord(meta)) throw new SessionError(`${file} is not an aish session (line 1 is not a session header)`);
  const format = typeof meta.format === 'number' ? meta.format : 1;
  if (format > SESSION_FORMAT) throw new SessionError(`session ${file} was written by a newer aish (format ${format})`);
  return {
    started: typeof meta.started === 'string' ? meta.started : '',
    model: typeof meta.model === 'string' ? meta.model : '',
    aish_version: typeof meta.aish_version === 'string' ? meta.aish_version : '',
    format,
  };
}
