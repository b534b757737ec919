// The routing corpus: a few hundred command lines that must reach the shell and requests that
// must reach the model, routed as a zsh session would (test/support/routing-corpus.ts). Prints
// the share routed right; docs/routing.md ("How well it routes") reports these figures.

import { describe, expect, it } from 'vitest';
import { classify } from '../src/line-router.js';
import { DEFAULT_KNOWN_COMMANDS } from '../src/config/defaults.js';
import { corpusKindOf, corpusLines } from './support/routing-corpus.js';

const config = { shell: { known_commands: DEFAULT_KNOWN_COMMANDS } };

describe.each([
  ['commands.txt', 'shell'],
  ['requests.txt', 'ai'],
] as const)('%s', (file, want) => {
  const lines = corpusLines(file);
  it.each([
    ['the session shell answering', corpusKindOf],
    ['the known list only', undefined],
  ] as const)('routes to %s with %s', (_label, kindOf) => {
    const wrong = lines.filter((l) => {
      const route = classify(l, config, kindOf);
      return route.kind !== want || (want === 'shell' && route.payload !== l.trim());
    });
    const share = (100 * (lines.length - wrong.length)) / lines.length;
    console.log(`${file} → ${want} (${_label}): ${lines.length - wrong.length}/${lines.length} = ${share.toFixed(1)}%\n  ${wrong.join('\n  ')}`);
  });
});
