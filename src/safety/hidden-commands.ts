// Commands that run other commands: shells (`bash -c`, `| sh`, here-documents), `eval`, `watch`,
// `ssh host CMD`, `find -exec`, `source <( … )`, interpreters given code inline (`python -c`,
// `perl -e`, `node -e`), and builtins that keep code for later (`alias`, `trap`: see
// definition-rules.ts). What a shell would run is read and judged like the outer line; code for
// other languages cannot be read here, so it counts as destructive.

import { entry, firstReason, hasOption, INPUT_PATH, optionValues, scanOptions, type Call, type OptionSpec, type Rule } from './command-line.js';
import { awk } from './awk.js';
import { DEFINITION_RULES } from './definition-rules.js';

interface Language {
  /** Options that give the program on the command line. */
  code: string[];
  options?: OptionSpec;
  /** The option that runs a library module instead of a program (`python -m`). */
  module?: string;
  /** A shell: the program is shell code, read and judged here. */
  shell?: boolean;
}

/** A program given inline, through `<( … )`, piped in or in a here-document. */
function program(language: Language): Rule {
  return (call) => {
    const args = language.shell ? call.args.map((a) => a.replace(/^\+/, '-')) : call.args; // `+o name` as `-o name`
    const scanned = scanOptions(args, { ...language.options, stopAtOperand: true });
    const [first] = scanned.operands;
    // The first of `-c` and `-m` ends the options: what follows belongs to the code or module.
    const inline = scanned.options.find((o) => language.code.includes(o.name) || language.module === o.name);
    if (inline && inline.name === language.module) return undefined;
    if (inline && language.shell) return first === undefined ? undefined : call.judgeScript(first);
    if (inline) return `${call.name} ${inline.name.startsWith('--') ? inline.name : `-${inline.name}`}`;
    if (call.words[scanned.end]?.processSubstitution) return `${call.name} running a process substitution`;
    if (first !== undefined && INPUT_PATH.test(first)) return `${call.name} reading a program from its input (${first})`;
    const fromInput = first === undefined || first === '-' || (language.shell && hasOption(scanned, 's'));
    if (!fromInput) return undefined; // a script file: what it does is not known here
    if (call.piped) return `piped into ${call.name}`;
    if (language.shell) return firstReason(call.stdin, call.judgeScript);
    return call.stdin.length > 0 ? `a program for ${call.name} on its input` : undefined;
  };
}

const SHELL = program({ code: ['c'], options: { value: 'oO', longValue: ['--rcfile', '--init-file'] }, shell: true });
const PYTHON = program({ code: ['c'], options: { value: 'WXm' }, module: 'm' });
const NODE = program({ code: ['e', 'p', '--eval', '--print'], options: { value: 'r', longValue: ['--require', '--import', '--loader'] } });
const SSH_OPTIONS: OptionSpec = { value: 'BbcDEeFIiJLlmOopQRSWw', stopAtOperand: true };
const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** `find … -delete`, and the command of each `-exec … ;` run once per file found. */
function find({ args, words, judgeCommand }: Call): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const action = args[i]!;
    if (action === '-delete') return 'find -delete';
    if (!EXEC_ACTIONS.has(action)) continue;
    let end = i + 1;
    while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
    const reason = judgeCommand(words.slice(i + 1, end), `find ${action}`);
    if (reason) return reason;
    i = end;
  }
  return undefined;
}

function sourced({ name, words }: Call): string | undefined {
  if (words[0] && INPUT_PATH.test(words[0].text)) return `${name} of its input (${words[0].text})`;
  return words[0]?.processSubstitution ? `${name} of a process substitution` : undefined;
}

const SU_OPTIONS = ['--command', '--session-command', '--shell', '--group', '--supp-group', '--whitelist-environment', '--user'];

/** `su [user] -c CMD`, `runuser -u user -- CMD …`. */
function su({ args, words, judgeScript, judgeCommand }: Call): string | undefined {
  const scanned = scanOptions(args, { value: 'cCsgGwu', longValue: SU_OPTIONS });
  const reason = firstReason(optionValues(scanned, 'c', 'C', '--command', '--session-command'), judgeScript);
  if (reason || !hasOption(scanned, 'u', '--user')) return reason;
  const { end } = scanOptions(args, { value: 'cCsgGwu', longValue: SU_OPTIONS, stopAtOperand: true });
  return judgeCommand(words.slice(end));
}

/** `script -c CMD [file]`: without `-c` it starts an interactive shell. */
function script({ args, judgeScript }: Call): string | undefined {
  const scanned = scanOptions(args, { value: 'cEIOBTmo', longValue: ['--command', '--echo', '--log-in', '--log-out', '--log-io', '--log-timing', '--output-limit'] });
  return firstReason(optionValues(scanned, 'c', '--command'), judgeScript);
}

const PARALLEL_OPTIONS: OptionSpec = {
  value: 'aCdEIjLnNPS',
  longValue: [
    ...['--arg-file', '--colsep', '--delimiter', '--eof', '--jobs', '--max-lines', '--max-args', '--max-replace-args', '--sshlogin', '--joblog'],
    ...['--results', '--tmpdir', '--workdir', '--timeout', '--delay', '--tag-string', '--basefile', '--return', '--env', '--load', '--memfree'],
    ...['--retries', '--halt', '--nice', '--sshloginfile', '--transfer-file', '--cleanup', '--shebang-wrap', '--tty', '--arg-sep', '--arg-file-sep'],
  ],
  stopAtOperand: true,
};

/** GNU `parallel CMD ::: names`: a command line run once per name; with none, each input line is one. */
function parallel({ args, judgeScript }: Call): string | undefined {
  const { operands } = scanOptions(args, PARALLEL_OPTIONS);
  const separator = operands.findIndex((o) => /^:::[:+]*$/.test(o));
  const command = operands.slice(0, separator < 0 ? undefined : separator);
  return command.length === 0 ? 'parallel running the commands it is given' : judgeScript(command.join(' '), 'parallel');
}

/** `watch` and `ssh` join their operands into one line for a shell. */
function joined(spec: OptionSpec, skip: number): Rule {
  return ({ args, judgeScript }) => {
    const line = scanOptions(args, spec).operands.slice(skip).join(' ');
    return line ? judgeScript(line) : undefined;
  };
}

const RULES: Record<string, Rule> = {
  eval: ({ args, judgeScript }) => judgeScript(args.join(' ')),
  watch: joined({ value: 'n', longValue: ['--interval'], stopAtOperand: true }, 0),
  ssh: joined(SSH_OPTIONS, 1),
  find,
  source: sourced,
  '.': sourced,
  su,
  runuser: su,
  script,
  parallel,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  perl: program({ code: ['e', 'E'], options: { value: 'IMmx', attached: 'i' } }),
  ruby: program({ code: ['e'], options: { value: 'IrC' } }),
  node: NODE,
  nodejs: NODE,
  bun: NODE,
  php: program({ code: ['r'] }),
  ...Object.fromEntries(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish'].map((shell) => [shell, SHELL])),
  ...DEFINITION_RULES,
};

/** The rule for a command that runs others, by name (`python3.12` included). */
export function hidingRuleFor(name: string): Rule | undefined {
  return entry(RULES, name) ?? (/^python[\d.]*$|^pypy\d*$/.test(name) ? PYTHON : undefined);
}
