import { mkdirSync, writeFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_SEARCH_PLACES, loadConfig, quickSearch } from '../../src/config/load.js';
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

// The search is made without cosmiconfig when it ends in a JSON file or in none (start-up time,
// docs/performance.md); it must find what cosmiconfig finds, and hand everything else to it.
describe('the quick config search agrees with cosmiconfig', () => {
  const xdg = () => path.join(home, 'xdg');
  const cosmiconfigFinds = async () => {
    const { cosmiconfig } = await import('cosmiconfig');
    const ts = async () => ({});
    const explorer = cosmiconfig('aish', { searchPlaces: CONFIG_SEARCH_PLACES, searchStrategy: 'global', stopDir: home, cache: false, loaders: { '.ts': ts, '.mts': ts, '.cts': ts } });
    return explorer.search(project).then(
      (r) => (r ? { config: r.config, filepath: r.filepath } : null),
      (err: Error) => `error: ${err.message}`,
    );
  };
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  // cosmiconfig reads its meta config (package.json, .config/config.*) in the process's cwd, and the
  // global dir from XDG_CONFIG_HOME: both are the test's own here, as main.ts passes them.
  let saved: { xdg: string | undefined; cwd: string };
  beforeEach(() => {
    saved = { xdg: process.env.XDG_CONFIG_HOME, cwd: process.cwd() };
    process.env.XDG_CONFIG_HOME = xdg();
    process.chdir(project);
  });
  afterEach(() => {
    process.chdir(saved.cwd);
    if (saved.xdg === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved.xdg;
  });

  const quickLayouts: Array<[string, () => void]> = [
    ['no file anywhere', () => {}],
    ['.aishrc.json in the cwd', () => write(path.join(project, '.aishrc.json'), '{"ui":{"show_stats":true}}')],
    ['the cwd before its parent', () => {
      write(path.join(home, 'code', 'aish.config.json'), '{"a":1}');
      write(path.join(project, '.aishrc.json'), '{"b":2}');
    }],
    ['aish.config.json before .aishrc.json in one dir', () => {
      write(path.join(project, '.aishrc.json'), '{"b":2}');
      write(path.join(project, 'aish.config.json'), '{"a":1}');
    }],
    ['a blank file is passed over', () => {
      write(path.join(project, 'aish.config.json'), ' \n');
      write(path.join(home, '.aishrc.json'), '{"home":true}');
    }],
    ['a directory where a file could be is passed over', () => {
      mkdirSync(path.join(project, '.aishrc.json'));
      write(path.join(home, 'code', '.aishrc.json'), '{"up":1}');
    }],
    ['the global config.json last', () => write(path.join(xdg(), 'aish', 'config.json'), '{"global":true}')],
    ['a top-level array is still a find', () => write(path.join(project, '.aishrc.json'), '[1]')],
  ];
  it.each(quickLayouts)('%s: found without cosmiconfig, the same file and data', async (_label, layout) => {
    layout();
    const quick = await quickSearch(project, home, { XDG_CONFIG_HOME: xdg() });
    expect(quick).not.toBe('cosmiconfig');
    expect(quick).toEqual(await cosmiconfigFinds());
  });

  const handedOver: Array<[string, () => void]> = [
    ['YAML .aishrc', () => write(path.join(project, '.aishrc'), 'ui:\n  show_stats: true\n')],
    ['a JS config in the parent', () => write(path.join(home, 'code', 'aish.config.mjs'), 'export default {};\n')],
    ['a JSON syntax error', () => write(path.join(project, '.aishrc.json'), '{ "ui": ')],
    ['JSON with $import', () => {
      write(path.join(project, 'base.json'), '{"ui":{"show_stats":true}}');
      write(path.join(project, '.aishrc.json'), '{"$import":"base.json"}');
    }],
    ['JSON null', () => write(path.join(project, '.aishrc.json'), 'null')],
    ['a YAML global config', () => write(path.join(xdg(), 'aish', 'config.yaml'), 'a: 1\n')],
    ['a package.json in the cwd (cosmiconfig meta config)', () => {
      write(path.join(project, 'package.json'), '{"name":"x"}');
      write(path.join(project, '.aishrc.json'), '{}');
    }],
    ['a .config/config.json in the cwd (cosmiconfig meta config)', () => write(path.join(project, '.config', 'config.json'), '{"cosmiconfig":{}}')],
  ];
  it.each(handedOver)('%s: handed to cosmiconfig', async (_label, layout) => {
    layout();
    expect(await quickSearch(project, home, { XDG_CONFIG_HOME: xdg() })).toBe('cosmiconfig');
  });

  it('loadConfig gives the same config either way', async () => {
    write(path.join(project, '.aishrc.json'), JSON.stringify({ context: { max_turns: 12 } }));
    const quick = await load();
    rmSync(path.join(project, '.aishrc.json'));
    write(path.join(project, '.aishrc.yaml'), 'context:\n  max_turns: 12\n');
    const slow = await load();
    expect(quick.config).toEqual(slow.config);
  });
});
