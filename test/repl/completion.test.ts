import { mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ShellCompleter, completePath, shellCandidates } from '../../src/repl/completion.js';
import type { Completion } from '../../src/repl/line-reader.js';
import { parseCompletion, type ShellCompletion } from '../../src/shell/completion-answer.js';
import { tempDir } from '../support/temp-dir.js';

let root: string;
let bin: string;
beforeAll(() => {
  root = tempDir('aish-complete-');
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'home', 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'main.ts'), '');
  writeFileSync(path.join(root, 'src', 'math.ts'), '');
  writeFileSync(path.join(root, 'README.md'), '');
  writeFileSync(path.join(root, '.hidden'), '');
  bin = path.join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'frobnicate'), '#!/bin/sh\n');
  chmodSync(path.join(bin, 'frobnicate'), 0o755);
});

const ctx = () => ({ cwd: root, env: { HOME: path.join(root, 'home'), PATH: bin }, knownCommands: ['git', 'grep'] });

describe('shell completion', () => {
  it.each([
    ['gr', ['grep'], 'gr'],
    ['frob', ['frobnicate'], 'frob'],
    ['$fro', ['frobnicate'], 'fro'],
    ['ls | gr', ['grep'], 'gr'],
    ['cat src/ma', ['src/main.ts', 'src/math.ts'], 'src/ma'],
    ['cat R', ['README.md'], 'R'],
    ['ls s', ['src/'], 's'],
    ['ls ~/d', ['~/docs/'], '~/d'],
    ['cat .h', ['.hidden'], '.h'],
    ['cat nothing-here', [], 'nothing-here'],
  ])('%j', (line, hits, replaced) => {
    expect(new ShellCompleter().complete(line, ctx())).toEqual([hits, replaced]);
  });

  it('with completion-ignore-case, any case completes', () => {
    const dir = path.join(root, 'cased');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'README.md'), '');
    expect(completePath('cased/readme', ctx())).toEqual([]);
    expect(completePath('cased/readme', { ...ctx(), ignoreCase: true })).toEqual(['cased/README.md']);
  });

  it('hides dotfiles unless asked for', () => {
    expect(completePath('', ctx())).not.toContain('.hidden');
  });

  it('never offers a name with a control character (C0, DEL, C1, bidi)', () => {
    const dir = path.join(root, 'hostile');
    mkdirSync(dir);
    const hostile = ['evil\x1b]0;pwned\x07', 'a\nb', 'del\x7f', 'csi\x9b2J', 'bidi\u202etxt.sh', 'lrm\u200e'];
    for (const name of [...hostile, 'fine.txt']) writeFileSync(path.join(dir, name), '');
    writeFileSync(path.join(bin, 'run\x1b[2J'), '');
    chmodSync(path.join(bin, 'run\x1b[2J'), 0o755);
    expect(completePath('hostile/', ctx())).toEqual(['hostile/fine.txt']);
    expect(new ShellCompleter().complete('run', ctx())[0]).toEqual([]);
  });
});

describe('the session shell\'s answer', () => {
  it.each([
    ['stat\x1fn\x1fstatus ', { word: 'stat', filenames: false, nospace: true, candidates: ['status '] }],
    ['\x1f\x1falpha\x1fbeta', { word: '', filenames: false, nospace: false, candidates: ['alpha', 'beta'] }],
    ['"my f\x1ff\x1fmy file', { word: '"my f', filenames: true, nospace: false, candidates: ['my file'] }],
    ['x\x1ffn', { word: 'x', filenames: true, nospace: true, candidates: [] }],
    ['--am\x1fnd\x1f--amend\x1f--amend  -- amend previous commit', { word: '--am', filenames: false, nospace: true, candidates: ['--amend'], descriptions: ['--amend  -- amend previous commit'] }],
    ['x\x1fd\x1fa\x1fA\x1f\x1f\x1fb\x1fB', { word: 'x', filenames: false, nospace: false, candidates: ['a', 'b'], descriptions: ['A', 'B'] }],
    ['x\x1fd\x1fa\x1fA\x1fb', null],
    ['chec\x1f\x1fcheckout\tSwitch branches\x1fcherry', { word: 'chec', filenames: false, nospace: false, candidates: ['checkout', 'cherry'], descriptions: ['checkout  (Switch branches)', 'cherry'] }],
    ['no flags field', null],
    ['x\x1fzz\x1fa', null],
  ])('parses %j', (payload, parsed) => {
    expect(parseCompletion(payload)).toEqual(parsed);
  });

  const answer = (word: string, candidates: string[], more: Partial<ShellCompletion> = {}): ShellCompletion => ({ word, candidates, filenames: false, nospace: false, ...more });
  it.each<[string, ShellCompletion, Completion | null]>([
    ['mycmd al', answer('al', ['alpha']), [['alpha '], 'al']],
    ['mycmd ', answer('', ['beta', 'alpha', 'alpha']), [['alpha', 'beta'], '']],
    ['git stat', answer('stat', ['status '], { nospace: true }), [['status '], 'stat']],
    ['git log --pretty=on', answer('on', ['oneline'], { nospace: true }), [['oneline'], 'on']],
    ['$ git st', answer('st', ['stash ', 'status ']), [['stash ', 'status '], 'st']],
    ['ls my', answer('my', ['my file', 'my dir/'], { filenames: true }), [['my\\ dir/', 'my\\ file'], 'my']],
    ['ls my', answer('my', ['my file'], { filenames: true }), [['my\\ file '], 'my']],
    ['ls "my f', answer('"my f', ['my file'], { filenames: true }), [['"my file" '], '"my f']],
    ["ls 'it", answer("'it", ["it's"], { filenames: true }), [["'it'\\''s' "], "'it"]],
    ['cd ~/d', answer('~/d', ['~/docs/'], { filenames: true }), [['~/docs/'], '~/d']],
    ['cat ', answer('', ['~odd', 'a$b;c'], { filenames: true }), [['a\\$b\\;c', '\\~odd'], '']],
    ['cat e', answer('e', ['evil\x1b]0;owned\x07', 'e\u202eb', 'easy'], { filenames: true }), [['easy '], 'e']],
    ['cat x', answer('other', ['otherwise']), null],
    ['git commit --a', answer('--a', ['--amend', '--all', '--all'], { descriptions: ['--amend  -- amend', '--all    -- stage\tall', 'again'] }), [['--all', '--amend'], '--a', ['--all    -- stage all', '--amend  -- amend']]],
    ['x --c', answer('--c', ['--color', '--cc'], { descriptions: ['--color  -- \x1b]0;owned\x07 \u202eok', ''] }), [['--cc', '--color'], '--c', ['--cc', '--color  -- ^[]0;owned^G \\u202eok']]],
  ])('%j', (line, given, expected) => {
    expect(shellCandidates(given, line)).toEqual(expected);
  });
});
