// The error classes of aish. Expected outcomes (a command's exit code, a declined tool call) are
// values, not errors; these are for what went wrong. Each names what failed.

/** The exit code when `err` says the terminal or the reader of a stream has gone away. */
export function lostStreamCode(err: unknown): number | undefined {
  switch ((err as NodeJS.ErrnoException | null | undefined)?.code) {
    case 'EIO':
      // The terminal hung up: as if by SIGHUP (128 + 1).
      return 129;
    case 'EPIPE':
      // The reader has what it wanted (`aish … | head`).
      return 0;
    default:
      return undefined;
  }
}

/** Base class: every aish error carries a stable `code`. */
export class AishError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** One problem found in a config file, by dotted path. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** A config file that cannot be used. `issues` lists every problem, not just the first. */
export class ConfigError extends AishError {
  constructor(
    readonly file: string | undefined,
    readonly issues: ConfigIssue[],
  ) {
    super('config', formatConfigIssues(file, issues));
  }
}

/** How much of a config's own text (a key, a value quoted in a message) an error line quotes. */
export const QUOTE_CHARS = 200;
/** How many problems a config error lists; the rest are counted. */
const MAX_ISSUES = 20;

/**
 * At most `max` characters of `text`, the cut said: a config error quotes the file's keys and
 * values, and a 5 MB value must not be echoed whole.
 */
export function clipQuote(text: string, max = QUOTE_CHARS): string {
  const chars = [...text.slice(0, max * 2 + 2)];
  if (chars.length <= max) return text;
  const rest = [...text].length - max;
  return `${chars.slice(0, max).join('')}[… ${rest} more chars]`;
}

function formatConfigIssues(file: string | undefined, issues: ConfigIssue[]): string {
  const where = file ? `config ${file}` : 'config';
  const lines = issues.slice(0, MAX_ISSUES).map((i) => (i.path ? `  ${clipQuote(i.path)}: ${clipQuote(i.message, QUOTE_CHARS * 2)}` : `  ${clipQuote(i.message, QUOTE_CHARS * 2)}`));
  if (issues.length > MAX_ISSUES) lines.push(`  … and ${issues.length - MAX_ISSUES} more`);
  return `${where}: ${issues.length} problem${issues.length === 1 ? '' : 's'}\n${lines.join('\n')}`;
}

/** Wrong arguments to a meta command or a command-line flag. */
export class UsageError extends AishError {
  constructor(message: string) {
    super('usage', message);
  }
}

/** Ends the program with `exitCode`; caught only in main.ts. */
export class FatalError extends AishError {
  constructor(
    message: string,
    readonly exitCode: number,
    options?: { cause?: unknown },
  ) {
    super('fatal', message, options);
  }
}

/** The message of anything thrown, without a stack. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Why a file could not be written, in words (a full disk is said as such, not as `ENOSPC: ...`). */
export function fileWriteProblem(err: unknown): string {
  switch ((err as NodeJS.ErrnoException | null | undefined)?.code) {
    case 'ENOSPC':
      return 'the disk is full (ENOSPC)';
    case 'EDQUOT':
      return 'the disk quota is used up (EDQUOT)';
    case 'EROFS':
      return 'the file system is read-only (EROFS)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${(err as NodeJS.ErrnoException).code})`;
    case 'EFBIG':
      return 'the file is too large (EFBIG)';
    case 'EIO':
      return 'an I/O error (EIO)';
    default:
      return errorMessage(err);
  }
}

/** One line for the person: the message of a known error, more only with AISH_DEBUG. */
export function describeError(err: unknown, env: Record<string, string | undefined>): string {
  if (err instanceof AishError) return err.message;
  const base = `internal error: ${errorMessage(err)}`;
  return env.AISH_DEBUG && err instanceof Error && err.stack ? `${base}\n${err.stack}` : base;
}
