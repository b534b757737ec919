// `@out` in a line for the model names a block (docs/usage.md "Blocks"): `@out` the newest,
// `@out:-N` the one N before it, `@out:N` block N, `@out:/regex/` the newest whose command or text
// matches. The same forms name a block for `:out show|copy` (`3`, `-1`, `/make/`). A block that
// is not kept, or is private, is a usage error and nothing is sent; one the pending output already
// carries to the model is named, not sent again.

import { UsageError } from '../errors.js';
import { fenced, isBlockMention } from '../project/mentions.js';
import type { Block, BlockStore } from './block-store.js';

const NOTHING_SENT = ' (nothing was sent)';

/** Which block a mention names. */
export type OutRef = { type: 'newest' } | { type: 'back'; n: number } | { type: 'number'; n: number } | { type: 'match'; pattern: RegExp; source: string };

/** What comes after `@out:` (or the argument of `:out show`): '' is the newest. Null: not a form of it. Pure. */
export function parseOutRef(spec: string): OutRef | null {
  if (spec === '') return { type: 'newest' };
  if (/^-\d+$/.test(spec)) return { type: 'back', n: Number(spec.slice(1)) };
  if (/^\d+$/.test(spec)) return { type: 'number', n: Number(spec) };
  const match = /^\/(.+)\/(i?)$/.exec(spec);
  if (!match) return null;
  try {
    return { type: 'match', pattern: new RegExp(match[1]!, match[2]), source: spec };
  } catch {
    return null;
  }
}

/** The `@out` mentions of `text`, in order, each once, as typed after `@` (trailing punctuation dropped). Pure. */
export function findOutMentions(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<=^|\s)@(\S+)/g)) {
    const raw = m[1]!;
    if (!isBlockMention(raw)) continue;
    // `@out:/a.c?/` keeps its slash-ended regex whole; elsewhere `@out?` is `@out`.
    found.add(/^out:\/.*\/i?$/.test(raw) ? raw : raw.replace(/[.,;!?)"'\]]+$/, ''));
  }
  return [...found];
}

/**
 * The block `ref` names (a private one too), or a UsageError saying why there is none, `named`
 * heading it and `after` ending it. A regex never finds a private block: its text is not kept.
 */
export function resolveOutRef(ref: OutRef, blocks: Pick<BlockStore, 'list' | 'get' | 'made'>, named: string, after = ''): Block {
  const kept = blocks.list();
  const fail = (why: string) => new UsageError(`${named}: ${why}${after}`);
  if (kept.length === 0) throw fail('no command has run yet');
  let block: Block | undefined;
  switch (ref.type) {
    case 'newest':
      block = kept.at(-1);
      break;
    case 'back':
      block = kept.at(-1 - ref.n);
      if (!block) throw fail(`only ${kept.length} block${kept.length === 1 ? ' is' : 's are'} kept`);
      break;
    case 'number':
      block = blocks.get(ref.n);
      if (!block) throw fail(ref.n > blocks.made || ref.n < 1 ? `there is no block ${ref.n}` : `block ${ref.n} is no longer kept (the last ${kept.length} are)`);
      break;
    case 'match':
      block = [...kept].reverse().find((b) => !b.private && (ref.pattern.test(b.command) || ref.pattern.test(b.text)));
      if (!block) throw fail(`no block matches ${ref.source}`);
      break;
  }
  if (!block) throw fail('no such block');
  return block;
}

/** The block `raw` (as typed after `@`) names. */
export function blockOfMention(raw: string, blocks: Pick<BlockStore, 'list' | 'get' | 'made'>): Block {
  const ref = parseOutRef(raw.slice('out'.length).replace(/^:/, ''));
  if (!ref) throw new UsageError(`@${raw}: name a block as @out, @out:-N, @out:N or @out:/regex/ (nothing was sent)`);
  const block = resolveOutRef(ref, blocks, `@${raw}`, NOTHING_SENT);
  if (block.private) throw new UsageError(`@${raw}: block ${block.n} is private${NOTHING_SENT}`);
  return block;
}

/** A block as the model reads it when it is attached. */
export function blockAttachment(block: Block): string {
  const head = `[block ${block.n}: $ ${block.command.replace(/\n/g, '\n  ')} (exit ${block.exitCode}, in ${block.cwd})]`;
  return `${head}\n${block.text === '' ? '(no output)' : fenced(block.text)}`;
}

/**
 * The attachments for the `@out` mentions of `text`: every named block once, or a line saying
 * it is in the exec output already sent with this question (`inPending`). Rejects with a
 * UsageError, before anything is sent, for a block that does not exist or is private.
 */
export function attachBlocks(text: string, blocks: Pick<BlockStore, 'list' | 'get' | 'made'>, inPending: (n: number) => boolean): { attachments: string[]; notes: string[] } {
  const attachments: string[] = [];
  const notes: string[] = [];
  const seen = new Set<number>();
  for (const raw of findOutMentions(text)) {
    const block = blockOfMention(raw, blocks);
    if (seen.has(block.n)) continue;
    seen.add(block.n);
    if (inPending(block.n)) {
      attachments.push(`[@${raw} is block ${block.n}: the exec output of \`${block.command.split('\n')[0]}\` above]`);
      notes.push(`@${raw} is block ${block.n}, already in the exec output sent with this question`);
      continue;
    }
    attachments.push(blockAttachment(block));
    notes.push(`attached @${raw}: block ${block.n} (${block.lines} line${block.lines === 1 ? '' : 's'})`);
  }
  return { attachments, notes };
}
