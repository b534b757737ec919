// The person's shell history file (src/shell/shell-history.ts): bash's plain lines and `#<time>`
// lines, zsh's plain and EXTENDED_HISTORY entries, backslash-newline continuations and metafied
// bytes, a tail cut anywhere; and the file itself read only when it is a regular file.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseShellHistory, readShellHistory } from '../../src/shell/shell-history.js';
import { tempDir } from '../support/temp-dir.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** zsh's metafication: a byte zsh holds special is written as 0x83 and the byte xor 0x20. */
function metafy(text: string): Uint8Array {
  const out: number[] = [];
  for (const b of bytes(text)) {
    if (b === 0 || (b >= 0x83 && b <= 0xa2)) out.push(0x83, b ^ 0x20);
    else out.push(b);
  }
  return Uint8Array.from(out);
}

describe('parseShellHistory, newest first', () => {
  it.each([
    ['bash, plain lines', 'bash', 'ls -l\ngit status\nmake test\n', ['make test', 'git status', 'ls -l']],
    ['bash, no newline at the end', 'bash', 'ls\npwd', ['pwd', 'ls']],
    ['bash, blank lines skipped', 'bash', 'ls\n\n   \npwd\n', ['pwd', 'ls']],
    ['bash, a repeated line once, where it was last', 'bash', 'ls\npwd\nls\n', ['ls', 'pwd']],
    ['bash, HISTTIMEFORMAT timestamps', 'bash', '#1700000000\nls\n#1700000005\ngit log\n', ['git log', 'ls']],
    ['bash, a multi-line command between timestamps (lithist)', 'bash', '#1700000000\nfor i in 1 2\ndo echo $i\ndone\n#1700000009\npwd\n', ['pwd', 'for i in 1 2\ndo echo $i\ndone']],
    ['bash, CR LF line ends', 'bash', 'ls\r\npwd\r\n', ['pwd', 'ls']],
    ['zsh, plain lines', 'zsh', 'ls\ngit status\n', ['git status', 'ls']],
    ['zsh, EXTENDED_HISTORY', 'zsh', ': 1700000000:0;ls -a\n: 1700000003:12;sleep 12\n', ['sleep 12', 'ls -a']],
    ['zsh, a multi-line entry', 'zsh', ': 1700000000:0;for i in 1 2\\\ndo echo $i\\\ndone\n: 1700000001:0;pwd\n', ['pwd', 'for i in 1 2\ndo echo $i\ndone']],
    ['zsh, a plain multi-line entry', 'zsh', 'echo one\\\ntwo\nls\n', ['ls', 'echo one\ntwo']],
    ['zsh, a command with a colon that is not a timestamp', 'zsh', ': not-a-time;x\n', [': not-a-time;x']],
    ['fish, entries with when and paths', 'fish', '- cmd: ls -a\n  when: 1700000000\n- cmd: cat notes.txt\n  when: 1700000003\n  paths:\n    - notes.txt\n', ['cat notes.txt', 'ls -a']],
    ['fish, a newline and a backslash escaped', 'fish', "- cmd: echo 'multi\\nline'\n  when: 1\n- cmd: echo back\\\\slash\\\\n\n  when: 2\n", ['echo back\\slash\\n', "echo 'multi\nline'"]],
    ['either, a line with a control character dropped', 'bash', 'ls\necho \x1b[31mred\npwd\n', ['pwd', 'ls']],
  ] as const)('%s', (_what, kind, text, entries) => {
    expect(parseShellHistory(kind, bytes(text))).toEqual(entries);
  });

  it('reads zsh\'s metafied bytes back as the text typed', () => {
    // 日 is E6 97 A5 and ー is E3 83 BC: zsh writes their middle bytes behind 0x83.
    const file = metafy(': 1700000000:0;echo 日本ー\n: 1700000001:0;echo plain é\n');
    expect(file).toContain(0x83);
    expect(parseShellHistory('zsh', file)).toEqual(['echo plain é', 'echo 日本ー']);
  });

  it.each([
    ['bash, cut mid-line', 'bash', 'stat -c %s file\nls\npwd\n', 5, ['pwd', 'ls']],
    ['bash with timestamps, cut mid-entry', 'bash', '#1700000000\nfor x\ndo y\ndone\n#1700000001\nls\n', 20, ['ls']],
    ['zsh, cut inside a multi-line entry', 'zsh', ': 1:0;for i in 1 2\\\ndo echo $i\\\ndone\n: 2:0;pwd\n', 10, ['pwd']],
    ['fish, cut inside an entry', 'fish', '- cmd: ls -a\n  when: 1\n  paths:\n    - x\n- cmd: pwd\n  when: 2\n', 3, ['pwd']],
    ['zsh, cut at a line start (which a tail cannot tell)', 'zsh', ': 1:0;ls\n: 2:0;pwd\n: 3:0;id\n', 9, ['id']],
  ] as const)('from a tail (%s), leaves out the entry the cut went through', (_what, kind, text, cut, entries) => {
    expect(parseShellHistory(kind, bytes(text).subarray(cut), { cut: true })).toEqual(entries);
  });

  it('keeps at most `max` entries, the newest', () => {
    expect(parseShellHistory('bash', bytes('a\nb\nc\nd\n'), { max: 2 })).toEqual(['d', 'c']);
  });
});

describe('readShellHistory', () => {
  const dir = tempDir('aish-shell-history-');
  const at = (name: string) => path.join(dir, name);

  it('reads a regular file, and only the tail of a large one', () => {
    writeFileSync(at('small'), 'ls\npwd\n');
    expect(readShellHistory('bash', at('small'), { maxBytes: 1024 })).toEqual(['pwd', 'ls']);
    writeFileSync(at('large'), `${Array.from({ length: 200 }, (_, i) => `echo line-${i}`).join('\n')}\n`);
    const tail = readShellHistory('bash', at('large'), { maxBytes: 100 });
    expect(tail[0]).toBe('echo line-199');
    expect(tail.length).toBeGreaterThan(3);
    expect(tail.length).toBeLessThan(12);
    expect(tail.every((line) => /^echo line-\d+$/.test(line))).toBe(true);
  });

  it('reads further back when the last 256 KiB hold fewer lines than asked for', () => {
    const repeated = 'echo the-same-line\n'.repeat(20_000);
    writeFileSync(at('repetitive'), `echo early-one\necho early-two\n${repeated}`);
    expect(readShellHistory('bash', at('repetitive'), { max: 10 })).toEqual(['echo the-same-line', 'echo early-two', 'echo early-one']);
    expect(readShellHistory('bash', at('repetitive'), { max: 1 })).toEqual(['echo the-same-line']);
  });

  it('reads nothing from a FIFO, a device, a folder or a file that is not there', () => {
    execFileSync('mkfifo', [at('fifo')]);
    for (const file of [at('fifo'), '/dev/zero', dir, at('missing'), '']) expect(readShellHistory('zsh', file, { maxBytes: 1024 })).toEqual([]);
  });
});
