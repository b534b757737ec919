// The session file format (SPEC §8): where files live, their names, and the exact JSON of each
// line. The writer and the readers share this so the format is defined once.

import path from 'node:path';
import type { Turn } from '../context/turns.js';

/** The format this aish writes; a header with a higher `format` is refused when loading. */
export const SESSION_FORMAT = 1;

/** Line 1 of a session file: `{"meta": SessionMeta}`. Files from before `format` existed count as 1. */
export interface SessionMeta {
  started: string;
  model: string;
  aish_version: string;
  format: number;
}

export const SESSION_EXT = '.jsonl';

/**
 * The history dir: `history.dir` (`~` expanded, relative to `cwd`), else aish's XDG state dir;
 * undefined turns persistence off.
 */
export function historyDirOf(dir: string | undefined, where: { stateDir: string | undefined; home: string | undefined; cwd: string }): string | undefined {
  if (!dir) return where.stateDir;
  if (where.home && (dir === '~' || dir.startsWith('~/'))) return path.join(where.home, dir.slice(1));
  return path.resolve(where.cwd, dir);
}

/** `<history dir>/sessions`. */
export function sessionsDir(historyDir: string): string {
  return path.join(historyDir, 'sessions');
}

/** The file name stem for a session started at `date`: `YYYY-MM-DDTHH-MM-SSZ` in UTC. */
export function sessionStem(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace(/:/g, '-')}Z`;
}

/** The JSON line of a turn, keys in the documented order; tool calls as stored (`{id, name, arguments}`). */
export function turnLine(turn: Turn): string {
  switch (turn.role) {
    case 'user':
      return JSON.stringify({ role: 'user', content: turn.content });
    case 'assistant':
      return JSON.stringify(
        turn.tool_calls?.length
          ? {
              role: 'assistant',
              content: turn.content,
              tool_calls: turn.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
            }
          : { role: 'assistant', content: turn.content },
      );
    case 'tool':
      return JSON.stringify(
        turn.name
          ? { role: 'tool', tool_call_id: turn.tool_call_id, content: turn.content, name: turn.name }
          : { role: 'tool', tool_call_id: turn.tool_call_id, content: turn.content },
      );
  }
}
