import { expect, it } from 'vitest';
import { BackgroundLines } from '../../src/repl/background-lines.js';

it('shows lines at once, holds them at the prompt and shows them, capped, when the line is entered', () => {
  const shown: string[] = [];
  const lines = new BackgroundLines((l) => shown.push(l), 2);
  lines.push('a');
  lines.atPrompt(true);
  lines.push('b');
  lines.push('c');
  lines.push('d');
  lines.push('e');
  expect(shown).toEqual(['a']);
  lines.atPrompt(false);
  expect(shown).toEqual(['a', 'b', 'c', '2 more background messages not shown']);
  lines.push('f');
  expect(shown.at(-1)).toBe('f');
});
