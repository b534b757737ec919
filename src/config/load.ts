// Finds and validates the config: `--config PATH` (strict), or the first file found from the cwd
// upward to HOME, then in $XDG_CONFIG_HOME/aish/ (cosmiconfig's search for `aish`, made here).
// No file at all is fine: the built-in presets apply. Every problem becomes a ConfigError listing
// them all.
//
// A file found on the way up that is not the person's own (`--config`, the XDG dir, a dot file
// directly in HOME) is a project config: a directory anyone could have planted. It is read, never
// run, until `trust` says to use it (docs/security.md "Project trust"), which decides from its bytes;
// a TypeScript or JavaScript config is then evaluated from those same bytes. An ignored one is
// passed over and the search goes on up, to the person's own config.
//
// A candidate is read only when it is a regular file of at most 1 MiB (small-file.ts): a FIFO, a
// link to /dev/zero, a file of gigabytes would wedge the start. A project's is also read only when
// it is in its project: a link must not lead out of the directory it was found in. A project
// config that is not is refused (passed over, with a reason); the person's own is an error. So is
// a project's code config that imports anything but aish and the built-ins (config-imports.ts):
// what it imports is not covered by the hash of its bytes.
//
// Only the loaders come from cosmiconfig (YAML) and jiti (TS/JS), imported when a file needs them:
// cosmiconfig's search would read and run a meta config of the cwd (`.config/config.js`,
// `package.json`'s "cosmiconfig"), which a directory can plant, and loading it costs every start
// about 20 ms (docs/performance.md). `loadQuickConfig` is the JSON-only half the start-up file
// (front.ts) uses.

import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, errorMessage } from '../errors.js';
import { isRefused, readSmallRegularFile, type Refused } from '../small-file.js';
import { ImportRefused, importGuard, refusedImport } from './config-imports.js';
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

/** The most a config file may hold: a config is a page of settings, and a read must end. */
export const CONFIG_MAX_BYTES = 1024 * 1024;

/** Where a config file came from: `--config`, the person's own places, or a directory on the way up. */
export type ConfigOrigin = 'given' | 'own' | 'project';

/** A config file as found: read, not loaded. Trust is decided from these bytes, and they are what loads. */
export interface ConfigFile {
  path: string;
  origin: ConfigOrigin;
  bytes: Uint8Array;
  text: string;
  /** How its data is read: JSON, YAML, or code that must run (TypeScript, JavaScript). */
  kind: 'json' | 'yaml' | 'code';
}

/** A project config found and not read, with why: a clause after its name ("it is a link to ..."). */
export interface RefusedConfig {
  path: string;
  reason: string;
}

/** What to do with a project config: use it, pass over it, or (the front) leave the decision to the program. */
export type TrustAnswer = 'use' | 'ignore' | 'defer';

export interface LoadConfigOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** `--config PATH`: must exist. */
  configPath?: string | undefined;
  /** HOME: where the search stops going upward; its own dot files are the person's. */
  stopDir: string;
  /** Module that `import ... from 'aish'` resolves to inside a TypeScript config. */
  definePath?: string | undefined;
  /** Decides each project config found, before anything of it runs; without it, every one is ignored. */
  trust?: ((file: ConfigFile) => TrustAnswer | Promise<TrustAnswer>) | undefined;
  /** Told of each project config refused (then passed over), or (the front) 'defer' to leave telling to the program. */
  refused?: ((file: RefusedConfig) => void | 'defer' | Promise<void | 'defer'>) | undefined;
}

export interface LoadedConfig {
  config: Config;
  /** The file it came from; undefined when none was found. */
  file: string | undefined;
  /** Project configs found and passed over (not trusted, or refused), nearest first. */
  ignored: string[];
}

/**
 * Loads the config. A trusted project config stopped by an import it may not make while it runs is
 * refused (`refused` is told) and the search goes on past it. Throws ConfigError (listing every
 * problem) when the config cannot be used.
 */
export async function loadConfig(opts: LoadConfigOptions): Promise<LoadedConfig> {
  const passed: string[] = [];
  for (;;) {
    const picked = await pickFile(opts, passed);
    if (picked === 'defer') throw new Error('loadConfig: the trust decision was left to nobody');
    let data: unknown;
    try {
      data = picked.file ? await readConfigData(picked.file, opts.definePath) : undefined;
    } catch (err) {
      if (!(err instanceof ImportRefused) || !picked.file) throw err;
      await opts.refused?.({ path: picked.file.path, reason: err.message });
      passed.push(...picked.ignored, picked.file.path);
      continue;
    }
    return resolveFound(picked.file?.path, data, opts.env, picked.ignored);
  }
}

/**
 * The config when it is a JSON file or there is none, the cases that need neither YAML nor code
 * loaded (the start-up file has neither); undefined when the program must decide (another kind of
 * file, or a project config `trust` defers). Throws ConfigError as `loadConfig` does.
 */
export async function loadQuickConfig(opts: LoadConfigOptions): Promise<LoadedConfig | undefined> {
  const picked = await pickFile(opts);
  if (picked === 'defer' || (picked.file && picked.file.kind !== 'json')) return undefined;
  const data = picked.file ? parseJson(picked.file) : undefined;
  return resolveFound(picked.file?.path, data, opts.env, picked.ignored);
}

/**
 * The file to load: `--config`, else the first found that is the person's own or that `trust` uses.
 * The project configs of `passed` were decided before (passed over): they are passed over unasked.
 */
async function pickFile(opts: LoadConfigOptions, passed: readonly string[] = []): Promise<{ file: ConfigFile | undefined; ignored: string[] } | 'defer'> {
  const ignored: string[] = [];
  if (opts.configPath !== undefined) return { file: readGiven(path.resolve(opts.cwd, opts.configPath)), ignored };
  for (const found of findConfigFiles(opts.cwd, opts.stopDir, opts.env)) {
    if (!('reason' in found) && found.origin !== 'project') return { file: found, ignored };
    const answer = passed.includes(found.path) ? 'ignore' : await decideProject(found, opts);
    if (answer === 'defer') return 'defer';
    if (answer === 'use' && !('reason' in found)) return { file: found, ignored };
    ignored.push(found.path);
  }
  return { file: undefined, ignored };
}

/** What becomes of a project config found: refused unread or unrun (`refused` is told), else as `trust` answers. */
async function decideProject(found: ConfigFile | RefusedConfig, opts: LoadConfigOptions): Promise<TrustAnswer> {
  const refused = 'reason' in found ? found : projectRefusal(found);
  if (refused) return (await opts.refused?.(refused)) ?? 'ignore';
  return opts.trust && !('reason' in found) ? opts.trust(found) : 'ignore';
}

function resolveFound(file: string | undefined, data: unknown, env: Record<string, string | undefined>, ignored: string[]): LoadedConfig {
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) {
    throw new ConfigError(file, [{ path: '', message: 'expected an object at the top level' }]);
  }
  const result = resolveConfig(data ?? {}, defaultModels(env));
  if (!result.ok) throw new ConfigError(file, result.issues);
  return { config: result.config, file, ignored };
}

/** The file given with --config, which must exist. */
function readGiven(file: string): ConfigFile {
  const read = readPlace(file);
  if (read === 'skip') throw new ConfigError(file, [{ path: '', message: 'file not found (given with --config)' }]);
  if (read instanceof Error || isRefused(read)) throw cannotRead(file, read);
  return configFile(file, 'given', read);
}

/** Project config `file`, read, refused whatever the answer would be (a code config's imports), or undefined. */
export function projectRefusal(file: ConfigFile): RefusedConfig | undefined {
  const reason = file.kind === 'code' ? refusedImport(file.text) : undefined;
  return reason === undefined ? undefined : { path: file.path, reason };
}

/** `file` read as a project config would be (`:trust <path>`). Throws an Error saying why it cannot be. */
export function readConfigFile(file: string): ConfigFile {
  const read = readSmallRegularFile(file, CONFIG_MAX_BYTES, path.dirname(file));
  if (isRefused(read)) throw new Error(`it ${read.refused}`);
  if (read instanceof Error) throw read;
  return configFile(file, 'project', read);
}

function configFile(file: string, origin: ConfigOrigin, bytes: Uint8Array): ConfigFile {
  return { path: file, origin, bytes, text: Buffer.from(bytes).toString('utf8'), kind: kindOf(file) };
}

const CODE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/** How a file is read, by its extension; `.aishrc` and `config` (none) are YAML, which JSON is too. */
function kindOf(file: string): ConfigFile['kind'] {
  const ext = path.extname(file);
  if (ext === '.json') return 'json';
  return CODE_EXTENSIONS.has(ext) ? 'code' : 'yaml';
}

/**
 * A file's config data, as it is written: JSON and YAML parsed, code evaluated (jiti) from the
 * bytes read, not read again; a blank file has none. A project's code may import only aish and the
 * built-ins, also while it runs: other imports throw ImportRefused. Throws ConfigError naming the
 * file.
 */
export async function readConfigData(file: ConfigFile, definePath?: string): Promise<unknown> {
  if (file.kind === 'json' || isBlank(file.bytes)) return parseJson(file);
  try {
    if (file.kind === 'yaml') {
      const { defaultLoaders } = await cosmiconfigModule();
      return await defaultLoaders['.yaml'](file.path, file.text);
    }
    const { createJiti } = await import('jiti');
    const jiti = createJiti(file.path, {
      alias: definePath ? { aish: definePath } : {},
      moduleCache: false,
      fsCache: false,
      ...(file.origin === 'project' ? { virtualModules: importGuard() } : {}),
    });
    const exports = (await jiti.evalModule(file.text, { filename: file.path, async: true, forceTranspile: true })) as { default?: unknown } | undefined;
    return isModule(exports) ? exports.default : exports;
  } catch (err) {
    if (err instanceof ImportRefused) throw err;
    throw cannotRead(file.path, err);
  }
}

/** An ES module's namespace (its data is `default`) rather than a CommonJS `module.exports`. */
function isModule(exports: unknown): exports is { default?: unknown } {
  return typeof exports === 'object' && exports !== null && 'default' in exports;
}

/** cosmiconfig, for its YAML loader only; a CommonJS package: bundled, its exports may sit on `default`. */
async function cosmiconfigModule() {
  const module = await import('cosmiconfig');
  return module.defaultLoaders ? module : (module as unknown as { default: typeof module }).default;
}

/** A JSON file's data; a blank file (given with --config) is an empty config. */
function parseJson(file: ConfigFile): unknown {
  if (isBlank(file.bytes)) return undefined;
  try {
    return JSON.parse(file.text);
  } catch (err) {
    throw cannotRead(file.path, err);
  }
}

function cannotRead(file: string, err: unknown): ConfigError {
  if (isRefused(err)) return new ConfigError(file, [{ path: '', message: `cannot be read: it ${err.refused}` }]);
  const first = errorMessage(err).split('\n').filter(Boolean).slice(0, 3).join(' ');
  return new ConfigError(file, [{ path: '', message: `cannot be read: ${first}` }]);
}

/** What cosmiconfig's `globalConfigSearchPlaces` are, in its order. */
const GLOBAL_SEARCH_PLACES = ['config', 'config.json', 'config.yaml', 'config.yml', 'config.js', 'config.ts', 'config.cjs', 'config.mjs'];
/** Read errors that make the search go on to the next place, as cosmiconfig's does. */
const SKIPPED = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES']);

/**
 * The config files of the search, in its order (cosmiconfig's, `searchStrategy: 'global'`): in
 * `cwd` and each parent up to `stopDir`, then in the global config dir, the first search place of
 * each directory that holds a file that is not blank. Each is read when the search reaches it, and
 * is the person's own or a project's (`originOf`). A project's that is not a small regular file in
 * its directory, or cannot be read, is yielded refused, with why; a file of the person's that cannot
 * be read throws ConfigError.
 */
export function* findConfigFiles(cwd: string, stopDir: string, env: Record<string, string | undefined>): Generator<ConfigFile | RefusedConfig> {
  const places = new PlaceReader();
  const where = { home: path.resolve(stopDir), globalDir: globalConfigDir(env) };
  for (const { dir, places: names } of searchDirs(path.resolve(cwd), where.home, where.globalDir)) {
    for (const place of names) {
      const file = path.join(dir, place);
      const origin = originOf(file, where);
      const read = places.read(dir, place, origin === 'project' ? dir : undefined);
      if (read === 'skip' || (read instanceof Uint8Array && isBlank(read))) continue;
      if (read instanceof Uint8Array) yield configFile(file, origin, read);
      else if (origin !== 'project') throw cannotRead(file, read);
      // A directory anyone could have made must not keep aish from starting either (a link that loops).
      else yield { path: file, reason: isRefused(read) ? `it ${read.refused}` : `it cannot be read (${errorMessage(read)})` };
      break;
    }
  }
}

/**
 * Whose a found file is: the person's own when it is in the global config dir or directly in HOME
 * (a dot file of theirs), else a project's (pure).
 */
export function originOf(file: string, where: { home: string; globalDir: string }): 'own' | 'project' {
  const inside = (dir: string) => {
    const rel = path.relative(dir, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  return inside(where.globalDir) || path.dirname(file) === where.home ? 'own' : 'project';
}

/** Only white space: cosmiconfig passes such a file over. */
function isBlank(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09);
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

  /** `within`: the directory a link must not lead out of. */
  read(dir: string, place: string, within?: string): Uint8Array | 'skip' | Refused | Error {
    const names = this.#listing(dir);
    if (names && !names.has(place.toLowerCase())) return 'skip';
    return readPlace(path.join(dir, place), within);
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

/** The directories cosmiconfig searches, in order, with their search places. */
function* searchDirs(start: string, stopDir: string, globalDir: string): Generator<{ dir: string; places: readonly string[] }> {
  yield { dir: start, places: CONFIG_SEARCH_PLACES };
  for (let dir = start; dir !== stopDir; ) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    yield { dir: parent, places: CONFIG_SEARCH_PLACES };
    dir = parent;
  }
  yield { dir: globalDir, places: GLOBAL_SEARCH_PLACES };
}

/** env-paths' config dir for `aish` (no suffix), as cosmiconfig computes it. */
function globalConfigDir(env: Record<string, string | undefined>): string {
  const home = os.homedir();
  if (os.platform() === 'darwin') return path.join(home, 'Library', 'Preferences', 'aish');
  if (os.platform() === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'aish', 'Config');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'aish');
}

/**
 * A file's bytes; 'skip' where the search goes on to the next place; why it is not read (not a
 * small regular file, or a link out of `within`); the error for any other failure. Read
 * synchronously: at start-up there is nothing else to do meanwhile, and node:fs/promises alone
 * costs a start a few milliseconds (it loads readline and streams); the read never blocks.
 */
function readPlace(filepath: string, within?: string): Uint8Array | 'skip' | Refused | Error {
  const read = readSmallRegularFile(filepath, CONFIG_MAX_BYTES, within);
  return read instanceof Error && SKIPPED.has(read.code ?? '') ? 'skip' : read;
}
