// The person's own shell history ($HISTFILE), read so that Up and Ctrl-R in aish reach it too.
// bash writes one command a line, with a `#<seconds>` line before each when HISTTIMEFORMAT is set
// (then the lines up to the next one are one command: `lithist`); zsh writes `: <start>:<elapsed>;`
// before each command with EXTENDED_HISTORY, a newline inside a command as backslash-newline, and
// its special bytes "metafied" (0x83, then the byte xor 0x20); fish writes a YAML-like list, an
// entry a `- cmd: <command>` line (a newline in it as `\n`, a backslash as `\\`) and indented
// lines after it (`when:`, `paths:`). The parser is pure; the file is read only when it is a
// regular file, and only its tail when it is large.

import { isRefused, readRegularFileTail } from '../small-file.js';
import type { SessionShell } from './session.js';

/** What of a history file is read: its last 4 MiB. */
export const SHELL_HISTORY_MAX_BYTES = 4 * 1024 * 1024;

/** zsh's Meta byte: the next byte is a special one, xor 0x20. */
const META = 0x83;
const BASH_TIME = /^#\d/;
const ZSH_EXTENDED = /^: \d+:\d+;/;
const FISH_CMD = '- cmd: ';
/** An entry that could not be typed into a shell (an escape would act as a key): left out. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

export interface ParseOptions {
  /** The bytes are the tail of the file: the entry the cut went through is left out. */
  cut?: boolean;
  /** At most this many entries, the newest. */
  max?: number;
}

/** The commands of a `kind` history file, newest first, each once (where it was last). Pure. */
export function parseShellHistory(kind: SessionShell, bytes: Uint8Array, opts: ParseOptions = {}): string[] {
  const text = new TextDecoder().decode(kind === 'zsh' ? unmetafy(bytes) : bytes);
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  const cut = opts.cut ?? false;
  const entries = kind === 'zsh' ? zshEntries(lines, cut) : kind === 'fish' ? fishEntries(lines) : bashEntries(lines, cut);
  return newestFirst(entries, opts.max ?? Infinity);
}

/** What is read first: enough for a thousand lines of most histories, parsed in a few ms. */
const FIRST_READ_BYTES = 256 * 1024;

/**
 * The commands of the history file `file` (newest first), at most `max`, read as
 * `readRegularFileTail` reads: its last 256 KiB, and its last `maxBytes` when those held fewer
 * than `max` commands (parsing 4 MiB holds the event loop for a fifth of a second). None when it
 * is not there, not a regular file, or cannot be read. Never throws.
 */
export function readShellHistory(kind: SessionShell, file: string, opts: { maxBytes?: number; max?: number } = {}): string[] {
  if (file === '') return [];
  const maxBytes = opts.maxBytes ?? SHELL_HISTORY_MAX_BYTES;
  const max = opts.max ?? Infinity;
  for (const bytes of [Math.min(FIRST_READ_BYTES, maxBytes), maxBytes]) {
    const read = readRegularFileTail(file, bytes);
    if (isRefused(read) || read instanceof Error) return [];
    const entries = parseShellHistory(kind, read.bytes, { cut: read.cut, max });
    if (!read.cut || entries.length >= max || bytes === maxBytes) return entries;
  }
  return [];
}

function bashEntries(lines: string[], cut: boolean): string[] {
  const timed = lines.some((line) => BASH_TIME.test(line));
  if (cut) lines = timed ? lines.slice(Math.max(0, lines.findIndex((line) => BASH_TIME.test(line)))) : lines.slice(1);
  if (!timed) return lines;
  // Between two timestamps lies one command, of one line or (with `lithist`) several.
  const entries: string[] = [];
  let current: string[] | null = null;
  for (const line of lines) {
    if (BASH_TIME.test(line)) {
      if (current) entries.push(current.join('\n'));
      current = [];
    } else (current ??= []).push(line);
  }
  if (current) entries.push(current.join('\n'));
  return entries;
}

function zshEntries(lines: string[], cut: boolean): string[] {
  // A cut may fall inside a multi-line entry: its lines up to the one that ends it are dropped.
  if (cut) lines = lines.slice(lines.findIndex((line) => !line.endsWith('\\')) + 1);
  const entries: string[] = [];
  let current: string | null = null;
  for (const line of lines) {
    const text: string = current === null ? line.replace(ZSH_EXTENDED, '') : line;
    if (text.endsWith('\\')) {
      current = `${current ?? ''}${text.slice(0, -1)}\n`;
      continue;
    }
    entries.push(`${current ?? ''}${text}`);
    current = null;
  }
  if (current !== null) entries.push(current.slice(0, -1));
  return entries;
}

/** The `- cmd:` lines of fish's file, unescaped. A cut leaves at most an entry's indented lines or
 * part of a line before the next `- cmd:`: skipped, as every other line is. */
function fishEntries(lines: string[]): string[] {
  return lines.filter((line) => line.startsWith(FISH_CMD)).map((line) => line.slice(FISH_CMD.length).replace(/\\([\\n])/g, (_, c: string) => (c === 'n' ? '\n' : '\\')));
}

/** zsh's history bytes as the text was typed: each Meta byte and the one after it become that byte xor 0x20. */
export function unmetafy(bytes: Uint8Array): Uint8Array {
  if (!bytes.includes(META)) return bytes;
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out[n++] = b === META && i + 1 < bytes.length ? bytes[++i]! ^ 0x20 : b;
  }
  return out.subarray(0, n);
}

function newestFirst(entries: readonly string[], max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = entries.length - 1; i >= 0 && out.length < max; i--) {
    const entry = entries[i]!;
    if (entry.trim() === '' || CONTROL.test(entry) || seen.has(entry)) continue;
    seen.add(entry);
    out.push(entry);
  }
  return out;
}
