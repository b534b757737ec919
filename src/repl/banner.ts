// The start-up line on a terminal, drawn by the front (front.ts) or by the REPL itself.

import type { ModelConfig } from '../config/schema.js';

export function bannerText(version: string, model: string, preset: ModelConfig, configFile: string | undefined): string {
  const from = configFile ? `config ${configFile}` : 'no config file';
  return `aish ${version}: ${model} = ${preset.model} at ${preset.endpoint} (${from}); :help for commands`;
}
