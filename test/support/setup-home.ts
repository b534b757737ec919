// Every test file runs with a HOME and XDG directories of its own (vitest's setupFiles): nothing a
// test or the code under it reads or writes can be the developer's own config, state or history
// (a real ~/.config/aish/config.ts once made "no file anywhere: built-in defaults" fail).
// test/setup-home.test.ts checks it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const home = mkdtempSync(path.join(tmpdir(), 'aish-test-home-'));
process.env.HOME = home;
process.env.XDG_CONFIG_HOME = path.join(home, '.config');
process.env.XDG_STATE_HOME = path.join(home, '.local', 'state');
process.env.XDG_DATA_HOME = path.join(home, '.local', 'share');
process.env.XDG_CACHE_HOME = path.join(home, '.cache');
delete process.env.INPUTRC;
delete process.env.HISTFILE;

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});
