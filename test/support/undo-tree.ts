// A tree, a HOME and a Checkpoints over them for the undo tests: `act` runs an action between two
// snapshots as a session does, `sh` runs a shell command in the tree as an approved command would,
// and `git` runs the person's git there (their HOME, so their global config and ignore file).

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Checkpoints } from '../../src/undo/checkpoints.js';
import { tempDir } from './temp-dir.js';

export const UNDO_DEFAULTS = { enabled: true, typed: false, keep: 50, max_files: 20_000, max_file_bytes: 10 * 1024 * 1024 };

export type UndoTree = ReturnType<typeof undoTree>;

export function undoTree(config: Partial<typeof UNDO_DEFAULTS> = {}) {
  const base = tempDir('aish-undo-');
  const home = path.join(base, 'home');
  const tree = path.join(base, 'tree');
  mkdirSync(home);
  mkdirSync(tree);
  const statuses: string[] = [];
  const env = { PATH: process.env.PATH, HOME: home };
  const undo = new Checkpoints({ config: { ...UNDO_DEFAULTS, ...config }, stateDir: path.join(base, 'state'), env, status: (m) => statuses.push(m) });
  // As in a session, where the next line waits for it: the checkpoint is kept once `settled`.
  const act = async (work: () => void, command = 'act') => {
    await undo.around({ command, origin: 'cmd' }, tree, async () => work());
    await undo.settled();
  };
  const file = (name: string) => path.join(tree, name);
  const write = (name: string, text: string | Buffer) => {
    mkdirSync(path.dirname(file(name)), { recursive: true });
    writeFileSync(file(name), text);
  };
  const personEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  const sh = (command: string, cwd = tree) => execFileSync('sh', ['-c', command], { cwd, env: personEnv, encoding: 'utf8' });
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], { cwd, env: personEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { base, home, tree, undo, act, file, write, sh, git, statuses, state: path.join(base, 'state') };
}
