// Decides where a typed line goes: the shell, a meta command or the model (SPEC §3). Pure: the
// same line and config always give the same route, and nothing is probed on disk or in PATH.

export type RouteRule = 'blank' | 'meta' | 'dollar' | 'known-command' | 'env-assignment' | 'path-like' | 'default';

export type Route =
  | { kind: 'blank'; payload: ''; rule: 'blank' }
  | { kind: 'meta'; payload: string; rule: 'meta' }
  | { kind: 'shell'; payload: string; rule: 'dollar' | 'known-command' | 'env-assignment' | 'path-like' }
  | { kind: 'ai'; payload: string; rule: 'default' };

export interface RouterConfig {
  shell: { known_commands: readonly string[] };
}

const PATH_LIKE = /^(~|\/|\.\/|\.\.\/)/;
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;

/** Classifies one input line. Matching of command names is case-sensitive, like a shell. */
export function classify(line: string, config: RouterConfig): Route {
  const text = line.trim();
  if (text === '') return { kind: 'blank', payload: '', rule: 'blank' };
  if (text.startsWith(':')) return { kind: 'meta', payload: text.slice(1).trim(), rule: 'meta' };
  if (text.startsWith('$')) return { kind: 'shell', payload: text.slice(1).trim(), rule: 'dollar' };
  const firstWord = text.split(/\s/, 1)[0]!;
  if (config.shell.known_commands.includes(firstWord)) {
    return { kind: 'shell', payload: text, rule: 'known-command' };
  }
  if (ENV_ASSIGNMENT.test(firstWord) && text.length > firstWord.length) {
    return { kind: 'shell', payload: text, rule: 'env-assignment' };
  }
  if (PATH_LIKE.test(firstWord)) return { kind: 'shell', payload: text, rule: 'path-like' };
  return { kind: 'ai', payload: text, rule: 'default' };
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
export function explainRoute(line: string, config: RouterConfig): string {
  const route = classify(line, config);
  const first = line.trim().split(/\s/, 1)[0] ?? '';
  switch (route.rule) {
    case 'blank':
      return 'blank: empty lines are skipped';
    case 'meta':
      return 'meta (rule 2: a leading ":" is a meta command)';
    case 'dollar':
      return `shell (rule 3: a leading "$" forces the shell): ${route.payload}`;
    case 'known-command':
      return `shell (rule 4: "${first}" is in shell.known_commands)${
        looksLikeProse(line) ? `; it reads as prose, so if it fails at once (exit 127, or 1 or 2 within ${MISFIRE_MS} ms) aish offers to ask the model instead (on a terminal)` : ''
      }`;
    case 'env-assignment':
      return `shell (rule 4b: "${first}" is an environment assignment before a command)`;
    case 'path-like':
      return `shell (rule 5: "${first}" looks like a path)`;
    case 'default':
      return `ai (rule 6: "${first}" is not a known command or a path)`;
  }
}
