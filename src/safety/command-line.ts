// The words of one simple command, read the way the program reads them: getopt-style options
// (`-rf` bundles, `--long=value`, `--` ends them), and the wrappers that only run the command
// after them (`sudo -u x`, `env A=1`, `timeout 5`, `xargs -0`, a path or a leading backslash).
// Pure.

import { tokenize, type Word } from './shell-lexer.js';

/** One command, unwrapped, as the rules see it. */
export interface Call {
  /** The program's name (`rm`, `mkfs.ext4`). */
  name: string;
  /** The arguments after quote removal. */
  args: string[];
  /** The same arguments as words (quoting, expansions, substitutions). */
  words: Word[];
  /** Its input comes from a pipe. */
  piped: boolean;
  /** Text it reads on its input that can be seen here: here-documents, here-strings, `echo … |`. */
  stdin: string[];
  fileExists?: (path: string) => boolean;
  /** Judges a script this command runs (`sh -c`, `eval`), one level deeper; `batch` as below. */
  judgeScript(source: string, batch?: string): string | undefined;
  /** Judges a command this one runs: once per name when `batch` says how (`find -exec`). */
  judgeCommand(words: Word[], batch?: string): string | undefined;
}

/** A destructive command's reason, or undefined. */
export type Rule = (call: Call) => string | undefined;

export interface Option {
  /** The letter of a short option (`r` for `-r`), or the whole long name (`--force`). */
  name: string;
  value?: string;
}

export interface OptionSpec {
  /** Short options that take a value, attached (`-n5`) or as the next word. */
  value?: string;
  /** Short options whose value can only be attached (`mysql -psecret`, `sed -i.bak`). */
  attached?: string;
  /** Long options that take the next word as their value when written without `=`. */
  longValue?: readonly string[];
  /** Other long options the program knows, so an abbreviation (`--rec`) resolves to one name. */
  long?: readonly string[];
  /** Options end at the first operand (a wrapper: the rest is the command it runs). */
  stopAtOperand?: boolean;
}

export interface ScannedArgs {
  options: Option[];
  operands: string[];
  /** With `stopAtOperand`: the index of the first operand (the wrapped command). */
  end: number;
}

/** Splits `args` into options and operands, GNU getopt style. */
export function scanOptions(args: readonly string[], spec: OptionSpec = {}): ScannedArgs {
  const options: Option[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return { options, operands: [...operands, ...args.slice(i + 1)], end: i + 1 };
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = resolveLong(eq < 0 ? arg : arg.slice(0, eq), spec);
      const value = eq >= 0 ? arg.slice(eq + 1) : spec.longValue?.includes(name) ? args[++i] : undefined;
      options.push(value === undefined ? { name } : { name, value });
    } else if (arg.startsWith('-') && arg.length > 1) {
      i = readBundle(args, i, spec, options);
    } else if (spec.stopAtOperand) {
      return { options, operands: args.slice(i), end: i };
    } else operands.push(arg);
  }
  return { options, operands, end: args.length };
}

/** A long option as getopt reads it: an abbreviation of exactly one known name is that name. */
function resolveLong(name: string, spec: OptionSpec): string {
  const known = [...(spec.longValue ?? []), ...(spec.long ?? [])];
  if (known.includes(name)) return name;
  const candidates = known.filter((k) => k.startsWith(name));
  return candidates.length === 1 ? candidates[0]! : name;
}

/** Reads `-abc` at `args[i]`; returns the index of the last word it used. */
function readBundle(args: readonly string[], i: number, spec: OptionSpec, options: Option[]): number {
  const arg = args[i]!;
  for (let j = 1; j < arg.length; j++) {
    const name = arg[j]!;
    const rest = arg.slice(j + 1);
    if (spec.value?.includes(name)) {
      const value = rest || args[i + 1];
      options.push(value === undefined ? { name } : { name, value });
      return rest ? i : i + 1;
    }
    if (spec.attached?.includes(name) && rest) {
      options.push({ name, value: rest });
      return i;
    }
    options.push({ name });
  }
  return i;
}

/** A path that reads what the command is given on its input: `bash /dev/stdin <<< '…'`. */
export const INPUT_PATH = /^\/dev\/(?:stdin|fd\/\d+)$|^\/proc\/(?:self|thread-self|\d+)\/fd\/\d+$/;

/** The first reason `judge` gives for one of `items`. */
export function firstReason<T>(items: Iterable<T>, judge: (item: T) => string | undefined): string | undefined {
  for (const item of items) {
    const reason = judge(item);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** A table's own entry for `key` (never one of Object's: `constructor`, `toString`). */
export function entry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Whether any of `names` (letters or `--long` names) was given. A long option still abbreviated
 * after scanning (`--forc`: the program's other names were not told) counts for every name it
 * abbreviates: getopt takes it if unique, and if not the program refuses to run.
 */
export function hasOption(scanned: ScannedArgs, ...names: string[]): boolean {
  return scanned.options.some((o) => names.some((n) => isSpelling(o.name, n)));
}

/** `given` is `name` or an abbreviation of the long option `name` (`--rec` of `--recursive`). */
export function isSpelling(given: string, name: string): boolean {
  return given === name || (given.length > 2 && given.startsWith('--') && name.startsWith(given));
}

/** The values given to any of `names`. */
export function optionValues(scanned: ScannedArgs, ...names: string[]): string[] {
  return scanned.options.flatMap((o) => (names.some((n) => isSpelling(o.name, n)) && o.value !== undefined ? [o.value] : []));
}

/** A program's name as the shell finds it: `/usr/bin/rm` and `./rm` are `rm`. */
export function commandName(word: Word): string {
  return word.text.slice(word.text.lastIndexOf('/') + 1);
}

/**
 * What runs is not known here: the name comes from an expansion (`$CMD`, `$(which rm)`), a glob
 * (`/usr/bin/r[m]`) or a brace expansion (`{rm,-rf,x}`). `[` and `[[` are the test commands.
 */
export function isHiddenName(word: Word): boolean {
  if (word.pattern && word.text !== '[' && word.text !== '[[') return true;
  return word.dynamic && /[$`)}]/.test(commandName(word));
}

interface Wrapper extends OptionSpec {
  /** Operands the wrapper reads before the command: `timeout 5s`, `chrt 10`. */
  skip?: number;
  /** Options after which no command runs (`command -v rm` only looks it up). */
  lookup?: string;
  /** The command runs once for each of a list of names (`xargs`). */
  batch?: boolean;
  /** Options whose value is split into more words of the command (`env -S 'rm -r x'`). */
  split?: string[];
  /** After the operands it skips, these give a command line for `sh -c` (`flock FILE -c 'cmd'`). */
  shell?: string[];
}

const WRAPPERS: Record<string, Wrapper> = {
  command: { lookup: 'vV' },
  builtin: {},
  exec: { value: 'a' },
  nohup: {},
  busybox: {},
  nice: { value: 'n', longValue: ['--adjustment'] },
  time: { value: 'fo', longValue: ['--format', '--output'] },
  timeout: { value: 'sk', longValue: ['--signal', '--kill-after'], skip: 1 },
  env: { value: 'uCS', longValue: ['--unset', '--chdir', '--split-string'], split: ['S', '--split-string'] },
  sudo: {
    value: 'ugpCDrtTUh',
    longValue: ['--user', '--group', '--prompt', '--close-from', '--chdir', '--role', '--type', '--other-user', '--host', '--command-timeout'],
    lookup: 'lKVe',
  },
  doas: { value: 'uC' },
  xargs: {
    value: 'adEILnPs',
    attached: 'eil',
    longValue: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
    batch: true,
  },
  stdbuf: { value: 'ioe', longValue: ['--input', '--output', '--error'] },
  ionice: { value: 'cnpPu', longValue: ['--class', '--classdata', '--pid', '--pgid', '--uid'] },
  chrt: { value: 'TPD', longValue: ['--sched-runtime', '--sched-period', '--sched-deadline'], skip: 1 },
  setsid: {},
  unbuffer: {},
  firejail: {}, // its options carry their values after `=`
  flock: { value: 'wE', longValue: ['--timeout', '--wait', '--conflict-exit-code'], skip: 1, shell: ['-c', '--command'] },
  taskset: { skip: 1 }, // the CPU mask
  chroot: { longValue: ['--userspec', '--groups'], skip: 1 },
  pkexec: { longValue: ['--user'] },
  strace: { value: 'aboeEIOpPsSuUX', longValue: ['--output', '--attach', '--user', '--env', '--expr', '--trace', '--signal', '--string-limit', '--trace-path'] },
  ltrace: { value: 'aAeEFlnopsuwxD', longValue: ['--output', '--library', '--indent', '--align'] },
  'systemd-run': {
    value: 'upEMH',
    longValue: [
      ...['--unit', '--property', '--description', '--slice', '--uid', '--gid', '--nice', '--working-directory', '--setenv', '--machine', '--host'],
      ...['--service-type', '--on-active', '--on-boot', '--on-startup', '--on-unit-active', '--on-unit-inactive', '--on-calendar'],
      ...['--timer-property', '--path-property', '--socket-property'],
    ],
  },
};

/** A `NAME=value`, `NAME+=value` or `NAME[i]=value` word: an assignment, not a command's name. */
export const ASSIGNMENT = /^[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=/;

export interface Unwrapped {
  /** The command that really runs, name first; empty when there is none. */
  words: Word[];
  /** The wrapper that runs it once per input name (`xargs`), if any. */
  batch?: string;
}

/** Strips assignments and wrappers (`sudo -u x env A=1 nice -n 5 rm …` is `rm …`). */
export function unwrap(words: readonly Word[]): Unwrapped {
  let rest = [...words];
  let batch: string | undefined;
  for (;;) {
    while (rest[0] && ASSIGNMENT.test(rest[0].text)) rest.shift();
    const name = rest[0] && !isHiddenName(rest[0]) ? commandName(rest[0]) : '';
    const wrapper = entry(WRAPPERS, name);
    if (!wrapper) return batch ? { words: rest, batch } : { words: rest };
    const args = rest.slice(1);
    const scanned = scanOptions(args.map((w) => w.text), { ...wrapper, stopAtOperand: true });
    if (wrapper.lookup && hasOption(scanned, ...wrapper.lookup)) return { words: [] };
    const split = optionValues(scanned, ...(wrapper.split ?? [])).flatMap(splitWords);
    rest = [...split, ...args.slice(scanned.end + (wrapper.skip ?? 0))];
    if (rest[0] && wrapper.shell?.includes(rest[0].text)) rest = [...splitWords('sh -c'), ...rest.slice(1)];
    if (wrapper.batch) batch = name;
  }
}

/** `env -S 'a b'` splits its value into words, quotes and all. */
export function splitWords(text: string): Word[] {
  return tokenize(text).flatMap((t) => (t.type === 'word' ? [t.word] : []));
}
