// The mask of the session's secret (issue 34): any piece of 8 or more of its characters is masked,
// in a whole text and in a stream cut anywhere, and text without such a piece passes unchanged.

import { describe, expect, it } from 'vitest';
import { MIN_RUN, SECRET_SHOWN, SecretMask, maskSecret } from '../../src/shell/secret-mask.js';

const SECRET = '3f9c2a7e51d84b60c9e2f17a8d03b5e4';
const piece = (from: number, to?: number) => SECRET.slice(from, to);

/** Every piece of MIN_RUN characters of the secret found in `text`. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + MIN_RUN <= SECRET.length; i++) if (text.includes(SECRET.slice(i, i + MIN_RUN))) found.push(SECRET.slice(i, i + MIN_RUN));
  return found;
}

const MASKED: [name: string, text: string, shown: string][] = [
  ['the whole secret', `k=${SECRET}\n`, `k=${SECRET_SHOWN}\n`],
  ['its first 20 characters', `${piece(0, 20)}\n`, `${SECRET_SHOWN}\n`],
  ['12 from the middle', `x${piece(5, 17)}y\n`, `x${SECRET_SHOWN}y\n`],
  ['its last 8', `${piece(24)}`, SECRET_SHOWN],
  ['exactly 8, in a line', `declare -- __aish_k="${piece(10, 18)}"`, `declare -- __aish_k="${SECRET_SHOWN}"`],
  ['two pieces apart', `${piece(0, 9)} and ${piece(20, 30)}`, `${SECRET_SHOWN} and ${SECRET_SHOWN}`],
  ['the secret twice in a row (one mask)', `${SECRET}${SECRET}`, SECRET_SHOWN],
  ['a piece glued to other hex digits', `00${piece(3, 15)}ff`, `00${SECRET_SHOWN}ff`],
];

const PLAIN = [
  ['7 characters of it', `${piece(0, 7)}\n`],
  ['pieces of 7 apart (a line can always print it so: the limit of masking)', `${piece(0, 7)} ${piece(7, 14)}`],
  ['ordinary hex', 'commit 0123456789abcdef0123456789abcdef01234567\n'],
  ['the secret in capitals', SECRET.toUpperCase()],
  ['no hex at all', 'hello, world\n'],
  ['empty', ''],
];

describe('maskSecret', () => {
  it.each(MASKED)('masks %s', (_name, text, shown) => {
    expect(maskSecret(text, SECRET)).toBe(shown);
  });

  it.each(PLAIN)('leaves %s', (_name, text) => {
    expect(maskSecret(text, SECRET)).toBe(text);
  });
});

/** `text` cut at each of `cuts`, through one mask, flushed at the end. */
function streamed(text: string, cuts: number[]): string {
  const mask = new SecretMask(SECRET);
  let out = '';
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    out += mask.push(text.slice(at, cut));
    at = cut;
  }
  return out + mask.flush();
}

const everyCut = (text: string) => Array.from({ length: text.length + 1 }, (_, i) => i);

describe('SecretMask over a stream', () => {
  it.each(MASKED)('%s: masked whatever two chunks it comes in, and one character at a time', (_name, text) => {
    for (const cut of everyCut(text)) expect(leaks(streamed(text, [cut])), `cut at ${cut}`).toEqual([]);
    expect(leaks(streamed(text, everyCut(text)))).toEqual([]);
  });

  it.each(MASKED)('%s: cut where no piece is, the same as the whole text masked', (_name, text, shown) => {
    expect(streamed(text, [0])).toBe(shown);
    expect(streamed(text, [text.length])).toBe(shown);
  });

  it.each(PLAIN)('%s: passes unchanged, whatever the cuts', (_name, text) => {
    for (const cut of everyCut(text)) expect(streamed(text, [cut])).toBe(text);
    expect(streamed(text, everyCut(text))).toBe(text);
  });

  it('a piece typed a character at a time shows at most its first three characters', () => {
    expect(streamed(piece(0, 16), everyCut(piece(0, 16)))).toBe(`${piece(0, 3)}${SECRET_SHOWN}`);
  });

  it('a key echoed alone (one hex digit) is passed on at once, not held', () => {
    const mask = new SecretMask(SECRET);
    expect(mask.push('prompt> ')).toBe('prompt> ');
    expect(mask.push(SECRET[0]!)).toBe(SECRET[0]);
    expect(mask.push(SECRET[1]!)).toBe(SECRET[1]);
  });

  it('holds a tail that could be a piece until more comes or it is flushed', () => {
    const mask = new SecretMask(SECRET);
    expect(mask.push(`value: ${piece(4, 9)}`)).toBe('value: ');
    expect(mask.push(' done\n')).toBe(`${piece(4, 9)} done\n`);
    expect(mask.push(`next ${piece(10, 15)}`)).toBe('next ');
    expect(mask.flush()).toBe(piece(10, 15));
    expect(mask.flush()).toBe('');
  });

  it('a piece across a flush is masked after it', () => {
    const mask = new SecretMask(SECRET);
    expect(mask.push(piece(0, 5)) + mask.flush() + mask.push(`${piece(5, 12)}\n`)).toBe(`${piece(0, 5)}${SECRET_SHOWN}\n`);
  });
});
