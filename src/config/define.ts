// The public entry for config files: `import { defineConfig } from 'aish'` gives a typed config.

import type { UserConfig } from './schema.js';

export type { UserConfig } from './schema.js';

/** Returns its argument unchanged; it exists so an editor can check `aish.config.ts`. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}
