// git as aish runs it unasked, in a real repository whose own .git/config names programs to run:
// an fsmonitor hook (git runs it even for ls-files), a clean filter and a textconv driver. None
// runs, and git still answers.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitDiff, trackedFiles, workTreeOf } from '../../src/project/git.js';
import { tempDir } from '../support/temp-dir.js';

const env = { PATH: process.env.PATH, HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' };

function plantedRepo() {
  const dir = tempDir('aish-git-');
  const run = (...args: string[]) => execFileSync('git', args, { cwd: dir, env });
  run('init', '-q');
  writeFileSync(path.join(dir, 'a.txt'), 'one\n');
  run('add', 'a.txt');
  run('-c', 'user.email=a@b', '-c', 'user.name=n', 'commit', '-qm', 'x');
  const ran = (what: string) => path.join(dir, `ran-${what}`);
  const hook = path.join(dir, 'hook.sh');
  writeFileSync(hook, `#!/bin/sh\ntouch '${ran('fsmonitor')}'\n`);
  chmodSync(hook, 0o755);
  run('config', 'core.fsmonitor', hook);
  run('config', 'filter.evil.clean', `touch '${ran('clean')}'; cat`);
  run('config', 'filter.evil.process', `touch '${ran('process')}'`);
  run('config', 'filter.evil.required', 'true');
  run('config', 'diff.evil.textconv', `touch '${ran('textconv')}'; cat`);
  writeFileSync(path.join(dir, '.gitattributes'), 'a.txt filter=evil diff=evil\n');
  writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
  return { dir, ran: () => ['fsmonitor', 'clean', 'process', 'textconv'].filter((w) => existsSync(ran(w))) };
}

describe('git in a planted repository', () => {
  it('the [project] block and :diff run none of its programs, and still answer', async () => {
    const repo = plantedRepo();
    const tree = await workTreeOf(repo.dir, env);
    expect(tree?.root).toBe(repo.dir);
    expect(await trackedFiles(repo.dir, env)).toEqual(['a.txt']);
    const diff = await gitDiff(repo.dir, [], env);
    expect(diff).toContain('+two');
    expect(repo.ran()).toEqual([]);
  });

  it('the same calls without the protections would run them (the test can fail)', () => {
    const repo = plantedRepo();
    execFileSync('git', ['ls-files'], { cwd: repo.dir, env, stdio: 'ignore' });
    expect(repo.ran()).toEqual(['fsmonitor']);
    // The planted process filter fails the diff, once it has run.
    spawnSync('git', ['--no-pager', 'diff'], { cwd: repo.dir, env, stdio: 'ignore' });
    expect(repo.ran()).toEqual(expect.arrayContaining(['fsmonitor', 'process']));
  });
});
