// :norris <goal> starts the autonomous loop; :halt explains how to stop one (Ctrl-C, or `abort`
// at any [Norris] question).

import { UsageError } from '../errors.js';
import type { NorrisMode } from '../norris/mode.js';
import type { MetaCommand, Say } from './types.js';

export interface NorrisPort extends Say {
  readonly norris: Pick<NorrisMode, 'running'>;
  /** Runs Norris toward `goal` until it ends; lines typed meanwhile reach it. */
  runNorris(goal: string, signal: AbortSignal): Promise<void>;
}

export const norrisCommands: MetaCommand<NorrisPort>[] = [
  {
    name: 'norris',
    usage: '<goal>',
    summary: 'work autonomously toward a goal (destructive steps still ask)',
    async run(args, ctx, signal) {
      const goal = args.trim();
      if (!goal) throw new UsageError('usage: :norris <goal>');
      await ctx.runNorris(goal, signal);
    },
  },
  {
    name: 'halt',
    usage: '',
    summary: 'stop Norris mode: type it while Norris runs (also: Ctrl-C, or "abort" at a [Norris] question)',
    run(_args, ctx) {
      ctx.render.status(ctx.norris.running ? 'halting Norris' : 'Norris is not running');
    },
  },
];
