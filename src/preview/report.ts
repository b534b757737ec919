// What a preview's changes mean, in words and for decisions (pure): each path as the person knows
// it (relative to the directory, or `~/...`), the list a person reads (a repository's `.git`
// folded into one line, what is outside the tree marked, capped), what the hidden places a
// command reached mean, and what a Norris step's preview means for its HALT.

import path from 'node:path';
import type { StepPreview } from '../norris/run.js';
import { isInside } from '../norris/sandbox.js';
import type { HiddenReach } from './hidden-reach.js';
import type { FileChange } from './overlay-changes.js';
import type { PreviewResult } from './previewer.js';

/** `file` relative to `cwd` when inside it, else `~/...` inside `home`, else as is. */
export function shownPath(file: string, cwd: string, home: string | undefined): string {
  if (isInside(file, cwd)) return path.relative(cwd, file) || '.';
  if (home && isInside(file, home)) return `~/${path.relative(home, file)}`;
  return file;
}

export interface ChangeLine {
  kind: FileChange['kind'];
  /** The path as shown, with `/` after a folder, then what changed in it. */
  text: string;
  /** Outside the tree (the home folder, /tmp): a real run writes there too, and the tree's checkpoints do not cover it. */
  outside?: true;
}

/** Most lines of changes shown; the rest are counted. */
export const MAX_CHANGE_LINES = 30;

/**
 * The lines a person reads, deletions first, then creations, then changes: a folder created or
 * deleted whole is one line with its file count; everything inside a `.git` folder is one line.
 * Given the `tree`, what is outside it comes after what is inside, marked.
 */
export function changeLines(changes: readonly FileChange[], show: (file: string) => string, max = MAX_CHANGE_LINES, tree?: string): { lines: ChangeLine[]; more: number } {
  const git = new Map<string, number>();
  const lines: ChangeLine[] = [];
  const outside = (file: string): { outside?: true } => (tree !== undefined && !isInside(file, tree) ? { outside: true } : {});
  const order = { delete: 0, create: 1, change: 2 } as const;
  for (const c of [...changes].sort((a, b) => order[a.kind] - order[b.kind] || a.path.localeCompare(b.path))) {
    const gitDir = gitFolderOf(c.path);
    if (gitDir) {
      git.set(gitDir, (git.get(gitDir) ?? 0) + (c.files ?? 1));
      continue;
    }
    lines.push({ kind: c.kind, text: describe(c, show), ...outside(c.path) });
  }
  for (const [dir, count] of git) lines.push({ kind: 'change', text: `${show(dir)}/ (${count} ${count === 1 ? 'entry' : 'entries'}: git's own files)`, ...outside(dir) });
  // Inside the tree first (a stable sort keeps the order within each).
  const sorted = lines.sort((a, b) => Number(a.outside ?? false) - Number(b.outside ?? false));
  return { lines: sorted.slice(0, max), more: Math.max(0, sorted.length - max) };
}

function describe(c: FileChange, show: (file: string) => string): string {
  const name = `${show(c.path)}${c.type === 'dir' ? '/' : ''}`;
  const notes: string[] = [];
  if (c.files !== undefined) notes.push(`${c.files} ${c.files === 1 ? 'file' : 'files'}`);
  if (c.type === 'symlink' && c.kind !== 'delete') notes.push(c.content ? 'link target' : 'link');
  if (c.mode) notes.push(`mode ${octal(c.mode.before)} → ${octal(c.mode.after)}`);
  return notes.length > 0 ? `${name} (${notes.join(', ')})` : name;
}

function octal(mode: number): string {
  return mode.toString(8).padStart(3, '0');
}

/** The `.git` folder `file` is in (or is), if any. */
function gitFolderOf(file: string): string | null {
  const parts = file.split(path.sep);
  const at = parts.indexOf('.git');
  return at === -1 ? null : parts.slice(0, at + 1).join(path.sep) || null;
}

/** What a preview says about a hidden place the command reached: the preview could not show it. */
export function hiddenLine(reach: HiddenReach, show: (file: string) => string): string {
  return `hidden in the preview: ${show(reach.path)} — a real run can ${reach.write ? 'write' : 'read'} it`;
}

/** What `p` says where previews cannot run (the reason follows on a line of its own). */
export const PREVIEW_UNAVAILABLE = 'preview needs Linux user namespaces (not available here)';

/**
 * A preview as a Norris step reads it: what existed and would be deleted or changed, what would
 * be created; a preview that failed, was cancelled or hit its time limit is no preview.
 */
export function stepPreview(result: PreviewResult, show: (file: string) => string, timeoutMs: number): StepPreview {
  switch (result.type) {
    case 'unavailable':
      return { type: 'none', why: `${PREVIEW_UNAVAILABLE}: ${result.why}` };
    case 'failed':
      return { type: 'none', why: `it failed: ${result.why}` };
    case 'cancelled':
      return { type: 'none', why: 'cancelled' };
  }
  if (result.timedOut) return { type: 'none', why: `it did not finish within ${timeoutMs} ms` };
  if (!result.complete) return { type: 'none', why: 'it changed more files than were read' };
  const touched = [...new Set(result.changes.filter((c) => c.kind !== 'create').map((c) => c.path))];
  const created = result.changes.filter((c) => c.kind === 'create').map((c) => c.path);
  return { type: 'done', touched, created, show };
}
