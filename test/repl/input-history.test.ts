import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendInputHistory, loadInputHistory, mergeHistories } from '../../src/repl/input-history.js';
import { tempDir } from '../support/temp-dir.js';

it('appends from several sessions, de-duplicates newest-first and caps', async () => {
  const file = path.join(tempDir('aish-hist-'), 'state', 'input_history');
  await appendInputHistory(file, 'ls', 3);
  await appendInputHistory(file, 'git status', 3); // another session
  await appendInputHistory(file, 'ls', 3);
  await appendInputHistory(file, 'make', 3);
  await appendInputHistory(file, 'npm test', 3);
  expect(await loadInputHistory(file, 3)).toEqual(['npm test', 'make', 'ls']);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
});

it('rewrites the file compactly past twice the cap', async () => {
  const file = path.join(tempDir('aish-hist-'), 'input_history');
  for (let i = 0; i < 25; i++) await appendInputHistory(file, `cmd ${i}`, 5);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  expect(lines.length).toBeLessThanOrEqual(10);
  expect(lines.at(-1)).toBe('cmd 24');
  expect(await loadInputHistory(file, 5)).toEqual(['cmd 24', 'cmd 23', 'cmd 22', 'cmd 21', 'cmd 20']);
});

it('skips blank and multi-line entries', async () => {
  const file = path.join(tempDir('aish-hist-'), 'input_history');
  await appendInputHistory(file, '   ', 5);
  await appendInputHistory(file, 'a\nb', 5);
  expect(await loadInputHistory(file, 5)).toEqual([]);
});

describe('mergeHistories', () => {
  it.each([
    ['aish\'s own entries first, then the shell\'s', ['ls', 'ask me'], ['make', 'pwd'], 10, ['ls', 'ask me', 'make', 'pwd']],
    ['a line in both once, where aish has it', ['git status', 'ls'], ['ls', 'make'], 10, ['git status', 'ls', 'make']],
    ['a repeated shell line once', [], ['ls', 'ls', 'pwd'], 10, ['ls', 'pwd']],
    ['capped at max, aish\'s kept first', ['a', 'b'], ['c', 'd'], 3, ['a', 'b', 'c']],
    ['no shell history', ['a'], [], 10, ['a']],
  ])('%s', (_what, aish, shell, max, merged) => {
    expect(mergeHistories(aish, shell, max)).toEqual(merged);
  });
});
