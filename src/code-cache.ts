// Loading aish's own CommonJS bundles (dist/start.js, dist/program.js, dist/vendor.js,
// dist/secret-rules.js) with V8's code cache. Node 20 has no compile cache of its own (Node 22's
// module.enableCompileCache); a bundle required the usual way is parsed and compiled at every
// start, about 12 ms of every run for the program (docs/performance.md). So each bundle is
// compiled here as Node's CommonJS loader would compile it (the same wrapper), with the bytes V8
// serialized for it.
//
// The cache sits beside the bundle: `<bundle>.<key>.cache`, `key` naming what V8 checks it
// against (Node's version and the V8 flags given on the command line or in NODE_OPTIONS); the
// build writes the one for a plain `node` (scripts/build.mjs). A run with other flags, or a Node
// that is not the one that built aish, finds none, or one V8 rejects: the bundle is compiled as
// usual and its cache written for next time, if the folder can be written (never required).
// V8 checks a cache against the source's length only, so a cache is only ever written beside
// the bundle it was made from, and the build deletes dist/ first.

import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** The wrapper Node's CommonJS loader puts around a file; the cache is made of the wrapped text. */
function wrap(source: string): string {
  // A `#!` line is valid only at the very start of a script.
  const body = source.startsWith('#!') ? `//${source.slice(2)}` : source;
  return `(function (exports, require, module, __filename, __dirname) { ${body}\n});`;
}

/**
 * What V8 checks a cache against besides the source: its own version and the flags. Node's
 * version names the first; the flags are whatever the command line and NODE_OPTIONS gave.
 */
export function cacheKey(version: string, execArgv: readonly string[], nodeOptions: string | undefined): string {
  const text = `${version} ${execArgv.join(' ')} ${nodeOptions ?? ''}`;
  // FNV-1a: a short, stable name; a collision only costs a rejected cache.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${version}-${hash.toString(36)}`;
}

/** The cache file for `file` under this process's Node and flags. */
export function cachePath(file: string, key = cacheKey(process.version, process.execArgv, process.env.NODE_OPTIONS)): string {
  return `${file}.${key}.cache`;
}

function compile(file: string, cachedData: Buffer | undefined): vm.Script {
  // No import() may run in a bundle: a vm.Script has no module loader (on Node 20, not even with
  // vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER once its code comes from a cache). esbuild turns
  // each import() into a require, and the build checks none is left; a package the bundle
  // requires is Node's to load, import() and all.
  return new vm.Script(wrap(readFileSync(file, 'utf8')), { filename: file, ...(cachedData ? { cachedData } : {}) });
}

/**
 * Writes a cache to `to` through a temporary file, so a reader never sees half of one. Returns
 * false when it could not be written (a folder aish may not write to: the cache is then made
 * again by each run that misses it, and never used).
 */
function writeCache(to: string, data: () => Buffer): boolean {
  const temp = `${to}.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(temp, 'wx');
  } catch {
    return false;
  }
  try {
    try {
      writeSync(fd, data());
    } finally {
      closeSync(fd);
    }
    renameSync(temp, to);
    return true;
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // Never written.
    }
    return false;
  }
}

/**
 * For the build: the cache of `file`, written to `to`. With `warm`, the bundle is run and `warm`
 * is given its exports first, so the cache holds the code `warm` ran too (V8 compiles a function
 * when it first runs; a cache made right after compiling holds little more than the top level).
 */
export async function buildCodeCache(file: string, to: string, warm?: (exports: unknown) => unknown): Promise<void> {
  const script = compile(file, undefined);
  if (warm) await warm(evaluate(script, file).exports);
  if (!writeCache(to, () => script.createCachedData())) throw new Error(`cannot write ${to}`);
}

/**
 * Requires one of aish's bundles (an absolute path) with its code cache, as Node's `require`
 * would require it otherwise: its `module.exports`. A bundle is evaluated once per process.
 */
export function requireBundle(file: string): unknown {
  const cached = loaded.get(file);
  if (cached) return cached.exports;
  if (useNodeCompileCache(path.dirname(file))) {
    const module = { exports: createRequire(file)(file) as unknown, filename: file, id: file, loaded: true };
    loaded.set(file, module);
    return module.exports;
  }
  const where = cachePath(file);
  let data: Buffer | undefined;
  try {
    data = readFileSync(where);
  } catch {
    data = undefined;
  }
  const script = compile(file, data);
  // Missing or rejected (another Node, other flags, a broken file): made now, for the next run.
  if (data === undefined || script.cachedDataRejected) writeCache(where, () => script.createCachedData());
  const module = evaluate(script, file);
  loaded.set(file, module);
  return module.exports;
}

interface BundleModule {
  exports: unknown;
  filename: string;
  id: string;
  loaded: boolean;
}

/** Runs a compiled bundle as Node runs a CommonJS module: its own require, module and paths. */
function evaluate(script: vm.Script, file: string): BundleModule {
  const module: BundleModule = { exports: {}, filename: file, id: file, loaded: false };
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: BundleModule, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  return module;
}

/**
 * Node 22 and later have a compile cache of their own (`module.enableCompileCache`).
 * `AISH_COMPILE_CACHE=node` loads the bundles with it instead of the cache above, so that
 * `npm run bench -- startup` can compare the two on each Node (docs/performance.md "On each Node");
 * unset, or on a Node without it, aish's own cache is used.
 */
function useNodeCompileCache(dir: string): boolean {
  if (process.env.AISH_COMPILE_CACHE !== 'node') return false;
  const { enableCompileCache } = nodeModule as { enableCompileCache?: (dir: string) => unknown };
  if (!enableCompileCache) return false;
  enableCompileCache(path.join(dir, '.node-compile-cache'));
  return true;
}

// Module-level on purpose: it is the process's module cache for the bundles (as require.cache is
// for files): a bundle evaluated twice would hold two copies of its modules' state.
const loaded = new Map<string, BundleModule>();
