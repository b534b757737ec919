// The session's output blocks (docs/usage.md "Blocks"): `:out` lists them, `:out show|copy`
// prints or copies one, `:out grep` searches them; `:private` keeps output from the model for a
// while or for one line; `:explain` (and a lone `?`) asks the model why a command failed. What is
// shown passes the one sanitizer (the renderer's `info`, `neutralize` for the clipboard).

import type { Block, BlockStore } from '../blocks/block-store.js';
import { parseOutRef, resolveOutRef } from '../blocks/out-mentions.js';
import { UsageError } from '../errors.js';
import type { Renderer } from '../render/renderer.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import { copySanitized } from './copy.js';
import type { ConversationPort, MetaCommand } from './types.js';

export interface OutPort {
  readonly render: Pick<Renderer, 'info' | 'status' | 'flush' | 'io'>;
  readonly blocks: BlockStore;
  readonly shell: Pick<ShellRunner, 'env' | 'run'>;
  readonly conversation: Pick<ConversationPort, 'ask'>;
}

/** Blocks `:out` lists without `all`. */
const LISTED = 20;
/** Lines `:out grep` prints at most. */
const GREP_LINES = 100;

export const outCommands: MetaCommand<OutPort>[] = [
  {
    name: 'out',
    usage: '[all | show [N] | copy [N] | grep <pattern>]',
    summary: "list this session's output blocks, or show, copy or search them (N: 3, -1, /regex/)",
    complete: (prefix, ctx, args = '') => {
      const words = args.split(/\s+/);
      if (words.length <= 1) return ['all', 'show', 'copy', 'grep'].filter((w) => w.startsWith(prefix));
      if (words.length === 2 && (words[0] === 'show' || words[0] === 'copy')) return numbersOf(ctx.blocks).filter((n) => n.startsWith(prefix));
      return [];
    },
    async run(args, ctx) {
      const [verb = '', ...rest] = args.trim().split(/\s+/).filter(Boolean);
      const arg = rest.join(' ');
      switch (verb) {
        case '':
        case 'all':
          return listBlocks(ctx, verb === 'all');
        case 'show': {
          const block = textOf(blockNamed(arg, ctx.blocks, 'show'));
          ctx.render.info(`${headOf(block)}\n${block.text === '' ? '(no output)' : block.text}`);
          return;
        }
        case 'copy': {
          const block = textOf(blockNamed(arg, ctx.blocks, 'copy'));
          return copySanitized(ctx, block.text, `block ${block.n}: `);
        }
        case 'grep':
          return grepBlocks(ctx, arg);
        default:
          throw new UsageError('usage: :out [all | show [N] | copy [N] | grep <pattern>]');
      }
    },
  },
  {
    name: 'private',
    usage: '[on | off | <command>]',
    summary: 'keep command output from the model, the session log and every file: for the session, or for one command',
    complete: (prefix) => ['on', 'off'].filter((w) => w.startsWith(prefix)),
    async run(args, ctx, signal) {
      const what = args.trim();
      if (what === '') {
        ctx.render.status(`private output is ${ctx.blocks.privateMode ? 'on' : 'off'}${ctx.blocks.privateMode ? '' : ' (privacy.private_commands still applies)'}`);
        return;
      }
      if (what === 'on' || what === 'off') {
        ctx.blocks.privateMode = what === 'on';
        ctx.render.status(what === 'on' ? 'private output on: no command output reaches the model until :private off' : 'private output off');
        return;
      }
      // Marked private, it stays out of the shell's history too, as a line typed with a leading space.
      await ctx.shell.run(what, signal, { private: true, outOfHistory: true });
    },
  },
  {
    name: 'explain',
    usage: '[N]',
    summary: 'ask the model why the last command (or block N) failed; a line of just ? does the same',
    async run(args, ctx, signal) {
      const spec = args.trim();
      const block = blockNamed(spec, ctx.blocks, 'explain');
      if (block.private) throw new UsageError(`block ${block.n} is private (nothing was sent)`);
      if (spec === '' && block.exitCode === 0) throw new UsageError(`the last command did not fail (block ${block.n}, exit 0): ask about it with @out`);
      const question = block.exitCode === 0 ? 'Explain the output of this command.' : `Why did this command fail (exit ${block.exitCode})? Say briefly, and how to fix it.`;
      await ctx.conversation.ask(`${question} @out:${block.n}`, signal);
    },
  },
];

/** The block `spec` names (`3`, `-1`, `/regex/`; '' the newest) for `:out <verb>`. */
function blockNamed(spec: string, blocks: BlockStore, verb: string): Block {
  const ref = parseOutRef(spec);
  if (!ref) throw new UsageError(`usage: :${verb === 'explain' ? 'explain' : `out ${verb}`} [N | -N | /regex/]`);
  return resolveOutRef(ref, blocks, `:${verb === 'explain' ? 'explain' : `out ${verb}`}${spec ? ` ${spec}` : ''}`);
}

/** A block whose text was kept; a private one is named and withheld. */
function textOf(block: Block): Block {
  if (block.private) throw new UsageError(`block ${block.n} is private (${block.private}): its output was not kept`);
  return block;
}

function headOf(block: Block): string {
  return `block ${block.n}: $ ${block.command}  (exit ${block.exitCode}, ${block.cwd}, ${timeOf(block.at)})`;
}

function timeOf(at: Date): string {
  return at.toTimeString().slice(0, 8);
}

function numbersOf(blocks: BlockStore): string[] {
  return blocks
    .list()
    .filter((b) => !b.private)
    .map((b) => String(b.n))
    .reverse();
}

function listBlocks(ctx: OutPort, all: boolean): void {
  const kept = ctx.blocks.list();
  if (kept.length === 0) {
    ctx.render.info('no output blocks yet: every command you run becomes one');
    return;
  }
  const shown = all ? kept : kept.slice(-LISTED);
  const width = String(shown.at(-1)!.n).length;
  const rows = shown.map((b) => {
    const what = b.private ? 'private, withheld' : `${b.lines} line${b.lines === 1 ? '' : 's'}`;
    const command = b.command.split('\n')[0]! + (b.command.includes('\n') ? ' …' : '');
    return `${String(b.n).padStart(width)}  ${timeOf(b.at)}  exit ${String(b.exitCode).padEnd(3)}  ${what.padEnd(17)}  ${command}`;
  });
  const older = kept.length - shown.length;
  ctx.render.info([...rows, ...(older > 0 ? [`(${older} older: :out all)`] : [])].join('\n'));
}

function grepBlocks(ctx: OutPort, pattern: string): void {
  if (pattern === '') throw new UsageError('usage: :out grep <pattern> (a regular expression)');
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch {
    // Not a regular expression: the text as it is.
    regex = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  }
  const found = ctx.blocks.grep(regex);
  if (found.length === 0) {
    ctx.render.status(`no block's output matches ${pattern}`);
    return;
  }
  const lines = found.flatMap(({ block, lines }) => lines.map((line) => `${block.n}: ${line}`));
  const more = lines.length - GREP_LINES;
  ctx.render.info([...lines.slice(0, GREP_LINES), ...(more > 0 ? [`(${more} more lines: narrow the pattern)`] : [])].join('\n'));
}
