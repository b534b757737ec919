// Finds and validates the config: `--config PATH` (strict) or cosmiconfig's search for `aish`
// upward from the cwd to HOME, then $XDG_CONFIG_HOME/aish/. No file at all is fine: the built-in
// presets apply. Every problem becomes a ConfigError listing them all.

import { access } from 'node:fs/promises';
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
  const explorer = cosmiconfig('aish', {
    searchPlaces: CONFIG_SEARCH_PLACES,
    searchStrategy: 'global',
    stopDir: opts.stopDir,
    cache: false,
    loaders: { '.ts': loadTs, '.mts': loadTs, '.cts': loadTs },
  });

  let found: { config: unknown; filepath: string; isEmpty?: boolean } | null;
  if (opts.configPath !== undefined) {
    const file = path.resolve(opts.cwd, opts.configPath);
    try {
      await access(file);
    } catch {
      throw new ConfigError(file, [{ path: '', message: 'file not found (given with --config)' }]);
    }
    found = await readOrThrow(file, () => explorer.load(file));
  } else {
    found = await readOrThrow(undefined, () => explorer.search(opts.cwd));
  }

  const file = found?.filepath;
  const data = found && !found.isEmpty ? found.config : {};
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) {
    throw new ConfigError(file, [{ path: '', message: 'expected an object at the top level' }]);
  }
  const result = resolveConfig(data, defaultModels(opts.env));
  if (!result.ok) throw new ConfigError(file, result.issues);
  return { config: result.config, file };
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
