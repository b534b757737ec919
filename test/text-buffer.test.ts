import { describe, expect, it } from 'vitest';
import { TextBuffer } from '../src/text-buffer.js';

describe('TextBuffer', () => {
  it('gives back every piece in order, across blocks, and keeps its length', () => {
    const buffer = new TextBuffer();
    const pieces = Array.from({ length: 1000 }, (_, i) => `p${i} `);
    for (const p of pieces) buffer.push(p);
    expect(buffer.length).toBe(pieces.join('').length);
    expect(buffer.toString()).toBe(pieces.join(''));
    expect(buffer.toString()).toBe(pieces.join(''));
  });

  it('grows on after it was read, and ignores empty pieces', () => {
    const buffer = new TextBuffer();
    expect(buffer.toString()).toBe('');
    buffer.push('a');
    buffer.push('');
    expect(buffer.toString()).toBe('a');
    for (let i = 0; i < 300; i++) buffer.push('b');
    expect(buffer.toString()).toBe(`a${'b'.repeat(300)}`);
    expect(buffer.length).toBe(301);
  });

  it('clear empties it, and it grows again from nothing', () => {
    const buffer = new TextBuffer();
    for (let i = 0; i < 300; i++) buffer.push('x');
    buffer.toString();
    buffer.push('y');
    buffer.clear();
    expect(buffer.length).toBe(0);
    expect(buffer.toString()).toBe('');
    buffer.push('z');
    expect(buffer.toString()).toBe('z');
  });
});
