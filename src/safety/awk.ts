// awk programs given on the command line: awk can run commands (`system()`, `print | "cmd"`,
// `"cmd" | getline`) and write files (`print > "file"`), which a shell line does not show.
// A program read from a file is not known here, like any script; from the input it counts.

import { INPUT_PATH, optionValues, scanOptions, type Call, type OptionSpec } from './command-line.js';

const AWK_OPTIONS: OptionSpec = {
  value: 'FvfeilE',
  longValue: ['--field-separator', '--assign', '--file', '--source', '--include', '--load', '--exec'],
  stopAtOperand: true,
};

const RUNS = /\bsystem\s*\(/;
/** A pipe to or from a command (`print | "sort"`, `"date" | getline`, gawk's `|&`), not `||`. */
const PIPE = /(?<!\|)\|(?!\|)/;
/** `print … > file` or `>> file`; the standard streams are harmless. */
const WRITES = /\bprintf?\b[^;{}]*>(?!\s*"\/dev\/(?:stdout|stderr)")/;

export function awk({ name, args }: Call): string | undefined {
  const scanned = scanOptions(args, AWK_OPTIONS);
  const files = optionValues(scanned, 'f', '--file', 'E', '--exec');
  const fromInput = files.find((f) => f === '-' || INPUT_PATH.test(f));
  if (fromInput !== undefined) return `${name} reading a program from its input`;
  const programs = optionValues(scanned, 'e', '--source');
  if (files.length === 0 && programs.length === 0) programs.push(scanned.operands[0] ?? '');
  for (const program of programs) {
    if (RUNS.test(program)) return `${name} system()`;
    if (PIPE.test(program)) return `${name} piping to a command`;
    if (WRITES.test(program)) return `${name} writing to a file`;
  }
  return undefined;
}
