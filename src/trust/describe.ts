// What the question `trust <path>?` shows before it is asked: the file, whether it changed since
// it was trusted, and what it would change, read from its data without running anything. A
// TypeScript or JavaScript config cannot be summed up without running it, and says so.

import type { ConfigFile } from '../config/load.js';
import { readConfigData } from '../config/load.js';
import type { TrustEntry } from '../config/trust-store.js';
import { configEffects } from '../config/trust-summary.js';
import { errorMessage } from '../errors.js';

/** Lines for the person (to be sanitized where they are shown), about project config `file`. */
export async function describeProjectConfig(file: ConfigFile, previous?: TrustEntry): Promise<string> {
  const lines = [
    previous
      ? `project config ${file.path} changed since you trusted it (${previous.trustedAt}).`
      : `project config ${file.path} is not trusted yet.`,
    'If you trust it, it takes the place of your own config whenever aish starts here. It would:',
  ];
  if (file.kind === 'code') {
    lines.push(
      '  run    its code (TypeScript or JavaScript) the moment aish loads it: what it would change',
      '         cannot be told without running it. It may import only aish and Node\'s built-in modules.',
      '         Answer v to read it first.',
    );
    return lines.join('\n');
  }
  let data: unknown;
  try {
    data = await readConfigData(file);
  } catch (err) {
    lines.push(`  fail   to load: ${errorMessage(err)}`);
    return lines.join('\n');
  }
  const effects = configEffects(data);
  if (effects.length === 0) lines.push('  set    nothing (the file is empty)');
  for (const { kind, text } of effects) lines.push(`  ${kind.replace(/s$/, '').padEnd(6)} ${text}`);
  return lines.join('\n');
}
