// The colour policy, and the two styles the front (front.ts) paints with before the program is
// loaded: dim and bold, written byte for byte as chalk writes them (style.ts), without chalk, whose
// set-up (supports-color, ansi-styles) cost about 2 ms of every start to the first prompt.

export type ColorLevel = 0 | 1 | 2 | 3;

/** The colour level for these environment variables and this output (SPEC §2): NO_COLOR wins, then FORCE_COLOR, then whether output is a terminal. */
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

export interface FrontStyle {
  dim(text: string): string;
  bold(text: string): string;
}

/** dim and bold at `level`, as `new Chalk({ level }).dim` and `.bold` write them. */
export function frontStyle(level: ColorLevel): FrontStyle {
  return { dim: sgr(level, '\x1b[2m', '\x1b[22m'), bold: sgr(level, '\x1b[1m', '\x1b[22m') };
}

/** One SGR style as chalk applies it: a close code inside reopens the style, each line is closed and reopened. */
function sgr(level: ColorLevel, open: string, close: string): (text: string) => string {
  return (text) => {
    if (level <= 0 || !text) return text;
    let body = text.includes('\x1b') ? text.split(close).join(close + open) : text;
    if (body.includes('\n')) body = body.replace(/\r?\n/g, (eol) => close + eol + open);
    return open + body + close;
  };
}
