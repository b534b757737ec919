// `@out` mentions: which forms name a block, which block each names, what the model is sent, and
// the usage errors that stop a line before anything is sent.

import { describe, expect, it } from 'vitest';
import { BlockStore } from '../../src/blocks/block-store.js';
import { attachBlocks, findOutMentions, parseOutRef } from '../../src/blocks/out-mentions.js';
import { findMentions, isBlockMention } from '../../src/project/mentions.js';

function session(): BlockStore {
  const blocks = new BlockStore({ privateCommands: ['pass *'], redact: (t) => t });
  blocks.add({ command: 'make build', cwd: '/src', exitCode: 0, output: 'built ok\n' });
  blocks.add({ command: 'pass show github', cwd: '/src', exitCode: 0, output: 'TOPSECRET\n' });
  blocks.add({ command: 'npm test', cwd: '/src', exitCode: 1, output: 'FAIL date.test.ts\n' });
  blocks.add({ command: 'ls', cwd: '/src', exitCode: 0, output: 'a\nb\n' });
  return blocks;
}

const attachedBlocks = (text: string, blocks = session(), pending: number[] = []) =>
  attachBlocks(text, blocks, (n) => pending.includes(n)).attachments.map((a) => /^\[(?:block (\d+)|@\S+ is block (\d+))/.exec(a)!.slice(1).find(Boolean));

describe('parseOutRef', () => {
  it.each([
    ['', { type: 'newest' }],
    ['-2', { type: 'back', n: 2 }],
    ['7', { type: 'number', n: 7 }],
    ['x', null],
    ['/(/', null],
  ])('%j', (spec, want) => {
    expect(parseOutRef(spec)).toEqual(want);
  });

  it('reads /regex/ and /regex/i', () => {
    expect(parseOutRef('/fail/i')).toMatchObject({ type: 'match', source: '/fail/i' });
    expect((parseOutRef('/fail/i') as { pattern: RegExp }).pattern.test('FAIL')).toBe(true);
  });
});

describe('findOutMentions', () => {
  it.each([
    ['what is @out?', ['out']],
    ['compare @out:-1 with @out:3, and @out:/a.c?/', ['out:-1', 'out:3', 'out:/a.c?/']],
    ['@out @out', ['out']],
    ['see @out.txt, @outdir and me@out', []],
  ])('%j', (text, want) => {
    expect(findOutMentions(text)).toEqual(want);
  });

  it('keeps @out forms from the file mentions, and files named out* in them', () => {
    expect(findMentions('@out @out:3 @out.txt @outdir').map((m) => m.path)).toEqual(['out.txt', 'outdir']);
    expect([isBlockMention('out'), isBlockMention('out,'), isBlockMention('out:/x/'), isBlockMention('out.md'), isBlockMention('output')]).toEqual([true, true, true, false, false]);
  });
});

describe('attachBlocks', () => {
  it('names the newest, N back, by number and by regex (the newest match, never a private block)', () => {
    expect(attachedBlocks('@out')).toEqual(['4']);
    expect(attachedBlocks('@out:-1')).toEqual(['3']);
    expect(attachedBlocks('@out:1')).toEqual(['1']);
    expect(attachedBlocks('@out:/FAIL|built/')).toEqual(['3']);
    expect(() => attachedBlocks('@out:/TOPSECRET|github/')).toThrow('no block matches');
  });

  it('sends the block fenced, headed by its command, status and directory', () => {
    const { attachments, notes } = attachBlocks('why? @out:3', session(), () => false);
    expect(attachments).toEqual(['[block 3: $ npm test (exit 1, in /src)]\n```\nFAIL date.test.ts\n```']);
    expect(notes).toEqual(['attached @out:3: block 3 (1 line)']);
  });

  it('sends a block once, and only names one the pending output carries already', () => {
    expect(attachedBlocks('@out @out:4 @out:-0')).toEqual(['4']);
    const { attachments } = attachBlocks('@out', session(), (n) => n === 4);
    expect(attachments).toEqual(['[@out is block 4: the exec output of `ls` above]']);
  });

  it.each([
    ['@out:2', '@out:2: block 2 is private (nothing was sent)'],
    ['@out:-1 @out:-2', '@out:-2: block 2 is private (nothing was sent)'],
    ['@out:9', '@out:9: there is no block 9 (nothing was sent)'],
    ['@out:-9', '@out:-9: only 4 blocks are kept (nothing was sent)'],
    ['@out:/nowhere/', '@out:/nowhere/: no block matches /nowhere/ (nothing was sent)'],
    ['@out:x', '@out:x: name a block as @out, @out:-N, @out:N or @out:/regex/ (nothing was sent)'],
  ])('%j stops the line: %s', (text, message) => {
    expect(() => attachBlocks(text, session(), () => false)).toThrow(message);
  });

  it('says when nothing ran yet, and when a block is no longer kept', () => {
    const empty = new BlockStore({ privateCommands: [], redact: (t) => t });
    expect(() => attachBlocks('@out', empty, () => false)).toThrow('@out: no command has run yet (nothing was sent)');
    const few = new BlockStore({ privateCommands: [], redact: (t) => t, maxBlocks: 1 });
    few.add({ command: 'a', cwd: '/', exitCode: 0, output: '' });
    few.add({ command: 'b', cwd: '/', exitCode: 0, output: '' });
    expect(() => attachBlocks('@out:1', few, () => false)).toThrow('@out:1: block 1 is no longer kept (the last 1 are)');
    expect(attachBlocks('@out', few, () => false).attachments).toEqual(['[block 2: $ b (exit 0, in /)]\n(no output)']);
  });
});
