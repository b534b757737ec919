// The test setup itself: each test file has a HOME and XDG directories of its own, never the
// account's (test/support/setup-home.ts).

import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';

describe('the test setup', () => {
  it('gives this file a temporary HOME and XDG directories under it', () => {
    const home = process.env.HOME!;
    expect(home.startsWith(tmpdir())).toBe(true);
    expect(home).not.toBe(userInfo().homedir);
    for (const name of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME']) {
      expect(process.env[name]!.startsWith(`${home}/`), name).toBe(true);
    }
  });
});
