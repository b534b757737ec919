// The daily driver's project context through the real program: the [project] block inside a git
// work tree (and not outside), :tree, :diff attached to the next question, and @file mentions.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;
let repo: string;

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  repo = path.join(h.cwd, 'app');
  mkdirSync(path.join(repo, 'src'), { recursive: true });
  writeFileSync(path.join(repo, 'src', 'date.ts'), 'export const x = 1;\n');
  writeFileSync(path.join(repo, 'README.md'), '# app\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, env: h.env });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

const system = (i: number): string => server.requests[i]!.body.messages[0].content;

describe('project context', () => {
  it('inside a work tree the system message carries [project]; it follows cd; :tree shows it', async () => {
    server.enqueue(textReply(['outside']), textReply(['inside']));
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'question outside\ncd app/src\nquestion inside\n:tree\ncd /\n:tree\n' });
    expect(system(0)).not.toContain('[project]');
    expect(system(1)).toContain('[project] app (branch main, 2 tracked files)\nsrc/\n  date.ts\nREADME.md');
    expect(r.stdout).toContain('[project] app (branch main, 2 tracked files)');
    expect(r.stdout).toContain('not in a git work tree: no [project] block is sent');
  });

  it(':diff attaches the working tree diff to the next question and shows its size', async () => {
    server.enqueue(textReply(['looks fine']));
    writeFileSync(path.join(repo, 'src', 'date.ts'), 'export const x = 2;\n');
    const r = await runAish({ cwd: repo, env: h.env, stdin: ':diff\nreview this\n:diff --staged\n' });
    expect(r.stderr).toMatch(/\[aish\] git diff: 1 file, \d+ lines attached to your next question/);
    const sent: string = server.requests[0]!.body.messages.at(-1).content;
    expect(sent).toMatch(/^\[git diff\]\ndiff --git a\/src\/date.ts b\/src\/date.ts[\s\S]*-export const x = 1;\n\+export const x = 2;[\s\S]*\n\nreview this$/);
    expect(r.stderr).toContain('git diff --staged: no changes; nothing attached');
  });

  it('@file attaches the file; a missing one is an error and nothing is sent', async () => {
    server.enqueue(textReply(['It exports x.']));
    const r = await runAish({ cwd: repo, env: h.env, stdin: 'what does @nope.ts do?\nwhat does @src/date.ts do?\n' });
    expect(r.stderr).toContain('[aish] @nope.ts: no such file or directory (nothing was sent)');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.messages.at(-1).content).toBe('what does @src/date.ts do?\n\n[file: src/date.ts]\nexport const x = 1;');
    expect(r.stderr).toContain('attached @src/date.ts');
  });
});
