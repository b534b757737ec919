// Command-line flags (node:util parseArgs) and the help text. Pure: argv in, options out.

import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

export interface CliOptions {
  help: boolean;
  version: boolean;
  prompt?: string | undefined;
  config?: string | undefined;
  model?: string | undefined;
  /** `--resume` alone means `last`. */
  resume?: string | undefined;
  /** `--output json|jsonl` (with `-p` only): JSON on stdout for scripts; undefined is plain text. */
  output?: OutputFormat | undefined;
}

/** What `-p` writes on stdout for scripts (docs/usage.md "Scripting with -p"). */
export type OutputFormat = 'json' | 'jsonl';
const OUTPUT_FORMATS: readonly string[] = ['text', 'json', 'jsonl'];

export const HELP = `aish: an AI-augmented conversational shell

Usage:
  aish                      start the interactive shell
  aish -p "<text>"          ask once, print the reply and exit (stdin, if piped, is included)
  aish -p -o json "<text>"  the same, the question after the other options
  cmd | aish -p             the question is what stdin holds
  cmd | aish                run piped lines as if typed (confirms answered "no")

Options:
  -p, --prompt <text>       one-shot question; CMD: lines are printed, never run
  -o, --output <format>     with -p: text (default), json (one object) or jsonl (events)
  -c, --config <path>       use this config file (it must exist)
  -m, --model <name>        start on this model preset
  -r, --resume [name|last]  continue a saved session
  -h, --help                show this help
  -v, --version             print the version

Lines go to the shell when they start with a command, shell syntax, a path or "$ ", unless
they are worded as English; lines starting with ":" are meta commands (:help lists them);
everything else goes to the model.
Config: aish.config.ts / .aishrc* upward from the current directory, then ~/.config/aish/.
Exit status with -p: 0 answered, 1 model or broker error, 2 usage or config error, 3 a tool call
or CMD: line was denied by policy, 130 interrupted.
Environment: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL, NO_COLOR, FORCE_COLOR, AISH_DEBUG.
`;

/** Whether `arg` is one of aish's options (`-o`, `--output=json`...), not a question that starts with a dash. */
function isOption(arg: string): boolean {
  return /^(-[hvpcmro]|--(help|version|prompt|config|model|resume|output)(=.*)?)$/.test(arg);
}

/** Parses argv (without node and script). Throws UsageError for unknown or malformed flags. */
export function parseCli(argv: readonly string[]): CliOptions {
  // Most starts have no flags: parseArgs (not in Node's start-up snapshot) costs half a millisecond.
  if (argv.length === 0) return { help: false, version: false };
  // parseArgs has no optional values: a bare --resume (last, or before another flag) means "last".
  const args = [...argv];
  for (let i = 0; i < args.length; i++) {
    if ((args[i] === '--resume' || args[i] === '-r') && (i + 1 >= args.length || args[i + 1]!.startsWith('-'))) {
      args.splice(i + 1, 0, 'last');
    }
  }
  // `-p` followed by another option (or nothing) takes its prompt from the argument left over, as
  // `claude -p --output-format json "…"` does, or else from stdin: parseArgs would take the option
  // for the prompt.
  let promptLater = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '-p' && args[i] !== '--prompt') continue;
    if (i + 1 >= args.length || isOption(args[i + 1]!)) {
      args.splice(i, 1);
      promptLater = true;
    } else if (args[i + 1]!.startsWith('-')) {
      // A question that starts with a dash is still the question (parseArgs calls it ambiguous).
      args.splice(i, 2, `--prompt=${args[i + 1]}`);
    }
    break;
  }
  try {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        prompt: { type: 'string', short: 'p' },
        config: { type: 'string', short: 'c' },
        model: { type: 'string', short: 'm' },
        resume: { type: 'string', short: 'r' },
        output: { type: 'string', short: 'o' },
      },
    });
    if (promptLater) {
      if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}" (the question goes in quotes)`);
      // No question at all: it is what stdin holds.
      values.prompt = positionals.shift() ?? '';
    }
    if (positionals.length > 0) {
      throw new UsageError(`unexpected argument "${positionals[0]}" (a question goes after -p, in quotes)`);
    }
    const output = values.output;
    if (output !== undefined && !OUTPUT_FORMATS.includes(output)) throw new UsageError(`--output: "${output}" is not a format (text, json or jsonl)`);
    if (output !== undefined && values.prompt === undefined) throw new UsageError('--output goes with -p (the interactive shell writes for a person)');
    return {
      help: values.help ?? false,
      version: values.version ?? false,
      prompt: values.prompt,
      config: values.config,
      model: values.model,
      resume: values.resume,
      output: output === 'json' || output === 'jsonl' ? output : undefined,
    };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}
