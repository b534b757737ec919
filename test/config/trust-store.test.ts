// The store of trusted project configs: keyed by path and sha256, written 0600 in a 0700 folder,
// and a file that cannot be read (torn, hand-edited, not JSON) is an empty store with a problem,
// never a crash.

import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex, TrustStore } from '../../src/config/trust-store.js';
import { tempDir } from '../support/temp-dir.js';

const HASH = 'a'.repeat(64);

describe('TrustStore', () => {
  it('keeps a path with its hash, 0600 in a 0700 folder; other bytes are not trusted', async () => {
    const file = path.join(tempDir('aish-trust-'), 'state', 'aish', 'trusted-configs.json');
    const store = new TrustStore(file);
    expect(store.problem).toBeUndefined();
    store.trust('/p/.aishrc.json', HASH, new Date('2026-01-02T03:04:05Z'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const again = new TrustStore(file);
    expect(again.trusts('/p/.aishrc.json', HASH)).toBe(true);
    expect(again.trusts('/p/.aishrc.json', 'b'.repeat(64))).toBe(false);
    expect(again.list()).toEqual([{ path: '/p/.aishrc.json', sha256: HASH, trustedAt: '2026-01-02T03:04:05.000Z' }]);
    expect(again.forget('/p/.aishrc.json')).toBe(true);
    expect(again.forget('/p/.aishrc.json')).toBe(false);
    expect(new TrustStore(file).list()).toEqual([]);
  });

  it('adds to what another aish wrote meanwhile', () => {
    const file = path.join(tempDir('aish-trust-'), 'trusted-configs.json');
    const a = new TrustStore(file);
    const b = new TrustStore(file);
    a.trust('/a', HASH, new Date());
    b.trust('/b', HASH, new Date());
    expect(new TrustStore(file).list().map((e) => e.path)).toEqual(['/a', '/b']);
  });

  it.each([
    ['torn mid-write', '{"version":1,"files":{"/p":{"sha256":"aaaa'],
    ['not JSON', 'hello'],
    ['another version', '{"version":2,"files":{}}'],
    ['an entry without a hash', '{"version":1,"files":{"/p":{"trusted_at":"x"}}}'],
    ['a hash that is not sha256', '{"version":1,"files":{"/p":{"sha256":"zz","trusted_at":"x"}}}'],
    ['a relative path', `{"version":1,"files":{"p":{"sha256":"${HASH}","trusted_at":"x"}}}`],
  ])('a store %s trusts nothing and says so; trusting writes it afresh', (_label, text) => {
    const dir = tempDir('aish-trust-');
    const file = path.join(dir, 'trusted-configs.json');
    writeFileSync(file, text);
    const store = new TrustStore(file);
    expect(store.list()).toEqual([]);
    expect(store.problem).toContain(file);
    store.trust('/q', HASH, new Date());
    expect(JSON.parse(readFileSync(file, 'utf8')).files).toEqual({ '/q': { sha256: HASH, trusted_at: expect.any(String) } });
  });

  it('a store that is a directory is a problem, not a crash; without a state dir nothing can be kept', () => {
    const dir = tempDir('aish-trust-');
    mkdirSync(path.join(dir, 'trusted-configs.json'));
    expect(new TrustStore(path.join(dir, 'trusted-configs.json')).problem).toMatch(/cannot read/);
    const none = new TrustStore(undefined);
    expect(none.problem).toBeUndefined();
    expect(() => none.trust('/p', HASH, new Date())).toThrow(/no state dir/);
  });

  it('sha256Hex is sha256', async () => {
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
