// The directories offered to an MCP server as its roots (docs/mcp.md "Roots"): a `roots` setting
// made into file URIs. The home folder, a folder above it and / are never offered (issue 32:
// server-filesystem takes the roots as the only directories it may read and write). Pure: the
// current directory, the home folder and how a path resolves (symlinks) are given.

import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Root } from '@modelcontextprotocol/sdk/types.js';

/** Where the roots are worked out from. */
export interface RootsPlace {
  /** The shell's current directory. */
  cwd: string;
  home: string | undefined;
  /** The path with its symlinks resolved; the path itself when it cannot be resolved. */
  realpath: (dir: string) => string;
}

/** What is offered, and what was left out for being too wide (as resolved, before symlinks). */
export interface OfferedRoots {
  roots: Root[];
  withheld: string[];
}

/**
 * The roots of a setting that offers some: "cwd" is the current directory; a list is taken as
 * given, `~` being the home folder and a relative path taken from the current directory. Repeats
 * are offered once; the home folder, the folders above it and / are withheld.
 */
export function offeredRoots(setting: 'cwd' | readonly string[], place: RootsPlace): OfferedRoots {
  const entries = setting === 'cwd' ? ['.'] : setting;
  const dirs = [...new Set(entries.map((entry) => resolveEntry(entry, place)))];
  const roots: Root[] = [];
  const withheld: string[] = [];
  for (const dir of dirs) {
    if (tooWide(dir, place)) withheld.push(dir);
    else roots.push({ uri: pathToFileURL(dir).href, name: path.basename(dir) || dir });
  }
  return { roots, withheld };
}

function resolveEntry(entry: string, place: RootsPlace): string {
  if (entry === '~' || entry.startsWith('~/')) return path.join(place.home ?? '/', entry.slice(1));
  return path.resolve(place.cwd, entry);
}

/** Whether `dir` is /, the home folder or a folder above it, as written or with symlinks resolved. */
export function tooWide(dir: string, place: Pick<RootsPlace, 'home' | 'realpath'>): boolean {
  const dirs = [dir, place.realpath(dir)];
  if (dirs.some((d) => d === path.parse(d).root)) return true;
  if (place.home === undefined) return false;
  const homes = [path.resolve(place.home), place.realpath(path.resolve(place.home))];
  return dirs.some((d) => homes.some((home) => containsOrIs(d, home)));
}

function containsOrIs(dir: string, inner: string): boolean {
  const rel = path.relative(dir, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
