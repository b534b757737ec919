// :tree shows the [project] block the model gets; :diff attaches `git diff` (also --staged, or
// against a ref) to the next question, capped like command output.

import { UsageError } from '../errors.js';
import { gitDiff } from '../project/git.js';
import { OutputCapture } from '../shell/capture.js';
import type { Config } from '../config/schema.js';
import type { ProjectContext } from '../project/context.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import type { TurnCore } from '../turn/core.js';
import type { MetaCommand, Say } from './types.js';

export interface ProjectPort extends Say {
  readonly config: Pick<Config, 'shell'>;
  readonly core: Pick<TurnCore, 'pending'>;
  readonly shell: Pick<ShellRunner, 'cwd' | 'env'>;
  /** The `[project]` block the model gets for a directory; null outside a git work tree. */
  readonly project: Pick<ProjectContext, 'block'>;
}

export const projectCommands: MetaCommand<ProjectPort>[] = [
  {
    name: 'tree',
    usage: '',
    summary: 'show the [project] block the model gets (git work tree, branch, tracked files)',
    async run(_args, ctx) {
      const block = await ctx.project.block(ctx.shell.cwd);
      ctx.render.info(block ?? 'not in a git work tree: no [project] block is sent');
    },
  },
  {
    name: 'diff',
    usage: '[--staged | <ref>]',
    summary: 'attach git diff (or --staged, or against a ref) to your next question',
    complete: (prefix) => ['--staged'].filter((w) => w.startsWith(prefix)),
    async run(args, ctx) {
      const words = args.trim().split(/\s+/).filter(Boolean);
      if (words.length > 1 || words.some((w) => w.startsWith('-') && w !== '--staged')) throw new UsageError('usage: :diff [--staged | <ref>]');
      const diff = await gitDiff(ctx.shell.cwd, words, ctx.shell.env);
      const what = ['git diff', ...words].join(' ');
      if (diff === null) throw new UsageError(`${what} failed (not a git work tree, or an unknown ref)`);
      if (diff.trim() === '') {
        ctx.render.status(`${what}: no changes; nothing attached`);
        return;
      }
      const capture = new OutputCapture(ctx.config.shell.capture_max_chars);
      capture.push(diff);
      const kept = capture.finish();
      ctx.core.pending.note(`[${what}]\n${kept.text}`);
      const lines = diff.split('\n').length - 1;
      const files = (diff.match(/^diff --git /gm) ?? []).length;
      ctx.render.status(
        `${what}: ${files} file${files === 1 ? '' : 's'}, ${lines} lines attached to your next question${kept.truncated ? ` (capped at ${ctx.config.shell.capture_max_chars} chars, head and tail kept)` : ''}`,
      );
    },
  },
];
