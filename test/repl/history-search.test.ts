// Ctrl-R's decisions, key by key: what the search line shows after each key and how it ends.

import { describe, expect, it } from 'vitest';
import { HistorySearch, type SearchKey, type SearchStep } from '../../src/repl/history-search.js';

/** Newest first, as readline keeps it. */
const HISTORY = ['git push', 'echo second', 'make test', 'echo first', 'git status', 'echo first'];

/** A key as the tests type it: a character, or a name like `C-r`, `backspace`, `left`. */
function press(search: HistorySearch, k: string): SearchStep {
  if (k.startsWith('C-')) return search.key(undefined, { name: k.slice(2), ctrl: true });
  if (k.length > 1) return search.key(undefined, { name: k });
  const key: SearchKey = /[a-z]/.test(k) ? { name: k } : {};
  return search.key(k, key);
}

/** What the screen shows: prompt, line, and the cursor as `▮` before the character it is on. */
function screen(search: HistorySearch): string {
  const { line, cursor } = search;
  return `${search.prompt}${line.slice(0, cursor)}▮${line.slice(cursor)}`;
}

describe('reverse incremental search', () => {
  it.each<[string, string[], string, SearchStep['type']?]>([
    ['Ctrl-R alone shows the line being edited', [], "(reverse-i-search)`': half▮"],
    ['a query finds the newest line holding it, cursor on the match', ['e', 'c', 'h'], "(reverse-i-search)`ech': ▮echo second"],
    ['Ctrl-R again goes to the next older match', ['e', 'c', 'h', 'C-r'], "(reverse-i-search)`ech': ▮echo first"],
    ['duplicates are skipped', ['e', 'c', 'h', 'C-r', 'C-r'], "(failed reverse-i-search)`ech': ▮echo first"],
    ['the match is found mid-line', ['t', 'e', 's', 't'], "(reverse-i-search)`test': make ▮test"],
    ['typing on keeps the current match while it still matches', ['g', 'i', 't', ' ', 's'], "(reverse-i-search)`git s': ▮git status"],
    ['no match: failed, the last match stays', ['m', 'a', 'k', 'e', 'x'], "(failed reverse-i-search)`makex': ▮make test"],
    ['Backspace shortens the query and the match stays', ['m', 'a', 'k', 'e', 'x', 'backspace'], "(reverse-i-search)`make': ▮make test"],
    ['Backspace to an empty query keeps the match', ['g', 'backspace'], "(reverse-i-search)`': ▮git push"],
    ['Ctrl-S goes back to a newer match', ['e', 'C-r', 'C-r', 'C-s'], "(reverse-i-search)`e': mak▮e test"],
    ['a query found nowhere fails at once', ['z'], "(failed reverse-i-search)`z': half▮"],
  ])('%s', (_name, keys, expected) => {
    const search = new HistorySearch(HISTORY, { line: 'half', cursor: 4 });
    for (const k of keys) expect(press(search, k).type).toBe('show');
    expect(screen(search)).toBe(expected);
  });

  it.each<[string, string[], SearchStep]>([
    ['Enter accepts and is passed on (the line runs)', ['m', 'a', 'return'], { type: 'accept', forward: true }],
    ['an arrow accepts and moves on the accepted line', ['m', 'a', 'left'], { type: 'accept', forward: true }],
    ['Ctrl-E accepts and goes to the end', ['m', 'a', 'C-e'], { type: 'accept', forward: true }],
    ['Tab accepts and completes', ['m', 'tab'], { type: 'accept', forward: true }],
    ['Esc cancels', ['m', 'escape'], { type: 'cancel' }],
    ['Ctrl-G cancels', ['m', 'C-g'], { type: 'cancel' }],
    ['Ctrl-C cancels', ['m', 'C-c'], { type: 'cancel' }],
  ])('%s', (_name, keys, last) => {
    const search = new HistorySearch(HISTORY, { line: 'half', cursor: 2 });
    for (const k of keys.slice(0, -1)) press(search, k);
    expect(press(search, keys.at(-1)!)).toEqual(last);
  });

  it('accepts the match with the cursor where the query starts', () => {
    const search = new HistorySearch(HISTORY, { line: 'half', cursor: 2 });
    for (const k of ['t', 'e', 's']) press(search, k);
    expect([search.line, search.cursor]).toEqual(['make test', 5]);
  });

  it('Ctrl-R on an empty query searches for the last query again', () => {
    const search = new HistorySearch(HISTORY, { line: '', cursor: 0 }, 'status');
    press(search, 'C-r');
    expect(screen(search)).toBe("(reverse-i-search)`status': git ▮status");
  });

  it('takes characters that are not letters, and no control characters', () => {
    const search = new HistorySearch(['a | b', 'c'], { line: '', cursor: 0 });
    expect(press(search, '|')).toEqual({ type: 'show' });
    expect(search.line).toBe('a | b');
    expect(search.key('\x1b', { name: 'undefined' })).toEqual({ type: 'accept', forward: true });
  });

  it('on an empty history every query fails and the line stays', () => {
    const search = new HistorySearch([], { line: 'x', cursor: 1 });
    press(search, 'a');
    expect(screen(search)).toBe("(failed reverse-i-search)`a': x▮");
  });
});
