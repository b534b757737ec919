// :copy puts the last reply (its markdown source) on the system clipboard; :copy code [N] its Nth
// fenced code block without the fences (no N: the last block). What is copied passes the one
// sanitizer first, as on screen: printable text is the model's as written, and a control
// character arrives as the visible notation the screen showed (`^[`), so nothing pasted later can
// carry an escape sequence. No trailing newline, so a pasted command does not run by itself.

import { copyToClipboard } from '../clipboard.js';
import { UsageError } from '../errors.js';
import { codeBlocks } from '../render/code-blocks.js';
import { neutralize } from '../render/sanitize.js';
import type { Renderer } from '../render/renderer.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import type { TurnCore } from '../turn/core.js';
import type { MetaCommand } from './types.js';

export interface CopyPort {
  readonly render: Pick<Renderer, 'status' | 'flush' | 'io'>;
  readonly core: Pick<TurnCore, 'lastReply'>;
  readonly shell: Pick<ShellRunner, 'env'>;
}

export const copyCommands: MetaCommand<CopyPort>[] = [
  {
    name: 'copy',
    usage: '[code [N]]',
    summary: 'copy the last reply, or its Nth code block (default: the last), to the clipboard',
    complete: (prefix) => ['code'].filter((w) => w.startsWith(prefix)),
    async run(args, ctx) {
      const words = args.trim().split(/\s+/).filter(Boolean);
      if (words.length > 2 || (words.length > 0 && words[0] !== 'code')) throw new UsageError('usage: :copy [code [N]]');
      const reply = ctx.core.lastReply;
      if (reply === null) throw new UsageError('no reply to copy yet');
      let text = reply;
      let what = '';
      if (words[0] === 'code') {
        const blocks = codeBlocks(reply);
        if (blocks.length === 0) throw new UsageError('the last reply has no code block');
        const n = words[1] === undefined ? blocks.length : Number(words[1]);
        if (!Number.isInteger(n) || n < 1 || n > blocks.length) {
          throw new UsageError(`the last reply has ${blocks.length === 1 ? 'one code block' : `${blocks.length} code blocks`}: :copy code ${blocks.length === 1 ? '1' : `<1-${blocks.length}>`}`);
        }
        const block = blocks[n - 1]!;
        text = block.code;
        what = `code block ${n} of ${blocks.length}${block.lang ? ` (${block.lang})` : ''}: `;
      }
      await copySanitized(ctx, text, what);
    },
  },
];

/**
 * Puts `text` on the clipboard as the screen would show it (the one sanitizer, no trailing
 * newline) and says so: `copied <what>N lines (M chars) to …` (`:copy`, `:out copy`).
 */
export async function copySanitized(ctx: Pick<CopyPort, 'render' | 'shell'>, text: string, what: string): Promise<void> {
  const clean = neutralize(text.replace(/\r\n/g, '\n')).replace(/\n+$/, '');
  const io = ctx.render.io;
  ctx.render.flush();
  const copied = await copyToClipboard(clean, { env: ctx.shell.env, terminal: io.isTTY ? io.output : null });
  const lines = clean === '' ? 0 : clean.split('\n').length;
  const chars = [...clean].length;
  ctx.render.status(`copied ${what}${lines} line${lines === 1 ? '' : 's'} (${chars} chars) to ${copied.to} (${copied.via})`);
}
