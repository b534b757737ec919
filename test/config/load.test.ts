import { mkdirSync, writeFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../support/temp-dir.js';

let home: string;
let project: string;

beforeEach(() => {
  home = realpathSync(tempDir('aish-config-'));
  project = path.join(home, 'code', 'project');
  mkdirSync(project, { recursive: true });
});

const load = (extra: { configPath?: string; cwd?: string } = {}) =>
  loadConfig({ cwd: extra.cwd ?? project, env: {}, stopDir: home, configPath: extra.configPath });

describe('loadConfig', () => {
  it('no file anywhere: built-in defaults', async () => {
    const r = await load();
    expect(r.file).toBeUndefined();
    expect(r.config.default_model).toBe('fast');
  });

  it('finds .aishrc.json upward from the cwd', async () => {
    writeFileSync(path.join(home, 'code', '.aishrc.json'), JSON.stringify({ shell: { confirm_cmd: false } }));
    const r = await load();
    expect(r.file).toBe(path.join(home, 'code', '.aishrc.json'));
    expect(r.config.shell.confirm_cmd).toBe(false);
  });

  it('reads YAML .aishrc.yaml', async () => {
    writeFileSync(path.join(project, '.aishrc.yaml'), 'context:\n  max_turns: 12\n');
    expect((await load()).config.context.max_turns).toBe(12);
  });

  it('loads aish.config.mjs', async () => {
    writeFileSync(path.join(project, 'aish.config.mjs'), 'export default { history: { dir: "/tmp/h" } };\n');
    expect((await load()).config.history.dir).toBe('/tmp/h');
  });

  it('--config is strict: a missing file is an error', async () => {
    await expect(load({ configPath: 'nope.json' })).rejects.toThrow(ConfigError);
    await expect(load({ configPath: 'nope.json' })).rejects.toThrow(/file not found/);
  });

  it('--config loads exactly that file', async () => {
    const file = path.join(home, 'elsewhere.json');
    writeFileSync(file, JSON.stringify({ ui: { show_stats: true } }));
    const r = await load({ configPath: file });
    expect(r.file).toBe(file);
    expect(r.config.ui.show_stats).toBe(true);
  });

  it('a syntax error names the file', async () => {
    writeFileSync(path.join(project, '.aishrc.json'), '{ "shell": ');
    const err = await load().catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain('.aishrc.json');
  });

  it('a bad value lists every problem by path', async () => {
    writeFileSync(path.join(project, '.aishrc.json'), JSON.stringify({ shell: { confirm_cmd: 1, nope: 2 }, mcp: { max_tool_depth: 0 } }));
    const err = (await load().catch((e) => e)) as ConfigError;
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.issues.map((i) => i.path).sort()).toEqual(['mcp.max_tool_depth', 'shell.confirm_cmd', 'shell.nope']);
    expect(err.message).toMatch(/3 problems/);
  });

  it('a top-level array is refused', async () => {
    writeFileSync(path.join(project, '.aishrc.json'), '[1,2]');
    await expect(load()).rejects.toThrow(/expected an object at the top level/);
  });
});
