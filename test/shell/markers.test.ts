// The integration markers parsed out of a shell's output: whole, split at every byte, forged,
// unterminated, with ST or BEL, and escaped fields.

import { describe, expect, it } from 'vitest';
import { MarkerParser, decodeField, type ShellEvent } from '../../src/shell/markers.js';
import { typedLines } from '../../src/shell/session.js';

const K = 'f00dcafe';
const m = (kind: string, ...fields: string[]) => `\x1b]6973;${kind};${K}${fields.map((f) => `;${f}`).join('')}\x07`;

/** Events for `input` fed in `pieces`, with adjacent output joined (splits may cut it anywhere). */
function parse(pieces: string[]): ShellEvent[] {
  const parser = new MarkerParser(K);
  const events: ShellEvent[] = [];
  for (const piece of pieces) {
    for (const e of parser.push(piece)) {
      const last = events.at(-1);
      if (e.type === 'output' && last?.type === 'output') last.text += e.text;
      else events.push(e.type === 'output' ? { ...e } : e);
    }
  }
  return events;
}

const out = (text: string): ShellEvent => ({ type: 'output', text });
const mark = (kind: string, ...fields: string[]): ShellEvent => ({ type: 'marker', kind: kind as 'D', fields });

describe('MarkerParser', () => {
  it.each<[string, string, ShellEvent[]]>([
    ['plain output', 'hello\r\n', [out('hello\r\n')]],
    ['a prompt marker', m('R'), [mark('R')]],
    ['output around markers', `${m('C')}hi\r\n${m('D', '0', '/tmp', '')}`, [mark('C'), out('hi\r\n'), mark('D', '0', '/tmp', '')]],
    ['colours pass', `\x1b[31mred\x1b[0m${m('D', '1', '/', '')}`, [out('\x1b[31mred\x1b[0m'), mark('D', '1', '/', '')]],
    ['ST ends a marker', `\x1b]6973;R;${K}\x1b\\after`, [mark('R'), out('after')]],
    ['a forged secret is dropped', `a\x1b]6973;D;0000;0;/etc;\x07b`, [out('ab')]],
    ['a forged marker with ST is dropped', `a\x1b]6973;D;0000;0;/etc\x1b\\b`, [out('ab')]],
    ['an unknown kind is dropped', `a\x1b]6973;X;${K};1\x07b`, [out('ab')]],
    ['other OSC sequences pass', '\x1b]0;title\x07x', [out('\x1b]0;title\x07x')]],
    ['a lone ESC at the end of the stream waits, then passes', 'a\x1b', [out('a')]],
    // Found by a red-team pass: 8 bytes in a file once swallowed the true end marker.
    ['an unfinished forged marker does not swallow the true one', `x\x1b]6973;${m('D', '0', '/w', '')}`, [out('x'), mark('D', '0', '/w', '')]],
    ['nor does an unfinished forged marker with a wrong secret', `x\x1b]6973;D;bad;0${m('D', '2', '/w', '')}`, [out('x'), mark('D', '2', '/w', '')]],
    ['escaped fields are decoded', m('D', '0', '/a%3Bb%25c%0Ad', 'ls%1Fpwd%1F'), [mark('D', '0', '/a;b%c\nd', 'ls\x1fpwd\x1f')]],
  ])('%s', (_, input, expected) => {
    expect(parse([input])).toEqual(expected);
  });

  it('gives the same events however the input is split', () => {
    const input = `pre${m('C')}out\x1b[1mbold\x1b[0m\r\n\x1b]6973;D;bad;9;/x;\x07${m('D', '3', '/home/p%3Bq', 'x%1F')}${m('R')}`;
    const whole = parse([input]);
    expect(whole).toEqual([out('pre'), mark('C'), out('out\x1b[1mbold\x1b[0m\r\n'), mark('D', '3', '/home/p;q', 'x\x1f'), mark('R')]);
    for (let i = 1; i < input.length; i++) expect(parse([input.slice(0, i), input.slice(i)])).toEqual(whole);
    expect(parse([...input])).toEqual(whole);
  });

  it('gives up on a forged sequence that never ends, and output goes on', () => {
    const parser = new MarkerParser(K);
    const forged = `\x1b]6973;D;nope;${'x'.repeat(5000)}`;
    const events = [...parser.push(forged), ...parser.push('after\r\n')];
    expect(events).toEqual([out('after\r\n')]);
  });

  it('waits for a long true marker (an environment) to end', () => {
    const parser = new MarkerParser(K);
    const big = 'v'.repeat(100_000);
    expect(parser.push(`\x1b]6973;Q;${K};q1;${big}`)).toEqual([]);
    expect(parser.push('\x07')).toEqual([mark('Q', 'q1', big)]);
  });
});

describe('decodeField', () => {
  it.each([
    ['plain', 'plain'],
    ['%25%3B%0A%0D%1B%07', '%;\n\r\x1b\x07'],
    ['100%', '100%'],
    ['%zz', '%zz'],
  ])('%j → %j', (field, decoded) => {
    expect(decodeField(field)).toBe(decoded);
  });
});

describe('typedLines: keys typed before a command started, as lines', () => {
  it.each<[string, string, string[]]>([
    ['one line', 'echo after\r', ['echo after']],
    ['two lines', 'ls\rpwd\r', ['ls', 'pwd']],
    ['no Enter: no line', 'echo half', []],
    ['backspace edits', 'echp\x7fo hi\r', ['echo hi']],
    ['Ctrl-U clears', 'rm -rf x\x15ls\r', ['ls']],
    ['arrow keys are dropped', 'ls\x1b[A\x1b[D -l\r', ['ls -l']],
    ['other controls are dropped', 'l\x01s\r', ['ls']],
  ])('%s', (_, keys, lines) => {
    expect(typedLines(keys)).toEqual(lines);
  });
});
