// A short unified diff of a text file a preview changed, made by the system's `diff -u` (the
// preview runs on Linux only, where diffutils or busybox provide it). Binary and large files get
// a note instead; long diffs are cut to a number of lines. Never rejects.

import { execFile } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export interface FileDiff {
  /** The changed file, as shown. */
  label: string;
  /** The diff's lines (headers included), or a note when there is none to show. */
  lines: string[];
  /** Lines left out past the cap. */
  more: number;
}

export interface DiffLimits {
  /** Most lines of one file's diff shown. */
  maxLines: number;
  /** Files larger than this get no diff. */
  maxBytes: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxLines: 40, maxBytes: 1 << 20 };

/** The diff of `before` and `after` (two readable files), labelled `a/<label>` and `b/<label>`. */
export async function textDiff(before: string, after: string, label: string, limits: DiffLimits = DEFAULT_DIFF_LIMITS): Promise<FileDiff> {
  const note = (text: string): FileDiff => ({ label, lines: [`(${text})`], more: 0 });
  try {
    if (statSync(before).size > limits.maxBytes || statSync(after).size > limits.maxBytes) return note('too large to show a diff');
    if (looksBinary(before) || looksBinary(after)) return note('binary file');
  } catch {
    return note('cannot be read');
  }
  const out = await new Promise<string | null>((resolve) => {
    execFile('diff', ['-u', '--label', `a/${label}`, '--label', `b/${label}`, before, after], { encoding: 'utf8', maxBuffer: 4 * limits.maxBytes, timeout: 5000 }, (err, stdout) => {
      // 1: the files differ; 0 only when they do not (then the change is the mode alone).
      const code = (err as { code?: unknown } | null)?.code;
      resolve(err === null || code === 1 ? stdout : null);
    });
  });
  if (out === null) return note('no diff: the diff program failed or is not installed');
  const lines = out.replace(/\n$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return note('same content');
  return { label, lines: lines.slice(0, limits.maxLines), more: Math.max(0, lines.length - limits.maxLines) };
}

/** A NUL byte in the first 8 KB, as git and diff decide. */
function looksBinary(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).includes(0);
  } finally {
    closeSync(fd);
  }
}
