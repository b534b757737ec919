// `@path` in a line for the model attaches that file (or a directory listing): `@src/date.ts`,
// `@src/date.ts:10-40` for lines 10 to 40, `@docs/` for a listing. Contents are capped head and
// tail like command output; a binary file is not attached (the person is told); a path that does
// not exist is a usage error before anything is sent. A mention starts a word, so `me@host` and
// `user@example.com` stay text.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { OutputCapture } from '../shell/capture.js';

export interface Mention {
  /** As typed after `@`, trailing punctuation removed. */
  path: string;
  /** `:10-40`: first and last line, 1-based and inclusive. */
  lines?: [number, number];
}

const MENTION = /(?<=^|\s)@([^\s@]+)/g;
const RANGE = /^(.*?):(\d+)-(\d+)$/;
const TRAILING = /[.,;:!?)"'\]]+$/;

/** The mentions in `text`, in order (each path once). Pure. */
export function findMentions(text: string): Mention[] {
  const found = new Map<string, Mention>();
  for (const m of text.matchAll(MENTION)) {
    const raw = m[1]!;
    const range = RANGE.exec(raw);
    const mention: Mention = range ? { path: range[1]!, lines: [Number(range[2]), Number(range[3])] } : { path: raw };
    if (!found.has(raw)) found.set(raw, mention);
  }
  return [...found.values()];
}

export interface Attached {
  /** The line with the attachments after it (unchanged when there were none). */
  text: string;
  /** Things to tell the person: what was attached, what was not and why. */
  notes: string[];
}

/** Attaches every mention of `text`; throws UsageError for a path that does not exist. */
export function attachMentions(text: string, cwd: string, home: string | undefined, maxChars: number): Attached {
  const blocks: string[] = [];
  const notes: string[] = [];
  for (const mention of findMentions(text)) {
    const resolved = resolveMention(mention, cwd, home);
    if (!resolved) throw new UsageError(`@${mention.path}: no such file or directory (nothing was sent)`);
    const { file, shown } = resolved;
    const stat = statSync(file);
    if (stat.isDirectory()) {
      const entries = readdirSync(file, { withFileTypes: true })
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
        .sort();
      blocks.push(`[directory: ${shown}/]\n${capped(entries.join('\n'), maxChars).text}`);
      notes.push(`attached @${shown}/ (${entries.length} entries)`);
      continue;
    }
    const bytes = readFileSync(file);
    if (bytes.subarray(0, 8192).includes(0)) {
      notes.push(`@${shown} looks binary: not attached`);
      continue;
    }
    let body = bytes.toString('utf8');
    let label = shown;
    if (mention.lines) {
      const [from, to] = mention.lines;
      if (from < 1 || to < from) throw new UsageError(`@${shown}:${from}-${to}: give lines as first-last, counting from 1`);
      body = body.split('\n').slice(from - 1, to).join('\n');
      label = `${shown}, lines ${from}-${to}`;
    }
    const kept = capped(body, maxChars);
    blocks.push(`[file: ${label}]\n${kept.text}`);
    notes.push(`attached @${shown}${mention.lines ? `:${mention.lines[0]}-${mention.lines[1]}` : ''} (${body.length} chars${kept.truncated ? `, capped at ${maxChars}` : ''})`);
  }
  return { text: blocks.length ? `${text}\n\n${blocks.join('\n\n')}` : text, notes };
}

/** The file a mention names; trailing punctuation (`@a.ts?`) is dropped when the path has none. */
function resolveMention(mention: Mention, cwd: string, home: string | undefined): { file: string; shown: string } | null {
  for (const candidate of [mention.path, mention.path.replace(TRAILING, '')]) {
    const trimmed = candidate.replace(/\/+$/, '') || candidate;
    const expanded = home && (trimmed === '~' || trimmed.startsWith('~/')) ? path.join(home, trimmed.slice(1)) : trimmed;
    const file = path.resolve(cwd, expanded);
    try {
      statSync(file);
      return { file, shown: trimmed };
    } catch {
      // try the next spelling
    }
  }
  return null;
}

function capped(text: string, maxChars: number) {
  const capture = new OutputCapture(maxChars);
  capture.push(text);
  return capture.finish();
}
