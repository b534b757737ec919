// Tab completion for shell lines. The session's shell answers first (shell/completion-answer.ts):
// `shellCandidates` makes its answer readline's, quoting file names as bash would. Without an
// answer, `ShellCompleter` completes by itself: the first word from PATH executables and the known
// command list, later words as file paths relative to aish's cwd (`~/` expanded, directories get
// `/`). Meta lines are completed from the command table (src/meta/dispatch.ts). A name with a
// control character (C0, DEL, C1, bidi) is never offered: readline would write it to the terminal raw.

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ShellCompletion } from '../shell/completion-answer.js';
import type { Completion } from './line-reader.js';

export interface ShellCompletionContext {
  cwd: string;
  env: Record<string, string | undefined>;
  knownCommands: readonly string[];
  /** ~/.inputrc's `completion-ignore-case`: `readme` completes to `README.md`. */
  ignoreCase?: boolean;
}

/** Whether `name` starts with `prefix`, in any case when `ignoreCase`. */
function startsWith(name: string, prefix: string, ignoreCase: boolean | undefined): boolean {
  return ignoreCase ? name.toLowerCase().startsWith(prefix.toLowerCase()) : name.startsWith(prefix);
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Whether a file name can be shown and typed as it is. */
function isPrintable(name: string): boolean {
  return !CONTROL.test(name);
}

/** Characters bash's readline quotes with a backslash in a completed file name. */
const FILENAME_SPECIAL = /[ \t\n\\"'@<>=;|&()#$`?*[\]!:{}]/g;

/**
 * The shell's answer as readline's completer gives it: [candidates, the text they replace, what
 * the shell says of them], or null when the answer is not about the end of `line`. Candidates with
 * a control character are dropped; file names are quoted as bash would (inside the quote the word
 * opened, else with backslashes); a single candidate is closed (its quote, then a space) unless it
 * is a directory or the shell said `nospace`. A description is kept as the shell said it (the
 * list that shows it makes it safe).
 */
export function shellCandidates(answer: ShellCompletion, line: string): Completion | null {
  const { word } = answer;
  if (!line.endsWith(word)) return null;
  const open = openQuote(word);
  const names = [...new Set(answer.candidates)].filter(isPrintable).sort();
  const candidates = answer.filenames ? names.map((name) => quoteName(name, open, word)) : names;
  const said = answer.descriptions;
  const descriptions = said ? Object.fromEntries(names.flatMap((name, i) => (said[name] ? [[candidates[i]!, said[name]]] : []))) : {};
  if (candidates.length === 1 && !candidates[0]!.endsWith('/') && !candidates[0]!.endsWith(' ')) {
    const close = answer.filenames && open ? open : '';
    candidates[0] = `${candidates[0]}${close}${answer.nospace ? '' : ' '}`;
  }
  return Object.keys(descriptions).length > 0 ? [candidates, word, descriptions] : [candidates, word];
}

/** The quote a word opened and did not close, if any. */
function openQuote(word: string): '"' | "'" | null {
  const first = word[0];
  if (first !== '"' && first !== "'") return null;
  let open = false;
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === '\\' && first === '"') i++;
    else if (c === first) open = !open;
  }
  return open ? first : null;
}

function quoteName(name: string, open: '"' | "'" | null, word: string): string {
  if (open === "'") return `'${name.replace(/'/g, `'\\''`)}`;
  if (open === '"') return `"${name.replace(/["\\$`]/g, '\\$&')}`;
  // A `~` the person typed stays an expansion; one that starts a name is quoted.
  const tilde = name.startsWith('~') && word.startsWith('~') ? 1 : 0;
  return name.slice(0, tilde) + name.slice(tilde).replace(FILENAME_SPECIAL, '\\$&').replace(/^~/, '\\~');
}

/** PATH is read at most this often; a new program appears after that. */
const PATH_CACHE_MS = 30_000;

export class ShellCompleter {
  #pathCache: { key: string; at: number; names: string[] } | null = null;

  /** readline's completer contract: [candidates, the text they replace]. */
  complete(line: string, ctx: ShellCompletionContext): [string[], string] {
    const body = line.startsWith('$') ? line.slice(1) : line;
    const wordStart = Math.max(body.lastIndexOf(' '), body.lastIndexOf('\t')) + 1;
    const word = body.slice(wordStart);
    const isFirstWord = body.slice(0, wordStart).trim() === '' || /(?:\||&&|;)\s*$/.test(body.slice(0, wordStart));
    if (isFirstWord && !word.includes('/') && !word.startsWith('~') && !word.startsWith('.')) {
      const names = new Set([...ctx.knownCommands, ...this.#executables(ctx.env.PATH ?? '')]);
      return [[...names].filter((n) => startsWith(n, word, ctx.ignoreCase) && isPrintable(n)).sort(), word];
    }
    return [completePath(word, ctx), word];
  }

  #executables(pathVar: string): string[] {
    const now = Date.now();
    if (this.#pathCache && this.#pathCache.key === pathVar && now - this.#pathCache.at < PATH_CACHE_MS) return this.#pathCache.names;
    const names = new Set<string>();
    for (const dir of pathVar.split(path.delimiter)) {
      if (!dir) continue;
      let entries: string[];
      try {
        entries = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of entries) names.add(name);
    }
    this.#pathCache = { key: pathVar, at: now, names: [...names] };
    return this.#pathCache.names;
  }
}

/** File-name candidates for `word` (as typed), keeping what was typed before the last `/`. */
export function completePath(word: string, ctx: Pick<ShellCompletionContext, 'cwd' | 'env' | 'ignoreCase'>): string[] {
  const home = ctx.env.HOME ?? '';
  const slash = word.lastIndexOf('/');
  const typedDir = slash === -1 ? '' : word.slice(0, slash + 1);
  const prefix = word.slice(slash + 1);
  const expanded = typedDir.startsWith('~/') || typedDir === '~/' ? home + typedDir.slice(1) : typedDir;
  const dir = path.resolve(ctx.cwd, expanded || '.');
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const showHidden = prefix.startsWith('.');
  return entries
    .filter((name) => startsWith(name, prefix, ctx.ignoreCase) && (showHidden || !name.startsWith('.')) && isPrintable(name))
    .sort()
    .map((name) => {
      const full = path.join(dir, name);
      let suffix = '';
      try {
        if (statSync(full).isDirectory()) suffix = '/';
      } catch {
        // a dangling link: offer it as is
      }
      return `${typedDir}${name}${suffix}`;
    });
}
