// Decides where a typed line goes: the shell, a meta command or the model (SPEC §3). Pure: the
// same line, config and answer about its first word always give the same route. What the first
// word is (an alias, a function, a builtin, a keyword, a program on PATH) is asked of the session's
// shell by the caller and given here as `kindOf`; while the shell starts, or without a session,
// `shell.known_commands` stands in.

export type RouteRule = 'blank' | 'meta' | 'dollar' | 'shell-knows' | 'known-command' | 'env-assignment' | 'path-like' | 'default';

/** What the session's shell says a word is (`type -t`, `whence -w`). */
export type WordKind = 'alias' | 'function' | 'builtin' | 'keyword' | 'file';

/** The shell's answer for `word`: a kind, null when it knows no such command, undefined when not asked. */
export type KindOf = (word: string) => WordKind | null | undefined;

export type Route =
  | { kind: 'blank'; payload: ''; rule: 'blank' }
  | { kind: 'meta'; payload: string; rule: 'meta' }
  | { kind: 'shell'; payload: string; rule: 'dollar' | 'known-command' | 'env-assignment' | 'path-like' }
  | { kind: 'shell'; payload: string; rule: 'shell-knows'; wordKind: WordKind }
  | { kind: 'ai'; payload: string; rule: 'default' };

export interface RouterConfig {
  shell: { known_commands: readonly string[] };
}

const PATH_LIKE = /^(~|\/|\.\/|\.\.\/)/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
/** Words that start a command and mean the shell, whatever the shell says of them. */
const ALWAYS_SHELL = new Set(['source', '.']);
/** Builtins that change the shell for good: prose that starts with one stays with the model. */
const STATE_CHANGING = new Set(['export', 'unset', 'eval', 'trap', 'source', '.', 'fc', 'exec', 'set', 'alias', 'unalias', 'cd', 'readonly', 'declare', 'typeset', 'local']);
/** A function definition: `f() { …`, `function f {…`. */
const FUNCTION_DEFINITION = /^(function\s+[\w.:-]+|[\w.:-]+\s*\(\s*\))\s*[({]/;
/** Builtins that only mean something inside a loop or a function: as a first word, prose (`break it`). */
const NOT_A_START = new Set(['break', 'continue', 'return', 'shift', 'caller', 'local', 'times', 'suspend']);
/** Keywords that can start a command (`then`, `done`, `in`… cannot). */
const STARTING_KEYWORDS = new Set(['if', 'for', 'while', 'until', 'case', 'select', 'function', 'time', 'coproc', '{', '!', '[[']);
/**
 * English words that are also commands: a line starting with one goes to the shell unless it
 * reads as prose (`who am i talking to`, `set a greeting`, `time to refactor this?`).
 */
const ENGLISH_COMMANDS = new Set(
  'who what when where why how time more test sort file type help history info look write wait read let set select yes say see open show tell do can will fix explain list check run install watch split join paste fold last next print cut get put use add remove create build start stop update send talk ask give take try write describe summarize compare'.split(' '),
);

/** The first word of a line, up to a blank or a control operator (`jobs; echo x` → `jobs`). */
export function firstWord(text: string): string {
  const trimmed = text.trim();
  return /^[^\s;|&<>()]+/.exec(trimmed)?.[0] ?? trimmed.split(/\s+/, 1)[0] ?? '';
}

/** Classifies one input line. Matching of command names is case-sensitive, like a shell. */
export function classify(line: string, config: RouterConfig, kindOf?: KindOf): Route {
  const text = line.trim();
  if (text === '') return { kind: 'blank', payload: '', rule: 'blank' };
  if (text.startsWith(':')) return { kind: 'meta', payload: text.slice(1).trim(), rule: 'meta' };
  if (text.startsWith('$')) return { kind: 'shell', payload: text.slice(1).trim(), rule: 'dollar' };
  const first = firstWord(text);
  if (ASSIGNMENT.test(first)) return { kind: 'shell', payload: text, rule: 'env-assignment' };
  if (FUNCTION_DEFINITION.test(text)) return { kind: 'shell', payload: text, rule: 'known-command' };
  // Words that end aish or change the shell's state for good are shell only when they read as
  // commands: `exit 3` leaves, "exit the plan mode and explain" is a question.
  if (first === 'exit' || first === 'logout') {
    return /^(exit|logout)(\s+\d+)?\s*$/.test(text) ? { kind: 'shell', payload: text, rule: 'known-command' } : { kind: 'ai', payload: text, rule: 'default' };
  }
  if (STATE_CHANGING.has(first) && readsAsQuestion(text)) return { kind: 'ai', payload: text, rule: 'default' };
  const wordKind = kindOf?.(first);
  if (wordKind && shellMeans(first, wordKind, text)) return { kind: 'shell', payload: text, rule: 'shell-knows', wordKind };
  if (config.shell.known_commands.includes(first) || ALWAYS_SHELL.has(first)) {
    return { kind: 'shell', payload: text, rule: 'known-command' };
  }
  if (PATH_LIKE.test(first)) return { kind: 'shell', payload: text, rule: 'path-like' };
  return { kind: 'ai', payload: text, rule: 'default' };
}

/** Whether a line whose first word the shell knows as `kind` is meant for the shell. */
function shellMeans(word: string, kind: WordKind, text: string): boolean {
  // The person's own definitions are always theirs to run.
  if (kind === 'alias' || kind === 'function') return true;
  if (kind === 'keyword' && !STARTING_KEYWORDS.has(word)) return false;
  if (kind === 'builtin' && NOT_A_START.has(word)) return false;
  if (ENGLISH_COMMANDS.has(word) && readsAsQuestion(text)) return false;
  // Any other command word: English prose or a question after it is still a question.
  if (looksLikeProse(text) || /\?\s*$/.test(text)) return /[|&;<>$`\\=*{}[\]]/.test(text);
  return true;
}

/**
 * A line that reads as prose rather than a command: English (looksLikeProse), a question mark at
 * the end with no shell syntax, or two or more plain words after the first (`set a greeting`;
 * `type ls` and `set -o vi` stay commands).
 */
function readsAsQuestion(text: string): boolean {
  if (looksLikeProse(text)) return true;
  if (/[|&;<>$`\\=*{}[\]]/.test(text)) return false;
  const words = text.split(/\s+/);
  if (/\?\s*$/.test(text) && words.length >= 2) return true;
  return words.length >= 3 && words.slice(1).every((w) => /^[A-Za-z][A-Za-z']*[,.!?:]?$/.test(w));
}

/** Whether the router needs the shell's answer about `word` (cheap rules decide first). */
export function asksShell(line: string, config: RouterConfig): string | null {
  const text = line.trim();
  if (text === '' || /^[:$]/.test(text)) return null;
  const first = firstWord(text);
  if (ASSIGNMENT.test(first) || PATH_LIKE.test(first)) return null;
  if (!/^[A-Za-z0-9_.+@%^,-][A-Za-z0-9_.+:@%^,-]*$|^[{!]$|^\[\[$/.test(first)) return null;
  return first;
}

/** How soon a failure counts as "the shell did not understand this" rather than real work failing. */
export const MISFIRE_MS = 200;

/** Small words of English prose that rarely stand as command arguments. */
const PROSE_WORDS = new Set(
  'an the it its this that these those me my our your of on in to for from with about into than then and or but is are was be faster slower largest biggest smallest latest oldest newest why what how which where when who please can could would should'.split(' '),
);

/**
 * Whether a line that starts with a known command reads as English (`make it faster`, `find the
 * largest file`, `kill the process on port 3000`): three or more words, no options, paths, shell
 * syntax or assignments, and at least one small word of prose after the command. Pure.
 */
export function looksLikeProse(line: string): boolean {
  const words = line.trim().split(/\s+/);
  if (words.length < 3) return false;
  if (/[|&;<>$`\\=*{}[\]]/.test(line)) return false;
  const args = words.slice(1);
  if (args.some((w) => /^[-'"]/.test(w) || w.includes('/') || /\.\w{1,4}$/.test(w))) return false;
  return args.some((w) => PROSE_WORDS.has(w.toLowerCase().replace(/[?!.,]+$/, '')));
}

/** Whether a shell line that just failed was probably meant for the model. */
export function misfiredProse(line: string, exitCode: number, elapsedMs: number): boolean {
  if (!looksLikeProse(line)) return false;
  return exitCode === 127 || ((exitCode === 1 || exitCode === 2) && elapsedMs < MISFIRE_MS);
}

/** A one-line explanation of a route, for `:why`. */
export function explainRoute(line: string, config: RouterConfig, kindOf?: KindOf): string {
  const route = classify(line, config, kindOf);
  const first = firstWord(line);
  const prose = looksLikeProse(line)
    ? `; it reads as prose, so if it fails at once (exit 127, or 1 or 2 within ${MISFIRE_MS} ms) aish offers to ask the model instead (on a terminal)`
    : '';
  switch (route.rule) {
    case 'blank':
      return 'blank: empty lines are skipped';
    case 'meta':
      return 'meta (rule 2: a leading ":" is a meta command)';
    case 'dollar':
      return `shell (rule 3: a leading "$" forces the shell): ${route.payload}`;
    case 'shell-knows':
      return `shell (rule 4: ${first} is ${KIND_WORDS[route.wordKind]})${prose}`;
    case 'known-command':
      return `shell (rule 4: "${first}" is in shell.known_commands)${prose}`;
    case 'env-assignment':
      return `shell (rule 4: "${first}" is an assignment)`;
    case 'path-like':
      return `shell (rule 5: "${first}" looks like a path)`;
    case 'default': {
      const known = kindOf?.(first);
      const why = known ? `"${first}" is ${KIND_WORDS[known]}, but the line reads as a question` : `"${first}" is not a known command or a path`;
      return `ai (rule 6: ${why})`;
    }
  }
}

const KIND_WORDS: Record<WordKind, string> = {
  alias: 'an alias',
  function: 'a function',
  builtin: 'a shell builtin',
  keyword: 'a shell keyword',
  file: 'a program on PATH',
};
