// Which hidden places a previewed command reached (pure). A preview hides the places secrets live
// (`~/.ssh`, `~/.aws`, …: norris/sandbox.ts), so `cat ~/.ssh/id_rsa > key.txt` previews as
// "Permission denied" and an empty key.txt, while a real run copies the key. Two signs, both
// read from what is known without tracing: a path named in the command's words or redirections
// (after `~`, `$HOME`, `--opt=`, `@`) that is a hidden place or inside one, globs matched a
// component at a time; and a path named on an error line of the output ("Permission denied").
// Not seen: a path the command computes (a variable, a script's own open) whose error it hides.

import path from 'node:path';
import type { Word } from '../safety/shell-lexer.js';
import { parseShell, substitutionsOf, type SimpleCommand } from '../safety/shell-words.js';

export interface HiddenReach {
  /** The path as named (absolute; a glob keeps its pattern): the hidden place or a path inside it. */
  path: string;
  /** Named as a redirection's output (`> ~/.ssh/authorized_keys`): a real run writes it. */
  write: boolean;
}

export interface HiddenReachInput {
  command: string;
  /** What the command printed in the preview (stdout and stderr). */
  output: string;
  cwd: string;
  /** The home folder `~` and `$HOME` stand for. */
  home: string | undefined;
  /** The places hidden in the preview, absolute (their real paths and as configured). */
  hidden: readonly string[];
}

/** Most places named; a command that names more is reported by its first ones. */
const MAX_REACHED = 8;
/** An error line that may name a place the box hid. */
const DENIED = /Permission denied|EACCES|Operation not permitted|EPERM/;
/** What separates the paths on such a line. */
const PATH_BREAK = /[\s'"`‘’“”:,;()[\]<>]+/;

/** The hidden places the command named or its output named as denied, first seen first. */
export function hiddenReached(input: HiddenReachInput): HiddenReach[] {
  const found = new Map<string, HiddenReach>();
  const note = (candidate: string, write: boolean) => {
    const absolute = resolveWord(candidate, input.cwd, input.home);
    if (absolute === null || !input.hidden.some((h) => reaches(absolute, h))) return;
    const seen = found.get(absolute);
    if (seen) seen.write ||= write;
    else if (found.size < MAX_REACHED) found.set(absolute, { path: absolute, write });
  };
  for (const command of allCommands(input.command)) {
    for (const word of command.words) for (const c of candidates(word)) note(c, false);
    for (const r of command.redirects) if (!r.op.startsWith('<<')) for (const c of candidates(r.target)) note(c, r.op.includes('>'));
  }
  for (const line of input.output.split('\n')) {
    if (!DENIED.test(line)) continue;
    for (const token of line.split(PATH_BREAK)) if (token.includes('/') || token.startsWith('.') || token.startsWith('~')) note(token, false);
  }
  return [...found.values()];
}

/** Every simple command of the line, those in substitutions too. */
function allCommands(line: string): SimpleCommand[] {
  return parseShell(line).flatMap((c) => [c, ...substitutionsOf(c).flatMap(allCommands)]);
}

/** The paths a word may name: itself, what follows `=` (`--key=~/.ssh/k`, `VAR=…`), what follows a leading `@` (`curl -d @file`). */
function candidates(word: Word): string[] {
  if (word.processSubstitution) return [];
  const text = word.text;
  const out = [text];
  const eq = text.indexOf('=');
  if (eq > 0) out.push(text.slice(eq + 1));
  if (text.startsWith('@')) out.push(text.slice(1));
  return out.filter((t) => t !== '');
}

/** `text` as an absolute path: `~` and `$HOME` expanded, relative to `cwd`; null when it holds another expansion. */
function resolveWord(text: string, cwd: string, home: string | undefined): string | null {
  let t = text;
  const homeForm = /^(~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(t);
  if (homeForm) {
    if (!home) return null;
    t = home + t.slice(homeForm[0].length);
  }
  if (/[$`]/.test(t)) return null;
  return path.resolve(cwd, t);
}

/** Whether `named` (perhaps a glob) is `hidden` or inside it, compared a path component at a time. */
function reaches(named: string, hidden: string): boolean {
  const n = named.split('/').filter(Boolean);
  const h = hidden.split('/').filter(Boolean);
  if (n.length < h.length) return false;
  return h.every((part, i) => componentMatches(n[i]!, part));
}

/** A component of a named path against one of a hidden place: equal, or a glob (`*`, `?`, `[…]`) that matches it. */
function componentMatches(pattern: string, name: string): boolean {
  if (!/[*?[]/.test(pattern)) return pattern === name;
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) re += '\\[';
      else {
        const body = pattern.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = close;
      }
    } else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  // A leading dot is matched only by a dot, as a shell's glob does.
  if (name.startsWith('.') && !pattern.startsWith('.')) return false;
  try {
    return new RegExp(`^${re}$`).test(name);
  } catch {
    return false;
  }
}
