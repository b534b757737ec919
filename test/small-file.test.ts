// readSmallRegularFile (src/small-file.ts): a regular file's bytes, after its links; why not for
// what would wedge a read (a FIFO, a device, a file over the cap) or leave its folder; the error of
// a file that is not there or a folder. Never blocks. readRegularFileTail: the same checks, the last bytes.

import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFileTail, readSmallRegularFile } from '../src/small-file.js';
import { tempDir } from './support/temp-dir.js';

describe('readSmallRegularFile', () => {
  const dir = tempDir('aish-small-file-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('small.json'), '{"a":1}');
  writeFileSync(at('big.json'), 'x'.repeat(1025));
  symlinkSync('small.json', at('inside-link.json'));
  symlinkSync('/dev/zero', at('zero.json'));
  const elsewhere = path.join(tempDir('aish-small-file-elsewhere-'), 'config.json');
  writeFileSync(elsewhere, '{}');
  symlinkSync(elsewhere, at('outside-link.json'));
  execFileSync('mkfifo', [at('fifo.json')]);
  mkdirSync(at('folder.json'));

  it.each([
    ['a regular file', 'small.json', undefined, '{"a":1}'],
    ['a link to one in its folder', 'inside-link.json', dir, '{"a":1}'],
  ])('reads %s', (_what, name, within, text) => {
    const read = readSmallRegularFile(at(name), 1024, within);
    expect(Buffer.from(read as Uint8Array).toString()).toBe(text);
  });

  it.each([
    ['a FIFO', 'fifo.json', undefined, 'is not a regular file (a FIFO)'],
    ['a link to /dev/zero', 'zero.json', undefined, 'is not a regular file (a character device)'],
    ['a link to /dev/zero, in a folder', 'zero.json', dir, 'is a link to /dev/zero, outside '],
    ['a link out of its folder', 'outside-link.json', dir, 'elsewhere-'],
    ['a file over the cap', 'big.json', undefined, 'is larger than 1 KiB'],
  ])('refuses %s', (_what, name, within, why) => {
    expect(readSmallRegularFile(at(name), 1024, within)).toEqual({ refused: expect.stringContaining(why) });
  });

  it.each([
    ['a missing file', 'missing.json', 'ENOENT'],
    ['a folder', 'folder.json', 'EISDIR'],
  ])('returns the error of %s', (_what, name, code) => {
    expect(readSmallRegularFile(at(name), 1024)).toMatchObject({ code });
  });
});

describe('readRegularFileTail', () => {
  const dir = tempDir('aish-file-tail-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('log'), '0123456789');
  execFileSync('mkfifo', [at('fifo')]);

  it('reads a file within the cap whole, and only the last bytes of a larger one', () => {
    expect(readRegularFileTail(at('log'), 10)).toEqual({ bytes: Buffer.from('0123456789'), cut: false });
    expect(readRegularFileTail(at('log'), 4)).toEqual({ bytes: Buffer.from('6789'), cut: true });
  });

  it('refuses what readSmallRegularFile refuses', () => {
    expect(readRegularFileTail(at('fifo'), 4)).toEqual({ refused: 'is not a regular file (a FIFO)' });
    expect(readRegularFileTail('/dev/zero', 4)).toEqual({ refused: 'is not a regular file (a character device)' });
    expect(readRegularFileTail(at('missing'), 4)).toMatchObject({ code: 'ENOENT' });
  });
});
