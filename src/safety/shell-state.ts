// What a line changes in the shell that later commands see (issues 23 and 34): with one shell kept
// for the session, a function, alias or fish abbreviation it defines or removes, a trap, a key
// binding, a completion, a zsh hook, a sourced file, a name reference, a variable that steers
// commands (`PATH`, `PROMPT_COMMAND`, `LD_PRELOAD`…) or a shell option outlives the line, so the
// policy always asks about it, saying what changes and why that matters. Pure: it reads what the
// destructive check saw (destructive.ts), inner scripts (`eval`, `bash -c`) included.

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
/** Of those, the ones the shell runs or draws by itself around each command. */
const HOOKED = new Set([...STEERING].filter((name) => /^(?:PROMPT|PS|RPS|RPROMPT)|_functions$/.test(name)));
const DECLARES = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);
/** A variable written, perhaps one element of it (`precmd_functions[1]=f`), or only declared. */
const VARIABLE = /^([A-Za-z_]\w*)(?:\[[^\]]*\])?(?:\+?=|$)/;

/** Why a change matters, said after it in the question. */
const LATER_COMMANDS = 'changes what later commands do';
const AROUND_COMMANDS = 'changes what the shell runs around each command';
const KEYS = "changes the shell's key bindings";
const COMPLETION = 'changes what Tab completion runs';
/** Builtins whose change is said with another reason than LATER_COMMANDS. */
const WHY: Record<string, string> = { bind: KEYS, bindkey: KEYS, zle: KEYS, complete: COMPLETION, compdef: COMPLETION, compctl: COMPLETION, 'add-zsh-hook': AROUND_COMMANDS };

/** zsh's hook functions: the shell calls them by name around each command. */
const HOOK_FUNCTIONS = new Set(['precmd', 'preexec', 'chpwd', 'periodic', 'zshexit']);

/**
 * Option changes that leave later lines as they were read before, or stricter, by normalized name
 * and the state set (zsh ignores case and `_`): tracing, `noclobber` on (zsh's `clobber` off),
 * `pipefail`, and turning off what stops the shell or lets a trap reach into functions. Every
 * other change asks: globbing (`dotglob`, `nullglob`, `noglob`), word splitting (zsh's
 * `shwordsplit`), `allexport`, `keyword`, the editing mode (`vi`), `autocd` (the line router
 * reads it), `errexit` (the session's shell would end at the next failing line you type)...
 */
const HARMLESS_OPTIONS = new Set([
  ...['xtrace', 'verbose', 'pipefail'].flatMap((name) => [`${name} on`, `${name} off`]),
  ...['noclobber on', 'clobber off', 'errexit off', 'errtrace off', 'functrace off', 'extdebug off', 'errreturn off'],
]);
const SET_LETTERS: Record<string, string> = {
  ...{ a: 'allexport', b: 'notify', e: 'errexit', f: 'noglob', h: 'hashall', k: 'keyword', m: 'monitor', n: 'noexec' },
  ...{ p: 'privileged', t: 'onecmd', u: 'nounset', v: 'verbose', x: 'xtrace', B: 'braceexpand', C: 'noclobber' },
  ...{ E: 'errtrace', H: 'histexpand', P: 'physical', T: 'functrace' },
};
const EDITING_MODES = new Set(['vi', 'emacs']);
/** zsh options whose own name starts with `no`: `setopt nomatch` is not `match` turned off. */
const NO_NAMED = new Set(['nomatch', 'notify']);

type Change = (args: string[]) => string | undefined;

/**
 * What `reading` changes for later commands and why it matters, in words (`defines function 'ls':
 * changes what later commands do`), or undefined.
 */
export function shellChange(reading: Pick<LineReading, 'commands' | 'functions'>): string | undefined {
  const [defined] = reading.functions;
  if (defined !== undefined) return `defines function '${defined}': ${HOOK_FUNCTIONS.has(defined) ? AROUND_COMMANDS : LATER_COMMANDS}`;
  for (const command of reading.commands) {
    const [name = '', ...args] = command.words;
    if (command.hidden) continue;
    const variable = variableChange(command);
    if (variable !== undefined) return `sets ${variable}: ${HOOKED.has(variable) ? AROUND_COMMANDS : LATER_COMMANDS}`;
    const change = entry(BUILTINS, name)?.(args);
    if (change !== undefined) return `${change}: ${entry(WHY, name) ?? LATER_COMMANDS}`;
  }
  return undefined;
}

/**
 * A steering variable written by an assignment (`PATH=x`, `PATH+=:x`, `path+=(x)`,
 * `precmd_functions[1]=f`), a declaration, or a builtin that stores what it reads or prints
 * (`read`, `printf -v`, `mapfile`).
 */
function variableChange({ words: [name = '', ...args], assignments }: SeenCommand): string | undefined {
  const written = [...assignments, ...(DECLARES.has(name) ? args : []), ...(name.includes('=') ? [name] : []), ...(entry(STORES, name)?.(args) ?? [])];
  return written.map((w) => VARIABLE.exec(w)?.[1]).find((v) => v !== undefined && STEERING.has(v));
}

/** Builtins that store into variables they name, and which words name them. */
const STORES: Record<string, (args: string[]) => string[]> = {
  read: (args) => scanOptions(args, { value: 'adinNptu' }).operands.concat(optionValues(args, 'adinNptu', 'aA')),
  vared: (args) => operands(args).slice(0, 1),
  printf: (args) => optionValues(args, 'v', 'v'),
  mapfile: (args) => scanOptions(args, { value: 'dnOsuCc' }).operands,
  readarray: (args) => scanOptions(args, { value: 'dnOsuCc' }).operands,
};

/** The values of the options `wanted` among `args` (read with `valued` taking values). */
function optionValues(args: string[], valued: string, wanted: string): string[] {
  return scanOptions(args, { value: valued }).options.flatMap((o) => (wanted.includes(o.name) && o.value !== undefined ? [o.value] : []));
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
  bind,
  bindkey,
  zle,
  complete,
  compdef: (args) => first(args, (n) => `sets the completion of '${operands(args).at(-1) ?? n}'`),
  compctl: (args) => (args.length === 0 || hasOption(scanOptions(args), 'L') ? undefined : `sets the completion of '${operands(args).at(-1) ?? 'every command'}'`),
  'add-zsh-hook': (args) => first(args, (hook) => `changes the zsh hook '${hook}'`),
  ...Object.fromEntries(['declare', 'typeset', 'local'].map((name) => [name, nameReference])),
  set: (args) => fishSet(args) ?? optionChange(setOptions(args)),
  setopt: (args) => optionChange(zshOptions(args, true)),
  unsetopt: (args) => optionChange(zshOptions(args, false)),
  shopt: (args) => optionChange(shoptOptions(args)),
  emulate: (args) => first(args, (mode) => `emulates ${mode} (changes shell options)`),
  // fish's own: its functions, abbreviations and PATH (`bind KEY COMMAND` is bind's operands, above)
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
};

/** fish's `set [-gx…] NAME value…` of a steering variable (`set -gx PATH /evil $PATH`). */
function fishSet(args: string[]): string | undefined {
  const [name] = scanOptions(args).operands;
  return name !== undefined && STEERING.has(name) && !args.includes('--') ? `sets ${name}` : undefined;
}

/**
 * bash's `bind`: any binding, removal or file read (`bind '"\C-x": "…"'`, `-x`, `-r`, `-u`, `-f`,
 * `bind 'set editing-mode vi'`); only its listings and queries (`-l`, `-p`, `-P`, `-s`, `-S`, `-v`,
 * `-V`, `-X`, `-q`) change nothing.
 */
function bind(args: string[]): string | undefined {
  const scanned = scanOptions(args, { value: 'mqurfx' });
  if (hasOption(scanned, 'x')) return 'binds a key to a command (bind -x)';
  if (hasOption(scanned, 'f')) return 'reads key bindings from a file (bind -f)';
  if (hasOption(scanned, 'r', 'u')) return 'removes a key binding';
  if (scanned.operands.length === 0) return undefined;
  return scanned.operands.some((line) => /^\s*set\s/.test(line)) ? 'changes a line-editing setting' : 'binds a key';
}

/**
 * zsh's `bindkey`: binding (`bindkey KEY WIDGET`, `-s`), removing (`-r`), choosing the main keymap
 * (`-e`, `-v`, `-A`) or changing keymaps (`-N`, `-D`, `-m`); a listing or one key looked up changes
 * nothing.
 */
function bindkey(args: string[]): string | undefined {
  const scanned = scanOptions(args, { value: 'M' });
  if (hasOption(scanned, 's')) return 'binds a key to typed text (bindkey -s)';
  if (hasOption(scanned, 'e', 'v')) return 'changes the editing mode';
  if (hasOption(scanned, 'r', 'A', 'N', 'D', 'm')) return 'changes a keymap';
  if (hasOption(scanned, 'l', 'L', 'p')) return undefined;
  return scanned.operands.length > 1 ? 'binds a key' : undefined;
}

/** zsh's `zle -N` / `-C` (a widget defined), `-A` (one widget made another), `-D` (removed). */
function zle(args: string[]): string | undefined {
  const flags = /^-\w*([NCAD])/.exec(args[0] ?? '')?.[1];
  const names = operands(args);
  if (flags === undefined || names.length === 0) return undefined;
  return flags === 'D' ? `removes widget '${names[0]}'` : `defines widget '${flags === 'A' ? names.at(-1) : names[0]}'`;
}

/** bash's `complete`: a completion set or removed (`-C` and `-F` run code at each Tab); `-p` lists. */
function complete(args: string[]): string | undefined {
  const scanned = scanOptions(args, { value: 'oAGWFCXPS' });
  if (args.length === 0 || (hasOption(scanned, 'p') && !hasOption(scanned, 'r'))) return undefined;
  const [name] = scanned.operands;
  if (hasOption(scanned, 'r')) return name === undefined ? 'removes every completion' : `removes the completion of '${name}'`;
  return `sets the completion of '${name ?? 'every command'}'`;
}

/**
 * `declare -n`, `typeset -n`, `local -n`: a name reference, through which a later line that looks
 * harmless (`p=date`) writes the variable it names (`PROMPT_COMMAND`).
 */
function nameReference(args: string[]): string | undefined {
  const scanned = scanOptions(args);
  // `declare -p -n p` only prints it.
  if (!hasOption(scanned, 'n') || hasOption(scanned, 'p')) return undefined;
  return first(scanned.operands, (word) => {
    const [name, target] = word.split('=');
    return `makes '${name}' a name reference${target ? ` to '${target}'` : ''}`;
  });
}

/** The first option change that is not harmless, in words (the option named as written, zsh's normalized). */
function optionChange(changes: [name: string, on: boolean][]): string | undefined {
  const [name, on] = changes.find(([name, on]) => !HARMLESS_OPTIONS.has(`${normalized(name)} ${on ? 'on' : 'off'}`)) ?? [];
  if (name === undefined) return undefined;
  return `turns ${on ? 'on' : 'off'} ${name}${EDITING_MODES.has(normalized(name)) ? ' (the editing mode)' : ''}`;
}

/** The options `set` changes: `-e`, `-o errexit`, bundled as in `-euo pipefail`; `+…` turns off. */
function setOptions(args: string[]): [string, boolean][] {
  const changes: [string, boolean][] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-' || !/^[-+]./.test(arg)) break; // positional parameters follow
    for (const letter of arg.slice(1)) {
      // `set -o` and `set +o` alone list the options.
      const name = letter === 'o' ? args[++i] : SET_LETTERS[letter];
      if (name !== undefined) changes.push([name, arg.startsWith('-')]);
    }
  }
  return changes;
}

/** bash's `shopt -s` / `-u` names (`-o` takes `set -o`'s); a bare `shopt NAME` or `-p` only asks. */
function shoptOptions(args: string[]): [string, boolean][] {
  const scanned = scanOptions(args);
  const on = hasOption(scanned, 's');
  if (!on && !hasOption(scanned, 'u')) return [];
  return scanned.operands.map((name) => [name, on]);
}

/** zsh's `setopt` / `unsetopt` names, normalized; `no…` inverts (`unsetopt no_err_exit` turns it on). */
function zshOptions(args: string[], setting: boolean): [string, boolean][] {
  return operands(args).map((arg) => {
    const name = normalized(arg);
    return name.startsWith('no') && !NO_NAMED.has(name) ? [name.slice(2), !setting] : [name, setting];
  });
}

/** An option's name as zsh compares them: case and `_` ignored. */
const normalized = (name: string) => name.toLowerCase().replace(/_/g, '');
