// An isolated home for one test run of the real program: HOME, XDG dirs and cwd in a temp dir, a
// predictable shell, and no model variables leaking in from the machine.

import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const AISH_BIN = path.join(ROOT, 'dist', 'aish.js');

export interface AishHome {
  home: string;
  cwd: string;
  stateDir: string;
  env: Record<string, string>;
  /**
   * Writes the person's own config, `<home>/.aishrc.json` (or another name), with this content:
   * the search from the cwd finds it, and it needs no trust.
   */
  writeConfig(config: unknown, name?: string): string;
  /** Writes a project config, `<cwd>/.aishrc.json` (or another name): it takes effect only once trusted. */
  writeProjectConfig(config: unknown, name?: string): string;
  cleanup(): void;
}

function write(file: string, config: unknown): string {
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return file;
}

/** `base`: where the home is made (the Norris sandbox tests need one outside /tmp, which the box replaces). */
export function makeHome(extraEnv: Record<string, string> = {}, base = tmpdir()): AishHome {
  const home = mkdtempSync(path.join(base, 'aish-test-'));
  const cwd = path.join(home, 'work');
  mkdirSync(cwd);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SHELL: '/bin/bash',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    ...extraEnv,
  };
  return {
    home,
    cwd,
    stateDir: path.join(home, '.local', 'state', 'aish'),
    env,
    writeConfig: (config, name = '.aishrc.json') => write(path.join(home, name), config),
    writeProjectConfig: (config, name = '.aishrc.json') => write(path.join(cwd, name), config),
    cleanup() {
      // A session shell that was just hung up may still be writing its history file there.
      for (let attempt = 0; ; attempt++) {
        try {
          rmSync(home, { recursive: true, force: true });
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || attempt >= 100) throw err;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
        }
      }
    },
  };
}
