// :undo [--force], :undo list, :undo norris [--force]: puts back the files of the last action aish
// ran (docs/undo.md), says what it did, and tells the model with the next request.

import { UsageError } from '../errors.js';
import type { UndoResult } from '../undo/checkpoints.js';
import { CHANGED_SINCE } from '../undo/restore.js';
import type { CheckpointRecord } from '../undo/store.js';
import { treeOf } from '../undo/tree.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import type { TurnCore } from '../turn/core.js';
import type { Checkpoints } from '../undo/checkpoints.js';
import type { MetaCommand, Say } from './types.js';

export interface UndoPort extends Say {
  readonly shell: Pick<ShellRunner, 'cwd'>;
  readonly undo: Pick<Checkpoints, 'list' | 'undo' | 'undoNorris'>;
  /** The next request says what was undone. */
  readonly core: Pick<TurnCore, 'pending'>;
}

const WORDS = ['list', 'norris', '--force'];

export const undoCommands: MetaCommand<UndoPort>[] = [
  {
    name: 'undo',
    usage: '[--force] | list | norris [--force]',
    summary: 'put back the files the last command aish ran changed (list: the checkpoints; norris: a whole Norris run)',
    complete: (prefix) => WORDS.filter((w) => w.startsWith(prefix)),
    async run(args, ctx) {
      const words = args.trim().split(/\s+/).filter(Boolean);
      const force = words.includes('--force');
      const rest = words.filter((w) => w !== '--force');
      if (rest.length > 1 || (rest[0] !== undefined && !['list', 'norris'].includes(rest[0]))) {
        throw new UsageError('usage: :undo [--force] | :undo list | :undo norris [--force]');
      }
      const cwd = ctx.shell.cwd;
      if (rest[0] === 'list') {
        const { tree, records } = await ctx.undo.list(cwd);
        if (records.length === 0) ctx.render.status(`no checkpoints of ${tree}`);
        else ctx.render.info([`checkpoints of ${tree} (newest first):`, ...listLines(records, new Date())].join('\n'));
        return;
      }
      const norris = rest[0] === 'norris';
      const result = norris ? await ctx.undo.undoNorris(cwd, force) : await ctx.undo.undo(cwd, force);
      if (result === null) {
        ctx.render.status(`${norris ? 'no Norris run to undo' : 'nothing to undo'} in ${treeOf(cwd)}`);
        return;
      }
      report(result, force, ctx);
    },
  },
];

/** One line per checkpoint: when, how many files, what ran; `(undone)` after those undone. */
export function listLines(records: readonly CheckpointRecord[], now: Date): string[] {
  const rows = records.map((r) => [when(new Date(r.at), now), `${r.changed} file${r.changed === 1 ? '' : 's'}`, `${oneLine(r.label)}${r.undone ? (r.left?.length ? `  (undone, ${r.left.length} kept: :undo --force)` : '  (undone)') : ''}`] as const);
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([a, b, c]) => `  ${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
}

/** The time of day for today's checkpoints, the date and minute for older ones. */
function when(at: Date, now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(at.getHours())}:${two(at.getMinutes())}`;
  if (at.toDateString() === now.toDateString()) return `${time}:${two(at.getSeconds())}`;
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${time}`;
}

/** What the person sees, and the one line the model reads with the next request. */
function report(result: UndoResult, force: boolean, ctx: UndoPort): void {
  const restored = [...new Set(result.restored)];
  const removed = [...new Set(result.removed)].filter((f) => !restored.includes(f));
  const kept = new Map(result.kept.map((k) => [k.path, k.why]));
  for (const f of [...restored, ...removed]) kept.delete(f);
  const labels = result.undone.map((r) => `'${oneLine(r.label)}'`).join(', ');
  ctx.render.status(`undid ${labels}`);
  const done = [...restored.map((f) => `restored ${f}`), ...removed.map((f) => `removed ${f}`)];
  if (done.length > 0) ctx.render.status(done.join(', '));
  for (const [file, why] of kept) ctx.render.status(`kept ${file}: ${why}`);
  if (done.length === 0 && kept.size === 0) ctx.render.status('nothing to put back: the files are as they were before');
  if (!force && [...kept.values()].includes(CHANGED_SINCE)) ctx.render.status(':undo --force puts back what changed since too');
  const what = [...done, ...[...kept].map(([file, why]) => `kept ${file} (${why})`)].join(', ') || 'no file needed putting back';
  // One line: a file name may hold a newline or other control characters.
  ctx.core.pending.note(`[aish] the user undid ${labels} with :undo: ${what}`.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
