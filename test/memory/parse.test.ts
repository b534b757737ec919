import { describe, expect, it } from 'vitest';
import { parseMemoryCandidates } from '../../src/memory/parse.js';

describe('parseMemoryCandidates', () => {
  it.each([
    ['(fact): the repo uses vitest', [{ kind: 'fact', content: 'the repo uses vitest' }]],
    ['fact: bare kind', [{ kind: 'fact', content: 'bare kind' }]],
    ['- (pref): short answers', [{ kind: 'pref', content: 'short answers' }]],
    ['* (context): working on memory', [{ kind: 'context', content: 'working on memory' }]],
    ['1. (FACT): numbered', [{ kind: 'fact', content: 'numbered' }]],
    ['12) (Pref):   spaced   ', [{ kind: 'pref', content: 'spaced' }]],
    ['   (context) :  padded', [{ kind: 'context', content: 'padded' }]],
    ['(preference): long form', [{ kind: 'pref', content: 'long form' }]],
    ['(fact): a: b: c', [{ kind: 'fact', content: 'a: b: c' }]],
    ['(fact):', []],
    ['(fact):    ', []],
    ['(opinion): nope', []],
    ['Here are the memories:', []],
    ['the fact: is not at the start', []],
    ['factual: no', []],
    ['', []],
  ])('%j', (text, expected) => {
    expect(parseMemoryCandidates(text)).toEqual(expected);
  });

  it('keeps order and skips other lines', () => {
    const answer = 'Sure! Candidates:\r\n\n- (fact): one\nnoise\n2. (pref): two\n```\n(context): three\n';
    expect(parseMemoryCandidates(answer)).toEqual([
      { kind: 'fact', content: 'one' },
      { kind: 'pref', content: 'two' },
      { kind: 'context', content: 'three' },
    ]);
  });
});
