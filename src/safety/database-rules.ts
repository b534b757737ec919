// Database clients: SQL that drops or empties data (`psql -c 'DROP …'`, `mysql -e`, SQL on the
// input), and the clients' own ways to run a shell command (`\!` in psql and mysql, `.shell` and
// `.system` in sqlite3, output piped to a program).

import { optionValues, scanOptions, type Call, type OptionSpec, type Rule } from './command-line.js';

const SQL: [RegExp, string][] = [
  [/\bdrop\s+\w/i, 'DROP'],
  [/\btruncate\s+(?:table\s+)?["`\w]/i, 'TRUNCATE'],
  [/\bdelete\s+from\b/i, 'DELETE FROM'],
];

/** A client command that runs a program: `\\! cmd`, `\\o |cmd`, `COPY … PROGRAM`, mysql's `system`. */
const SHELL_ESCAPE = /\\!|\\(?:o|out|g|gx|w|write)\s*\||\bprogram\s+['"$]|(?:^|;)\s*system\s/im;
/** sqlite3's dot commands that run a program: `.shell`, `.system`, `.once |cmd`, `.import '|cmd'`. */
const SQLITE_SHELL = /^\s*\.(?:shell|system)\b|^\s*\.(?:once|output|import|read|excel)\s+(?:-\S+\s+)*['"]?\|/m;

function sqlReason(client: string, statements: readonly string[]): string | undefined {
  if (statements.some((s) => SHELL_ESCAPE.test(s) || SQLITE_SHELL.test(s))) return `a shell command through ${client}`;
  for (const [pattern, what] of SQL) if (statements.some((s) => pattern.test(s))) return `${what} through ${client}`;
  return undefined;
}

/** A database client whose options in `statements` carry SQL (`psql -c`, `mysql -e`); input too. */
export function sqlClient(spec: OptionSpec, statements: string[]): Rule {
  return ({ name, args, stdin }) => sqlReason(name, [...optionValues(scanOptions(args, spec), ...statements), ...stdin]);
}

export const PSQL_OPTIONS = ['--command', '--dbname', '--file', '--host', '--port', '--username', '--set', '--variable'];
const MYSQL_OPTIONS = ['--execute', '--database', '--host', '--port', '--user', '--socket'];
export const MYSQL = sqlClient({ value: 'eDhPuSO', attached: 'p', longValue: MYSQL_OPTIONS }, ['e', '--execute']);
const SQLITE_VALUE = new Set(['-separator', '-nullvalue', '-newline', '-init', '-vfs', '-mmap', '-maxsize']);

/** `sqlite3 [options] DB [SQL…]`, `-cmd SQL`, or SQL on its input. */
export function sqlite({ name, args, stdin }: Call): string | undefined {
  const statements = [...stdin];
  let database: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-cmd') statements.push(args[++i] ?? '');
    else if (SQLITE_VALUE.has(arg)) i++;
    else if (arg.startsWith('-')) continue;
    else if (database === undefined) database = arg;
    else statements.push(arg);
  }
  return sqlReason(name, statements);
}

