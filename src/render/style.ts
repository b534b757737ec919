// Colour policy: NO_COLOR wins, then FORCE_COLOR, then whether output is a terminal (SPEC §2).

import { Chalk, type ChalkInstance } from 'chalk';

export type ColorLevel = 0 | 1 | 2 | 3;

/** The chalk level for these environment variables and this output. */
export function colorLevel(env: Record<string, string | undefined>, isTTY: boolean): ColorLevel {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '' || force === 'true') return 1;
    if (force === 'false') return 0;
    const n = Number.parseInt(force, 10);
    if (Number.isFinite(n)) return Math.max(0, Math.min(3, n)) as ColorLevel;
    return 1;
  }
  if (!isTTY || env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (env.TERM?.includes('256')) return 2;
  return 1;
}

export function createStyle(level: ColorLevel): ChalkInstance {
  return new Chalk({ level });
}
