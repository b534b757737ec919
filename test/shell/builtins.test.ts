import { mkdirSync, writeFileSync, realpathSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { matchBuiltin, runBuiltin, type ShellState } from '../../src/shell/builtins.js';
import { tempDir } from '../support/temp-dir.js';

let root: string;
let state: ShellState;

beforeEach(() => {
  root = realpathSync(tempDir('aish-builtins-'));
  mkdirSync(path.join(root, 'sub dir'));
  mkdirSync(path.join(root, 'home'));
  writeFileSync(path.join(root, 'file.txt'), 'x');
  state = { cwd: root, oldpwd: undefined, env: { HOME: path.join(root, 'home'), NAME: 'sub' } };
});

describe('matchBuiltin', () => {
  it.each([
    ['cd', { name: 'cd', rest: '' }],
    ['cd /tmp', { name: 'cd', rest: '/tmp' }],
    ['export A=1 B=2', { name: 'export', rest: 'A=1 B=2' }],
    ['unset A', { name: 'unset', rest: 'A' }],
    ['cd /tmp && ls', null],
    ['cd $(mktemp -d)', null],
    ['export', null],
    ['cdrom', null],
    ['echo cd', null],
  ])('%j', (line, expected) => {
    expect(matchBuiltin(line)).toEqual(expected);
  });
});

describe('cd', () => {
  it('goes HOME when bare, and ~ expands', async () => {
    expect(await runBuiltin('cd', '', state)).toEqual({ status: 0 });
    expect(state.cwd).toBe(path.join(root, 'home'));
    state.cwd = root;
    await runBuiltin('cd', '~', state);
    expect(state.cwd).toBe(path.join(root, 'home'));
  });

  it('resolves relative paths, quotes and variables like a shell', async () => {
    await runBuiltin('cd', '"sub dir"', state);
    expect(state.cwd).toBe(path.join(root, 'sub dir'));
    await runBuiltin('cd', '..', state);
    expect(state.cwd).toBe(root);
    await runBuiltin('cd', '"$NAME dir"', state);
    expect(state.cwd).toBe(path.join(root, 'sub dir'));
    expect(state.env.PWD).toBe(path.join(root, 'sub dir'));
  });

  it('cd - returns to the previous directory and prints it', async () => {
    await runBuiltin('cd', '/tmp', state);
    const back = await runBuiltin('cd', '-', state);
    expect(back).toEqual({ status: 0, output: root });
    expect(state.cwd).toBe(root);
    expect(state.env.OLDPWD).toBe('/tmp');
  });

  it.each([
    ['/definitely/missing', 'cd: no such file or directory: /definitely/missing'],
    ['file.txt', 'cd: not a directory: file.txt'],
    ['a b', 'cd: too many arguments'],
  ])('%j fails clearly and keeps the cwd', async (arg, message) => {
    const result = await runBuiltin('cd', arg, state);
    expect(result).toEqual({ status: 1, error: message });
    expect(state.cwd).toBe(root);
  });

  it('cd - without a previous directory fails', async () => {
    expect(await runBuiltin('cd', '-', state)).toEqual({ status: 1, error: 'cd: OLDPWD not set' });
  });

  it.runIf(process.getuid?.() !== 0)('reports permission denied (not as root)', async () => {
    const locked = path.join(root, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o000);
    expect(await runBuiltin('cd', 'locked', state)).toEqual({ status: 1, error: 'cd: permission denied: locked' });
  });
});

describe('export and unset', () => {
  it('sets, expands and removes variables', async () => {
    expect(await runBuiltin('export', 'A=1 B="two words" C=$NAME-x', state)).toEqual({ status: 0 });
    expect(state.env).toMatchObject({ A: '1', B: 'two words', C: 'sub-x' });
    await runBuiltin('unset', 'A B', state);
    expect(state.env.A).toBeUndefined();
    expect(state.env.B).toBeUndefined();
    expect(state.env.C).toBe('sub-x');
  });

  it('rejects invalid identifiers', async () => {
    expect(await runBuiltin('export', '1A=x', state)).toEqual({ status: 1, error: 'export: not a valid identifier: 1A' });
    expect(await runBuiltin('unset', 'A-B', state)).toEqual({ status: 1, error: 'unset: not a valid identifier: A-B' });
  });
});
