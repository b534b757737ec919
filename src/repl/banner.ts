// The start-up line on a terminal, drawn by the front (front.ts) or by the REPL itself.

import type { ModelConfig } from '../config/schema.js';

export function bannerText(version: string, model: string, preset: ModelConfig, configFile: string | undefined): string {
  const from = configFile ? `config ${configFile}` : 'no config file';
  return `aish ${version}: ${model} = ${preset.model} at ${withoutCredentials(preset.endpoint)} (${from}); :help for commands`;
}

/** An endpoint URL as the banner shows it: where requests go, without a `user:password@`. */
function withoutCredentials(endpoint: string): string {
  if (!endpoint.includes('@')) return endpoint;
  try {
    const url = new URL(endpoint);
    if (!url.username && !url.password) return endpoint;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return endpoint;
  }
}
