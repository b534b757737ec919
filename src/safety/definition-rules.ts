// Code the shell keeps to run later: an alias's value, a trap's action, a `bind -x` command, and
// the variables whose value runs at each prompt (`PROMPT_COMMAND`, `PS1`…). It is judged as if it
// ran now, since it will, at the next use, signal or prompt; the reason says where it was found.

import { firstReason, scanOptions, type Call, type Rule } from './command-line.js';
import { substitutionsIn } from './shell-lexer.js';

/** Variables whose value is a command line the shell runs before each prompt. */
const COMMAND_VARIABLES = new Set(['PROMPT_COMMAND']);
/** Prompt strings: their `$(…)` and backquotes run each time the prompt is drawn. */
const PROMPT_VARIABLES = new Set(['PS0', 'PS1', 'PS2', 'PS4', 'PROMPT', 'RPROMPT', 'RPS1']);
const ASSIGNMENT = /^([A-Za-z_]\w*)(?:\[[^\]]*\])?\+?=([\s\S]*)$/;

/** Why the code an assignment stores (`PROMPT_COMMAND='rm -rf ~'`) is destructive, or undefined. */
export function assignmentReason(assignment: string, judgeScript: (source: string) => string | undefined): string | undefined {
  const [, name = '', value = ''] = ASSIGNMENT.exec(assignment) ?? [];
  const reason = COMMAND_VARIABLES.has(name) ? judgeScript(value) : PROMPT_VARIABLES.has(name) ? firstReason(substitutionsIn(value), judgeScript) : undefined;
  return reason === undefined ? undefined : `${reason} in ${name}`;
}

/** `alias name='value'…` (zsh `-g`, `-s` too): each value is a command line. */
function alias({ args, judgeScript }: Call): string | undefined {
  return firstReason(args, (arg) => {
    const eq = arg.indexOf('=');
    if (eq <= 0 || arg.startsWith('-') || arg.startsWith('+')) return undefined;
    const reason = judgeScript(arg.slice(eq + 1));
    return reason === undefined ? undefined : `${reason} in alias '${arg.slice(0, eq)}'`;
  });
}

/** `trap [--] action signal…`: one operand alone resets; `-` resets, '' ignores. */
function trap({ args, judgeScript }: Call): string | undefined {
  const [action, ...signals] = scanOptions(args).operands;
  if (action === undefined || signals.length === 0 || action === '-') return undefined;
  const reason = judgeScript(action);
  return reason === undefined ? undefined : `${reason} in a trap on ${signals.join(' ')}`;
}

/** A `bind -x` value: `"keyseq": command`, the command perhaps quoted once more. */
const KEY_COMMAND = /^\s*(?:"(?:[^"\\]|\\.)*"|[^:]*)\s*:\s*([\s\S]*)$/;

/** bash's `bind -x 'keyseq: command'` runs the command when the key is pressed. */
function bind({ args, judgeScript }: Call): string | undefined {
  const scanned = scanOptions(args, { value: 'mqurfx' });
  return firstReason(
    scanned.options.filter((o) => o.name === 'x' && o.value !== undefined),
    ({ value = '' }) => {
      const command = (KEY_COMMAND.exec(value)?.[1] ?? '').replace(/^(["'])([\s\S]*)\1$/, '$2');
      const reason = judgeScript(command);
      return reason === undefined ? undefined : `${reason} in a key binding (bind -x)`;
    },
  );
}

/** `export`, `declare`, `typeset`, `readonly`, `local`: the values they assign. */
function declared({ args, judgeScript }: Call): string | undefined {
  return firstReason(args, (arg) => assignmentReason(arg, judgeScript));
}

/** The rules for the builtins that store code, by name. */
export const DEFINITION_RULES: Readonly<Record<string, Rule>> = {
  alias,
  trap,
  bind,
  ...Object.fromEntries(['export', 'declare', 'typeset', 'readonly', 'local'].map((name) => [name, declared])),
};
