import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { classify } from '../src/line-router.js';
import { DEFAULT_KNOWN_COMMANDS } from '../src/config/defaults.js';
import { corpusExists, corpusIsDirectory, corpusKindOf } from './support/routing-corpus.js';
const config = { shell: { known_commands: DEFAULT_KNOWN_COMMANDS } };
const zsh = { shell: 'zsh', autoCd: true, isDirectory: corpusIsDirectory, exists: corpusExists };
it('adv', () => {
  const file = process.env.ADV!;
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const a = classify(line, config, corpusKindOf, zsh), b = classify(line, config);
    if (a.kind !== process.env.WANT || b.kind !== process.env.WANT) console.log(`${a.kind}/${b.kind} ${a.rule} ${JSON.stringify(line)} ${'reason' in a ? a.reason : ''}`);
  }
});
