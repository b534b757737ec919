// :edit [text] composes a line in $VISUAL/$EDITOR (as Ctrl-X Ctrl-E does at the prompt) and then
// runs it as if typed: to the shell, a meta command or the model, by the usual routing. Several
// lines go as one input (one shell script, one question). An empty file or a failed editor runs
// nothing.

import type { MetaCommand } from './types.js';

export interface EditPort {
  /**
   * Composes a line in $VISUAL/$EDITOR starting from `initial`, shows it after the prompt and keeps
   * it in the input history; null when cancelled (the reason is already shown). Throws a
   * UsageError without a terminal.
   */
  composeLine(initial: string): Promise<string | null>;
  /** Runs `line` next, as if typed: routed to the shell, a meta command or the model. */
  runNext(line: string): void;
}

export const editCommands: MetaCommand<EditPort>[] = [
  {
    name: 'edit',
    usage: '[text]',
    summary: 'compose a line in $VISUAL/$EDITOR (Ctrl-X Ctrl-E at the prompt), then run it as typed',
    async run(args, ctx, signal) {
      const text = await ctx.composeLine(args.trimEnd());
      // Ctrl-C while the editor was open cancels the line, the composed one with it (it stays in
      // the input history).
      signal.throwIfAborted();
      if (text !== null) ctx.runNext(text);
    },
  },
];
