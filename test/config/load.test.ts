import { mkdirSync, writeFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { CONFIG_SEARCH_PLACES, findConfigFiles, loadConfig, originOf, readConfigData, type ConfigFile } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../support/temp-dir.js';

let home: string;
let project: string;

beforeEach(() => {
  home = realpathSync(tempDir('aish-config-'));
  project = path.join(home, 'code', 'project');
  mkdirSync(project, { recursive: true });
});

/** Loads as main.ts does, every project config trusted (trust itself is tested below). */
const load = (extra: { configPath?: string; cwd?: string } = {}) =>
  loadConfig({ cwd: extra.cwd ?? project, env: {}, stopDir: home, configPath: extra.configPath, trust: () => 'use' });

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

// The search is aish's own (cosmiconfig's would read and run a meta config of the cwd); it must find
// what cosmiconfig finds, in the same order, with the same data.
describe('the config search agrees with cosmiconfig', () => {
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
  const aishFinds = async () => {
    const first = findConfigFiles(project, home, { XDG_CONFIG_HOME: xdg() }).next();
    if (first.done) return null;
    if ('reason' in first.value) return `refused: ${first.value.reason}`;
    return { config: await readConfigData(first.value), filepath: first.value.path };
  };
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  // cosmiconfig reads the global dir from XDG_CONFIG_HOME (and its meta config in the process's cwd).
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

  const layouts: Array<[string, () => void]> = [
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
    ['YAML .aishrc', () => write(path.join(project, '.aishrc'), 'ui:\n  show_stats: true\n')],
    ['a JS config in the parent', () => write(path.join(home, 'code', 'aish.config.mjs'), 'export default { a: 1 };\n')],
    ['a YAML global config', () => write(path.join(xdg(), 'aish', 'config.yaml'), 'a: 1\n')],
  ];
  it.each(layouts)('%s: the same file and data', async (_label, layout) => {
    layout();
    expect(await aishFinds()).toEqual(await cosmiconfigFinds());
  });

  it('a JSON syntax error names the file', async () => {
    write(path.join(project, '.aishrc.json'), '{ "ui": ');
    await expect(aishFinds()).rejects.toThrow(/\.aishrc\.json/);
  });

  it.each([
    ['.config/config.js', 'require("node:fs").writeFileSync(process.env.MARKER, "ran"); module.exports = { searchPlaces: ["evil.json"] };'],
    ['package.json', '{"name":"x","cosmiconfig":{"searchPlaces":["evil.json"]}}'],
  ])('a cosmiconfig meta config in the cwd (%s) is neither run nor obeyed', async (name, text) => {
    const marker = path.join(home, 'meta-ran');
    process.env.MARKER = marker;
    try {
      write(path.join(project, name), text);
      write(path.join(project, 'evil.json'), '{"evil":true}');
      write(path.join(project, '.aishrc.json'), '{"ui":{"show_stats":true}}');
      const r = await load();
      expect(r.file).toBe(path.join(project, '.aishrc.json'));
      expect(existsSync(marker)).toBe(false);
    } finally {
      delete process.env.MARKER;
    }
  });
});

describe('project configs and trust', () => {
  const xdgDir = () => path.join(home, 'xdg');
  const env = () => ({ XDG_CONFIG_HOME: xdgDir() });
  const own = () => {
    mkdirSync(path.join(xdgDir(), 'aish'), { recursive: true });
    writeFileSync(path.join(xdgDir(), 'aish', 'config.json'), JSON.stringify({ ui: { show_stats: true } }));
  };

  it.each([
    ['a file in the global config dir', () => path.join(xdgDir(), 'aish', 'config.json'), 'own'],
    ['a dot file directly in HOME', () => path.join(home, '.aishrc.json'), 'own'],
    ['a file in the cwd under HOME', () => path.join(project, '.aishrc.json'), 'project'],
    ['a file in a parent below HOME', () => path.join(home, 'code', 'aish.config.ts'), 'project'],
    ['a file above HOME', () => path.join(path.dirname(home), '.aishrc.json'), 'project'],
    ['a file in a folder of HOME named like the global dir', () => path.join(home, 'aish', 'config.json'), 'project'],
  ])('%s is %s', (_label, file, origin) => {
    expect(originOf(file(), { home, globalDir: path.join(xdgDir(), 'aish') })).toBe(origin);
  });

  it('an ignored project config falls back to the person\'s own, and names the one ignored', async () => {
    own();
    writeFileSync(path.join(project, '.aishrc.json'), JSON.stringify({ permissions: { allow: ['*'] } }));
    const seen: ConfigFile[] = [];
    const r = await loadConfig({ cwd: project, env: env(), stopDir: home, trust: (file) => (seen.push(file), 'ignore') });
    expect(seen.map((f) => [f.path, f.origin])).toEqual([[path.join(project, '.aishrc.json'), 'project']]);
    expect(r.file).toBe(path.join(xdgDir(), 'aish', 'config.json'));
    expect(r.ignored).toEqual([path.join(project, '.aishrc.json')]);
    expect(r.config.permissions.allow).toEqual([]);
    expect(r.config.ui.show_stats).toBe(true);
  });

  it('without a trust decision every project config is ignored; the own config and --config are never asked about', async () => {
    own();
    writeFileSync(path.join(project, '.aishrc.json'), '{}');
    writeFileSync(path.join(home, 'code', '.aishrc.json'), '{}');
    const r = await loadConfig({ cwd: project, env: env(), stopDir: home });
    expect(r.ignored).toEqual([path.join(project, '.aishrc.json'), path.join(home, 'code', '.aishrc.json')]);
    expect(r.file).toBe(path.join(xdgDir(), 'aish', 'config.json'));
    const given = path.join(project, '.aishrc.json');
    const asked: string[] = [];
    const g = await loadConfig({ cwd: project, env: env(), stopDir: home, configPath: given, trust: (f) => (asked.push(f.path), 'ignore') });
    expect(g.file).toBe(given);
    expect(asked).toEqual([]);
  });

  it('a code config is not run before trust, and runs from the bytes trust was decided on', async () => {
    const marker = path.join(home, 'ts-ran');
    const file = path.join(project, 'aish.config.ts');
    writeFileSync(file, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { context: { max_turns: 3 } };\n`);
    const r = await loadConfig({ cwd: project, env: env(), stopDir: home, trust: () => 'ignore' });
    expect(r.file).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
    // The file changes after its bytes were read and trusted: what runs is what was trusted.
    const t = await loadConfig({
      cwd: project,
      env: env(),
      stopDir: home,
      trust: (f) => {
        writeFileSync(file, 'export default { context: { max_turns: 99 } };\n');
        return f.text.includes('max_turns: 3') ? 'use' : 'ignore';
      },
    });
    expect(t.config.context.max_turns).toBe(3);
    expect(existsSync(marker)).toBe(true);
  });
});
