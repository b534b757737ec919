// `@path` in a line for the model attaches that file (or a directory listing): `@src/date.ts`,
// `@src/date.ts:10-40` for lines 10 to 40, `@docs/` for a listing. Contents are capped head and
// tail like command output; a binary file is not attached (the person is told); a path that does
// not exist is a usage error before anything is sent. A mention starts a word, so `me@host` and
// `user@example.com` stay text. `@alias:<uri>` attaches an MCP server's resource the same way, read
// through the `ResourceReader` port (the MCP registry), as a fenced block headed by its URI.
// `@out` and `@out:…` name a command's output block (src/blocks/out-mentions.ts), not a file: a
// file called `out` is `@./out`.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError, errorMessage } from '../errors.js';
import { OutputCapture } from '../shell/capture.js';

export interface Mention {
  /** As typed after `@`, trailing punctuation removed. */
  path: string;
  /** `:10-40`: first and last line, 1-based and inclusive. */
  lines?: [number, number];
  /** `@alias:<uri>` of a server `knows` names: its resource (the URI without trailing punctuation). */
  resource?: { alias: string; uri: string };
}

/** One item of a read resource: its text, or a one-line summary of its blob. */
export type ResourceText = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; summary: string };

/** The port through which mentions reach MCP servers' resources (the MCP registry is one). */
export interface ResourceReader {
  /** Whether `alias` names an MCP server of the session. */
  knows(alias: string): boolean;
  /** `resources/read`; rejects with a UsageError saying why when it cannot be read. */
  readResource(alias: string, uri: string, signal?: AbortSignal): Promise<ResourceText[]>;
}

const MENTION = /(?<=^|\s)@([^\s@]+)/g;
const RANGE = /^(.*?):(\d+)-(\d+)$/;
const TRAILING = /[.,;:!?)"'\]]+$/;
/** `alias:scheme:...`: a server alias, then a URI (every URI starts with its scheme). */
export const RESOURCE_MENTION = /^([A-Za-z0-9_-]+):([A-Za-z][A-Za-z0-9+.-]*:.*)$/;

/** Whether a mention (as typed after `@`) names an output block: `out`, `out:…`, `out?`, never `out.txt`. */
export function isBlockMention(raw: string): boolean {
  return /^out(?::|[.,;!?)"'\]]*$)/.test(raw);
}

/** The mentions in `text`, in order (each once); `knows` says which `@alias:` are servers. Pure. */
export function findMentions(text: string, knows: (alias: string) => boolean = () => false): Mention[] {
  const found = new Map<string, Mention>();
  for (const m of text.matchAll(MENTION)) {
    const raw = m[1]!;
    if (found.has(raw) || isBlockMention(raw)) continue;
    const resource = RESOURCE_MENTION.exec(raw);
    if (resource && knows(resource[1]!)) {
      const uri = resource[2]!.replace(TRAILING, '');
      found.set(raw, { path: raw, resource: { alias: resource[1]!, uri } });
      continue;
    }
    const range = RANGE.exec(raw);
    found.set(raw, range ? { path: range[1]!, lines: [Number(range[2]), Number(range[3])] } : { path: raw });
  }
  return [...found.values()];
}

export interface Attached {
  /** The line with the attachments after it (unchanged when there were none). */
  text: string;
  /** Things to tell the person: what was attached, what was not and why. */
  notes: string[];
}

/**
 * Attaches every mention of `text`, in order; rejects with a UsageError for a path that does not
 * exist or a resource that cannot be read (nothing is sent then).
 */
export async function attachMentions(
  text: string,
  cwd: string,
  home: string | undefined,
  maxChars: number,
  resources?: ResourceReader,
  signal?: AbortSignal,
): Promise<Attached> {
  const blocks: string[] = [];
  const notes: string[] = [];
  for (const mention of findMentions(text, (alias) => resources?.knows(alias) ?? false)) {
    if (mention.resource && resources) {
      const { alias, uri } = mention.resource;
      let parts: ResourceText[];
      try {
        parts = await resources.readResource(alias, uri, signal);
      } catch (err) {
        if (signal?.aborted) throw err;
        throw new UsageError(`@${alias}:${uri}: ${errorMessage(err)} (nothing was sent)`);
      }
      for (const part of parts) {
        const mime = part.mimeType ? ` (${part.mimeType})` : '';
        if ('summary' in part) {
          blocks.push(`[resource: ${alias}:${part.uri}${mime}]\n${part.summary}`);
          notes.push(`@${alias}:${part.uri} is binary: attached as ${part.summary}`);
          continue;
        }
        const kept = capped(part.text, maxChars);
        blocks.push(`[resource: ${alias}:${part.uri}${mime}]\n${fenced(kept.text)}`);
        notes.push(`attached @${alias}:${part.uri} (${part.text.length} chars${kept.truncated ? `, capped at ${maxChars}` : ''})`);
      }
      continue;
    }
    const resolved = resolveMention(mention, cwd, home);
    if (!resolved) {
      const looksLikeResource = RESOURCE_MENTION.exec(mention.path);
      if (looksLikeResource) throw new UsageError(`@${mention.path}: no such file, and no MCP server named ${looksLikeResource[1]} (nothing was sent)`);
      throw new UsageError(`@${mention.path}: no such file or directory (nothing was sent)`);
    }
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

/** `text` in a fence longer than any backtick run inside it, so the block stays closed. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

function capped(text: string, maxChars: number) {
  const capture = new OutputCapture(maxChars);
  capture.push(text);
  return capture.finish();
}
