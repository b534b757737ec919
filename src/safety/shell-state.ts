// What a line changes in the shell that later commands see (issue 23): with one shell kept for the
// session, a function, alias or fish abbreviation it defines or removes, a trap, a key binding, a zsh hook, a sourced
// file, a variable that steers commands (`PATH`, `PROMPT_COMMAND`, `LD_PRELOAD`…) or an option that
// ends the shell at a failing line outlives the line, so the policy always asks about it. Pure: it
// reads what the destructive check saw (destructive.ts), inner scripts (`eval`, `bash -c`) included.

import { entry, hasOption, scanOptions } from './command-line.js';
import type { LineReading, SeenCommand } from './destructive.js';

/** Variables that change what later commands run or how. */
const STEERING = new Set([
  ...['SHELL', 'PATH', 'path', 'BASH_ENV', 'ENV', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'IFS', 'FPATH', 'fpath'],
  ...['NODE_OPTIONS', 'GIT_SSH_COMMAND', 'PAGER', 'EDITOR', 'VISUAL'],
  // run code at each prompt: bash's PROMPT_COMMAND and prompt strings, zsh's hook arrays
  ...['PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'PS4', 'PROMPT', 'RPROMPT', 'RPS1'],
  ...['precmd', 'preexec', 'chpwd', 'periodic', 'zshexit', 'zshaddhistory'].map((hook) => `${hook}_functions`),
  // fish: where its functions and completions are found, and its own additions to PATH
  ...['fish_function_path', 'fish_complete_path', 'fish_user_paths'],
]);
const DECLARES = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);
const VARIABLE = /^([A-Za-z_]\w*)(?:\+?=|$)/;

/**
 * Shell options that change what later lines do, by their normalized name (zsh ignores case and
 * `_`): errexit ends the session's shell at the first failing command; the others make a DEBUG or
 * ERR trap reach into functions, and let a DEBUG trap skip commands.
 */
const RISKY_OPTIONS = new Set(['errexit', 'errtrace', 'functrace', 'extdebug']);
const SET_LETTERS: Record<string, string> = { e: 'errexit', E: 'errtrace', T: 'functrace' };

type Change = (args: string[]) => string | undefined;

/** What `reading` changes for later commands, in words (`defines function 'ls'`), or undefined. */
export function shellChange(reading: Pick<LineReading, 'commands' | 'functions'>): string | undefined {
  const [defined] = reading.functions;
  if (defined !== undefined) return `defines function '${defined}'`;
  for (const command of reading.commands) {
    const [name = '', ...args] = command.words;
    const change = command.hidden ? undefined : (variableChange(command) ?? entry(BUILTINS, name)?.(args));
    if (change !== undefined) return change;
  }
  return undefined;
}

/** A steering variable set by an assignment (`PATH=x`, `PATH+=:x`, `path+=(x)`) or a declaration. */
function variableChange({ words: [name = '', ...args], assignments }: SeenCommand): string | undefined {
  const written = [...assignments, ...(DECLARES.has(name) ? args : []), ...(name.includes('=') ? [name] : [])];
  const variable = written.map((w) => VARIABLE.exec(w)?.[1]).find((v) => v !== undefined && STEERING.has(v));
  return variable === undefined ? undefined : `sets ${variable}`;
}

const operands = (args: string[]) => args.filter((a) => !a.startsWith('-') && !a.startsWith('+'));
const first = (args: string[], say: (name: string) => string) => {
  const [name] = operands(args);
  return name === undefined ? undefined : say(name);
};

const BUILTINS: Record<string, Change> = {
  alias: (args) => first(args.filter((a) => a.indexOf('=') > 0), (a) => `defines alias '${a.slice(0, a.indexOf('='))}'`),
  unalias: (args) => (args.includes('-a') ? 'removes every alias' : first(args, (n) => `removes alias '${n}'`)),
  unfunction: (args) => first(args, (n) => `removes function '${n}'`),
  unhash: (args) => (/^-\w*[afs]/.test(args[0] ?? '') ? first(args, (n) => `removes '${n}'`) : undefined),
  unset(args) {
    const scanned = scanOptions(args);
    if (hasOption(scanned, 'f')) return first(scanned.operands, (n) => `removes function '${n}'`);
    const variable = scanned.operands.find((v) => STEERING.has(v));
    return variable === undefined ? undefined : `unsets ${variable}`;
  },
  trap(args) {
    const scanned = scanOptions(args);
    if (hasOption(scanned, 'p', 'l', 'P') || scanned.operands.length === 0) return undefined;
    const signals = scanned.operands.length === 1 ? scanned.operands : scanned.operands.slice(1);
    return `changes the trap on ${signals.join(' ')}`;
  },
  source: (args) => first(args, (file) => `sources '${file}'`),
  '.': (args) => first(args, (file) => `sources '${file}'`),
  autoload: (args) => first(args, (n) => `autoloads function '${n}'`),
  hash(args) {
    const scanned = scanOptions(args, { value: 'p' });
    if (hasOption(scanned, 'd')) return undefined; // zsh's named directories
    const [path] = scanned.options.flatMap((o) => (o.name === 'p' && o.value !== undefined ? [o.value] : []));
    const named = path !== undefined ? scanned.operands[0] : scanned.operands.find((o) => o.indexOf('=') > 0)?.split('=')[0];
    return named === undefined ? undefined : `sets the program run as '${named}'`;
  },
  enable(args) {
    const scanned = scanOptions(args, { value: 'f' });
    const [name] = scanned.operands;
    if (hasOption(scanned, 'f')) return `loads a builtin${name === undefined ? '' : ` '${name}'`}`;
    return name === undefined ? undefined : `${hasOption(scanned, 'n', 'd') ? 'disables' : 'enables'} '${name}'`;
  },
  disable: (args) => first(args, (n) => `disables '${n}'`),
  // bash's `bind -x`; fish's `bind <key> <command>` (two operands: bash's readline lines are one)
  bind(args) {
    if (hasOption(scanOptions(args, { value: 'mqurfx' }), 'x')) return 'binds a key to a command (bind -x)';
    const fish = scanOptions(args, { value: 'Mm' });
    return fish.operands.length >= 2 && !hasOption(fish, 'e', '--erase') ? 'binds a key to a command' : undefined;
  },
  bindkey: (args) => (hasOption(scanOptions(args, { value: 'M' }), 's') ? 'binds a key to typed text (bindkey -s)' : undefined),
  zle: (args) => (/^-\w*[NC]/.test(args[0] ?? '') ? first(args, (n) => `defines widget '${n}'`) : undefined),
  'add-zsh-hook': (args) => first(args, (hook) => `changes the zsh hook '${hook}'`),
  set: (args) => fishSet(args) ?? turnsOn(setOptions(args)),
  // fish's own: its functions, abbreviations, key bindings and PATH
  function: (args) => first(args, (n) => `defines function '${n}'`),
  functions(args) {
    const scanned = scanOptions(args);
    if (hasOption(scanned, 'e', '--erase')) return first(scanned.operands, (n) => `removes function '${n}'`);
    if (hasOption(scanned, 'c', '--copy')) return scanned.operands[1] === undefined ? undefined : `defines function '${scanned.operands[1]}'`;
    return undefined;
  },
  funced: (args) => first(args, (n) => `defines function '${n}'`),
  abbr(args) {
    const scanned = scanOptions(args, { value: 'prf', longValue: ['--position', '--regex', '--function'] });
    if (hasOption(scanned, 'e', '--erase')) return first(scanned.operands, (n) => `removes abbreviation '${n}'`);
    if (hasOption(scanned, 'l', 's', 'q', '--list', '--show', '--query') || scanned.operands.length < 2) return undefined;
    return `defines abbreviation '${scanned.operands[0]}'`;
  },
  fish_add_path: (args) => first(args, () => 'sets PATH'),
  setopt: (args) => turnsOn(zshOptions(args, true)),
  unsetopt: (args) => turnsOn(zshOptions(args, false)),
  shopt: (args) => (hasOption(scanOptions(args), 's') ? turnsOn(operands(args)) : undefined),
};

/** fish's `set [-gx…] NAME value…` of a steering variable (`set -gx PATH /evil $PATH`). */
function fishSet(args: string[]): string | undefined {
  const [name] = scanOptions(args).operands;
  return name !== undefined && STEERING.has(name) && !args.includes('--') ? `sets ${name}` : undefined;
}

function turnsOn(options: string[]): string | undefined {
  const risky = options.find((o) => RISKY_OPTIONS.has(o));
  return risky === undefined ? undefined : `turns on ${risky}`;
}

/** The options `set` turns on: `-e`, `-o errexit`, bundled as in `-euo pipefail`; `+…` turns off. */
function setOptions(args: string[]): string[] {
  const on: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-' || !/^[-+]./.test(arg)) break; // positional parameters follow
    for (const letter of arg.slice(1)) {
      const name = letter === 'o' ? args[++i] : SET_LETTERS[letter];
      if (name !== undefined && arg.startsWith('-')) on.push(name);
    }
  }
  return on;
}

/** zsh's `setopt` / `unsetopt` names, normalized; `no…` inverts (`unsetopt no_err_exit` turns it on). */
function zshOptions(args: string[], setting: boolean): string[] {
  return operands(args).flatMap((arg) => {
    const name = arg.toLowerCase().replace(/_/g, '');
    if (RISKY_OPTIONS.has(name)) return setting ? [name] : [];
    return name.startsWith('no') && !setting ? [name.slice(2)] : [];
  });
}
