// The routing corpus: a few hundred command lines that must reach the shell and requests that
// must reach the model, routed as a zsh session with AUTO_CD would (test/support/routing-corpus.ts).
// Every line is asserted; the few left misrouted on purpose are listed with the reason in
// docs/routing.md ("How well it routes"), which also reports the shares printed here.

import { describe, expect, it } from 'vitest';
import { classify, routeSign, type KindOf, type RouteContext } from '../src/line-router.js';
import { DEFAULT_KNOWN_COMMANDS } from '../src/config/defaults.js';
import { corpusExists, corpusIsDirectory, corpusKindOf, corpusLines } from './support/routing-corpus.js';

const config = { shell: { known_commands: DEFAULT_KNOWN_COMMANDS } };
const zsh = { shell: 'zsh', autoCd: true, isDirectory: corpusIsDirectory, exists: corpusExists };

/** Lines routed the wrong way and left so (docs/routing.md says why). */
const LEFT_ALONE: Record<string, readonly string[]> = {
  'commands.txt': [],
  'requests.txt': ['say hello in five languages', 'more'],
  'commands-heldout.txt': ['shopt -s globstar'],
  'requests-heldout.txt': ['help', 'rename all the .jpeg files to .jpg', 'say that again', 'nice', 'convert ~/notes.md to pdf'],
};

/** The least share (per cent) routed right with the session shell answering. */
const FLOOR: Record<string, number> = { 'commands.txt': 99, 'requests.txt': 97, 'commands-heldout.txt': 99, 'requests-heldout.txt': 96 };

const routedRight = (line: string, want: 'shell' | 'ai', kindOf?: KindOf, context: RouteContext = kindOf ? zsh : {}) => {
  const route = classify(line, config, kindOf, context);
  return route.kind === want && (want === 'ai' || route.payload === line.trim());
};

describe.each([
  ['commands.txt', 'shell'],
  ['requests.txt', 'ai'],
  ['commands-heldout.txt', 'shell'],
  ['requests-heldout.txt', 'ai'],
] as const)('%s', (file, want) => {
  const lines = corpusLines(file);
  const leftAlone = new Set(LEFT_ALONE[file]);

  it.each(lines)(`%j → ${want}`, (line) => {
    expect(routedRight(line, want, corpusKindOf)).toBe(!leftAlone.has(line));
  });

  it(`routes at least ${FLOOR[file]}% of it to ${want} with the session shell answering`, () => {
    const right = lines.filter((l) => routedRight(l, want, corpusKindOf)).length;
    const share = (100 * right) / lines.length;
    console.log(`${file} → ${want}, session shell: ${right}/${lines.length} = ${share.toFixed(1)}%`);
    expect(share).toBeGreaterThanOrEqual(FLOOR[file]!);
  });

  it(`routes at least ${FLOOR[file]}% of it to ${want} with the shell answering but no context (no AUTO_CD, no files), as the REPL routes today`, () => {
    const right = lines.filter((l) => routedRight(l, want, corpusKindOf, {})).length;
    const share = (100 * right) / lines.length;
    console.log(`${file} → ${want}, session shell without context: ${right}/${lines.length} = ${share.toFixed(1)}%`);
    expect(share).toBeGreaterThanOrEqual(FLOOR[file]!);
  });

  it('reports the share with the known list only (the shell still starting, or no session)', () => {
    const wrong = lines.filter((l) => !routedRight(l, want));
    const right = lines.length - wrong.length;
    console.log(`${file} → ${want}, known list only: ${right}/${lines.length} = ${((100 * right) / lines.length).toFixed(1)}%`);
  });
});

it('routeSign is cheap enough for every keystroke', () => {
  const lines = [...corpusLines('commands.txt'), ...corpusLines('requests.txt')];
  const started = performance.now();
  for (let i = 0; i < 10; i++) for (const line of lines) routeSign(line, config, corpusKindOf, zsh);
  const perLine = ((performance.now() - started) * 1000) / (10 * lines.length);
  console.log(`routeSign: ${perLine.toFixed(1)} µs a line`);
  expect(perLine).toBeLessThan(200);
});
