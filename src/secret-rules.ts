// The rules that find secrets by shape (secretlint's recommended preset, src/safety/secret-shapes.ts),
// loaded when first needed, never at start-up: the built program requires dist/secret-rules.js
// (the preset bundled by scripts/build.mjs) with its code cache; tests and src/ require the package.

import type { SecretLintRuleCreator } from '@secretlint/types';
import { createRequire } from 'node:module';
import path from 'node:path';
import { requireBundle } from './code-cache.js';
import { createShapeScan, type ShapeScan } from './safety/secret-shapes.js';

declare const AISH_VERSION: string;

interface Preset {
  rules: readonly SecretLintRuleCreator[];
}

/** The preset's rules. Throws only when aish is installed without them (a broken install). */
export function loadSecretRules(): readonly SecretLintRuleCreator[] {
  // AISH_VERSION is defined in the built bundles only; vitest gives src/ a __filename too.
  const preset =
    typeof AISH_VERSION === 'string'
      ? (requireBundle(path.join(__dirname, 'secret-rules.js')) as Preset)
      : (createRequire(__filename)('@secretlint/secretlint-rule-preset-recommend') as Preset);
  return preset.rules;
}

/** The scan for secrets by shape that every redactor uses; the rules load on its first long text. */
export function secretShapeScan(): ShapeScan {
  return createShapeScan(loadSecretRules);
}
