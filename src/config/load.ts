// Finds and validates the config: `--config PATH` (strict) or cosmiconfig's search for `aish`
// upward from the cwd to HOME, then $XDG_CONFIG_HOME/aish/. No file at all is fine: the built-in
// presets apply. Every problem becomes a ConfigError listing them all.
//
// cosmiconfig and what it brings (js-yaml, a JSON error formatter, node:crypto) cost about 20 ms
// of every start (docs/performance.md). So the search is first made here, the way cosmiconfig
// makes it; when it ends in a JSON file that parses, or in no file, cosmiconfig is not loaded (nor
// for a `--config` file that is such JSON). Anything else (YAML, JS, TS, a parse error, an
// unreadable file, cosmiconfig's own meta config) runs cosmiconfig's search from the start, so
// results and error texts are cosmiconfig's. `loadQuickConfig` is the first half alone: the
// start-up file (front.ts) uses it, and leaves the rest to the program.

import { accessSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, errorMessage } from '../errors.js';
import { defaultModels } from './default-models.js';
import { resolveConfig, type Config } from './schema.js';

export const CONFIG_SEARCH_PLACES = [
  'aish.config.ts',
  'aish.config.mts',
  'aish.config.mjs',
  'aish.config.js',
  'aish.config.json',
  '.aishrc',
  '.aishrc.json',
  '.aishrc.yaml',
  '.aishrc.yml',
];

export interface LoadConfigOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** `--config PATH`: must exist. */
  configPath?: string | undefined;
  /** Where the search stops going upward (HOME). */
  stopDir: string;
  /** Module that `import ... from 'aish'` resolves to inside a TypeScript config. */
  definePath?: string | undefined;
}

export interface LoadedConfig {
  config: Config;
  /** The file it came from; undefined when none was found. */
  file: string | undefined;
}

/** Loads the config. Throws ConfigError (listing every problem) when it cannot be used. */
export async function loadConfig(opts: LoadConfigOptions): Promise<LoadedConfig> {
  const quick = await quickFind(opts);
  return resolveFound(quick === 'cosmiconfig' ? await cosmiconfigFind(opts) : quick, opts.env);
}

/**
 * The config when it is a JSON file or there is none, the cases that need no cosmiconfig (the
 * start-up file has none); undefined when anything else must decide. Throws ConfigError as
 * `loadConfig` does.
 */
export async function loadQuickConfig(opts: LoadConfigOptions): Promise<LoadedConfig | undefined> {
  const quick = await quickFind(opts);
  return quick === 'cosmiconfig' ? undefined : resolveFound(quick, opts.env);
}

type Found = { config: unknown; filepath: string; isEmpty?: boolean } | null;

function resolveFound(found: Found, env: Record<string, string | undefined>): LoadedConfig {
  const file = found?.filepath;
  const data = found && !found.isEmpty ? found.config : {};
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) {
    throw new ConfigError(file, [{ path: '', message: 'expected an object at the top level' }]);
  }
  const result = resolveConfig(data, defaultModels(env));
  if (!result.ok) throw new ConfigError(file, result.issues);
  return { config: result.config, file };
}

/** What cosmiconfig finds: the file given with --config (which must exist), or its search's result. */
async function cosmiconfigFind(opts: LoadConfigOptions): Promise<Found> {
  const explorer = await cosmiconfigExplorer(opts);
  if (opts.configPath === undefined) return readOrThrow(undefined, () => explorer.search(opts.cwd));
  const file = path.resolve(opts.cwd, opts.configPath);
  try {
    accessSync(file);
  } catch {
    throw new ConfigError(file, [{ path: '', message: 'file not found (given with --config)' }]);
  }
  return readOrThrow(file, () => explorer.load(file));
}

/** The file given with --config when it is JSON, else the search made without cosmiconfig. */
async function quickFind(opts: LoadConfigOptions): Promise<Found | 'cosmiconfig'> {
  if (opts.configPath === undefined) return quickSearch(opts.cwd, opts.stopDir, opts.env);
  const file = path.resolve(opts.cwd, opts.configPath);
  if (path.extname(file) !== '.json') return 'cosmiconfig';
  const read = readPlace(file);
  return typeof read === 'string' ? parseQuick(file, read) : 'cosmiconfig';
}

/** cosmiconfig's explorer for `aish`, set up as the docs describe (loaded only when needed). */
async function cosmiconfigExplorer(opts: LoadConfigOptions) {
  const cosmiconfigModule = await import('cosmiconfig');
  // A CommonJS package: bundled, its exports may sit on `default`.
  const cosmiconfig = cosmiconfigModule.cosmiconfig ?? (cosmiconfigModule as unknown as { default: typeof cosmiconfigModule }).default.cosmiconfig;
  const loadTs = async (filepath: string) => {
    const { createJiti } = await import('jiti');
    const jiti = createJiti(filepath, {
      alias: opts.definePath ? { aish: opts.definePath } : {},
      moduleCache: false,
      fsCache: false,
    });
    return jiti.import(filepath, { default: true });
  };
  return cosmiconfig('aish', {
    searchPlaces: CONFIG_SEARCH_PLACES,
    searchStrategy: 'global',
    stopDir: opts.stopDir,
    cache: false,
    loaders: { '.ts': loadTs, '.mts': loadTs, '.cts': loadTs },
  });
}

async function readOrThrow<T>(file: string | undefined, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const where = (err as { filepath?: string }).filepath ?? file;
    const first = errorMessage(err).split('\n').filter(Boolean).slice(0, 3).join(' ');
    throw new ConfigError(where, [{ path: '', message: `cannot be read: ${first}` }]);
  }
}

/** What cosmiconfig's `globalConfigSearchPlaces` are, in its order. */
const GLOBAL_SEARCH_PLACES = ['config', 'config.json', 'config.yaml', 'config.yml', 'config.js', 'config.ts', 'config.cjs', 'config.mjs'];
/** cosmiconfig's meta config files, looked for in the process's cwd when an explorer is made. */
const META_SEARCH_PLACES = ['package.json', 'package.yaml', '.config/config.json', '.config/config.yaml', '.config/config.yml', '.config/config.js', '.config/config.ts', '.config/config.cjs', '.config/config.mjs'];
/** Read errors that make cosmiconfig go on to the next place. */
const SKIPPED = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES']);

/**
 * cosmiconfig's search (`searchStrategy: 'global'`), made without it: each search place of `cwd`
 * and each parent up to `stopDir`, then of the global config dir; blank files are passed over.
 * The result when it ends in a JSON file that parses to something other than null, with no
 * `$import` (or in no file at all); 'cosmiconfig' when anything else must decide. cosmiconfig
 * reads the process's cwd (its meta config) and environment (the global dir): main.ts passes
 * both, as `cwd` and `env`.
 */
export async function quickSearch(cwd: string, stopDir: string, env: Record<string, string | undefined>): Promise<{ config: unknown; filepath: string } | null | 'cosmiconfig'> {
  const places = new PlaceReader();
  // A meta config (package.json, .config/config.*) can change the search, or be the config.
  for (const place of META_SEARCH_PLACES) {
    if (places.read(cwd, place) !== 'skip') return 'cosmiconfig';
  }
  for (const { dir, places: names } of searchDirs(path.resolve(cwd), path.resolve(stopDir), env)) {
    for (const place of names) {
      const read = places.read(dir, place);
      if (read === 'skip') continue;
      if (read === 'other') return 'cosmiconfig';
      if (read.trim() === '') continue;
      return parseQuick(path.join(dir, place), read);
    }
  }
  return null;
}

/**
 * Reads search places, listing each directory once first: most places do not exist, and a read
 * that fails costs an exception (the search used to take about a millisecond of every start). A
 * place whose name the listing lacks (compared without case, for case-insensitive file systems)
 * is skipped, as its read would fail with ENOENT; where a directory cannot be listed, every place
 * in it is read.
 */
class PlaceReader {
  readonly #listings = new Map<string, Set<string> | null>();

  read(dir: string, place: string): string | 'skip' | 'other' {
    const [first = place] = place.split('/');
    const names = this.#listing(dir);
    if (names && !names.has(first.toLowerCase())) return 'skip';
    return readPlace(path.join(dir, place));
  }

  #listing(dir: string): Set<string> | null {
    let names = this.#listings.get(dir);
    if (names === undefined) {
      try {
        names = new Set(readdirSync(dir).map((name) => name.toLowerCase()));
      } catch (err) {
        // A directory that is not there holds none of the places; anything else is left to the reads.
        const code = (err as NodeJS.ErrnoException).code;
        names = code === 'ENOENT' || code === 'ENOTDIR' ? new Set() : null;
      }
      this.#listings.set(dir, names);
    }
    return names;
  }
}

/** A found file's config when it is JSON that parses to something other than null, with no `$import`. */
function parseQuick(filepath: string, text: string): { config: unknown; filepath: string } | 'cosmiconfig' {
  if (path.extname(filepath) !== '.json' || text.trim() === '') return 'cosmiconfig';
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    return 'cosmiconfig';
  }
  if (config === null || (typeof config === 'object' && Object.hasOwn(config, '$import'))) return 'cosmiconfig';
  return { config, filepath };
}

/** The directories cosmiconfig searches, in order, with their search places. */
function* searchDirs(start: string, stopDir: string, env: Record<string, string | undefined>): Generator<{ dir: string; places: readonly string[] }> {
  yield { dir: start, places: CONFIG_SEARCH_PLACES };
  for (let dir = start; dir !== stopDir; ) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    yield { dir: parent, places: CONFIG_SEARCH_PLACES };
    dir = parent;
  }
  yield { dir: globalConfigDir(env), places: GLOBAL_SEARCH_PLACES };
}

/** env-paths' config dir for `aish` (no suffix), as cosmiconfig computes it. */
function globalConfigDir(env: Record<string, string | undefined>): string {
  const home = os.homedir();
  if (os.platform() === 'darwin') return path.join(home, 'Library', 'Preferences', 'aish');
  if (os.platform() === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'aish', 'Config');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'aish');
}

/**
 * A file's text; 'skip' where cosmiconfig goes on to the next place; 'other' for any other failure.
 * Read synchronously: at start-up there is nothing else to do meanwhile, and node:fs/promises alone
 * costs a start a few milliseconds (it loads readline and streams).
 */
function readPlace(filepath: string): string | 'skip' | 'other' {
  try {
    return readFileSync(filepath, 'utf8');
  } catch (err) {
    return SKIPPED.has((err as NodeJS.ErrnoException).code ?? '') ? 'skip' : 'other';
  }
}
