// The file tools of the built-ins: a capped read of a text file and a directory listing, both
// confined to the current directory. Paths are resolved through symlinks before the check, so a
// link cannot lead outside; a failure is an error outcome naming the path, never a rejection.

import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ToolOutcome } from '../tool-call.js';

const MAX_ENTRIES = 500;

/** The real path of `requested` under `cwd`, or why it may not be used. */
async function confined(cwd: string, requested: string): Promise<{ path: string } | { error: string }> {
  let root: string;
  let target: string;
  try {
    root = await realpath(cwd);
    target = await realpath(path.resolve(root, requested));
  } catch (err) {
    return { error: `${requested}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : errorText(err)}` };
  }
  const rel = path.relative(root, target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return { error: `${requested} is outside the current directory` };
  return { path: target };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function failed(tool: string, message: string): ToolOutcome {
  return { status: 'error', content: `[aish] ${tool}: ${message}`, display: message };
}

/** At most `maxChars` characters of a text file under `cwd`; binary files are refused. */
export async function readFileCapped(cwd: string, requested: string, maxChars: number, signal: AbortSignal): Promise<ToolOutcome> {
  const where = await confined(cwd, requested);
  if ('error' in where) return failed('aish__read_file', where.error);
  const info = await stat(where.path);
  if (!info.isFile()) return failed('aish__read_file', `${requested} is not a file${info.isDirectory() ? ' (aish__list_dir lists folders)' : ''}`);
  signal.throwIfAborted();
  // Up to four bytes a character: enough bytes for maxChars characters, never the whole of a big file.
  const handle = await open(where.path, 'r');
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(Math.min(info.size, maxChars * 4));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    bytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (bytes.includes(0)) return failed('aish__read_file', `${requested} looks binary (${info.size} bytes); not read`);
  const text = bytes.toString('utf8');
  if (text.length <= maxChars && bytes.length === info.size) return { status: 'ok', content: text, display: `${requested}: ${info.size} bytes` };
  return {
    status: 'ok',
    content: `${text.slice(0, maxChars)}\n[aish] cut: the first ${maxChars} characters of ${info.size} bytes`,
    display: `${requested}: first ${maxChars} characters of ${info.size} bytes`,
  };
}

/** The entries of a directory under `cwd`, sorted, folders ending in `/`. */
export async function listDir(cwd: string, requested: string): Promise<ToolOutcome> {
  const where = await confined(cwd, requested);
  if ('error' in where) return failed('aish__list_dir', where.error);
  let entries;
  try {
    entries = await readdir(where.path, { withFileTypes: true });
  } catch (err) {
    return failed('aish__list_dir', `${requested}: ${(err as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'not a directory' : errorText(err)}`);
  }
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  const shown = names.slice(0, MAX_ENTRIES);
  const more = names.length - shown.length;
  const content = [...shown, ...(more > 0 ? [`[aish] ${more} more entries not listed`] : [])].join('\n');
  return { status: 'ok', content: content || '(empty)', display: `${requested}: ${names.length} entries` };
}
