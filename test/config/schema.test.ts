import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/schema.js';
import { defaultModels } from '../../src/config/default-models.js';
import { DEFAULT_KNOWN_COMMANDS } from '../../src/config/defaults.js';

const builtins = defaultModels({});

describe('resolveConfig', () => {
  it('an empty config gives working defaults', () => {
    const r = resolveConfig({}, builtins);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.default_model).toBe('fast');
    expect(r.config.models.fast!.endpoint).toBe('http://127.0.0.1:8080/v1');
    expect(r.config.shell.confirm_cmd).toBe(true);
    expect(r.config.shell.known_commands).toEqual([...DEFAULT_KNOWN_COMMANDS]);
    expect(r.config.context).toMatchObject({ max_turns: 40, use_tool_role: true, max_summary_chars: 2000 });
    expect(r.config.context.token_budget).toBeUndefined();
    expect(r.config.mcp).toMatchObject({ max_tool_depth: 8, max_result_chars: 16000, auto_approve: [] });
  });

  it('lists every problem by path, including unknown keys', () => {
    const r = resolveConfig(
      {
        models: { fast: { endpoint: 'not a url', model: 'm', temprature: 1 } },
        shell: { confirm_cmd: 'yes', colour: true },
        context: { max_turns: -1 },
        bogus: 1,
      },
      builtins,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const byPath = Object.fromEntries(r.issues.map((i) => [i.path, i.message]));
    expect(byPath['models.fast.endpoint']).toBe('expected a URL (http:// or https://)');
    expect(byPath['models.fast.temprature']).toBe('unknown key');
    expect(byPath['shell.confirm_cmd']).toMatch(/expected boolean/);
    expect(byPath['shell.colour']).toBe('unknown key');
    expect(byPath['context.max_turns']).toBe('expected a number > 0');
    expect(byPath['bogus']).toBe('unknown key');
  });

  it('a missing required key is "required"', () => {
    const r = resolveConfig({ models: { x: { endpoint: 'http://h/v1' } } }, builtins);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toContainEqual({ path: 'models.x.model', message: 'required' });
  });

  it('cross-checks preset names', () => {
    const r = resolveConfig(
      { models: { a: { endpoint: 'http://h/v1', model: 'm' } }, default_model: 'b', routing: { fallback_model: 'cloud' } },
      builtins,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.path)).toEqual(['default_model', 'routing.fallback_model']);
  });

  it('user presets replace the built-in ones; the first becomes the default without "fast"', () => {
    const r = resolveConfig({ models: { local: { endpoint: 'http://h/v1', model: 'm' } } }, builtins);
    expect(r.ok && Object.keys(r.config.models)).toEqual(['local']);
    expect(r.ok && r.config.default_model).toBe('local');
  });

  it('known_commands can be replaced or edited', () => {
    const replaced = resolveConfig({ shell: { known_commands: ['ls'] } }, builtins);
    expect(replaced.ok && replaced.config.shell.known_commands).toEqual(['ls']);
    const edited = resolveConfig({ shell: { known_commands: { add: ['cowsay'], remove: ['find'] } } }, builtins);
    expect(edited.ok && edited.config.shell.known_commands).toContain('cowsay');
    expect(edited.ok && edited.config.shell.known_commands).not.toContain('find');
  });

  it('rejects MCP aliases with "__" and servers with both url and command', () => {
    const r = resolveConfig(
      { mcp: { servers: { a__b: { url: 'http://h/mcp' }, both: { url: 'http://h/mcp', command: 'x' }, aish: { url: 'http://h/mcp' } } } },
      builtins,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.issues.map((i) => i.path);
    expect(paths).toContain('mcp.servers.a__b');
    expect(paths).toContain('mcp.servers.both');
    expect(r.issues).toContainEqual({ path: 'mcp.servers.aish', message: "the alias aish is reserved for aish's built-in tools" });
  });

  it('tools.builtin: true by default, false, or a list of built-in names', () => {
    const ok = (builtin?: unknown) => {
      const r = resolveConfig(builtin === undefined ? {} : { tools: { builtin } }, builtins);
      return r.ok ? r.config.tools.builtin : r.issues;
    };
    expect(ok()).toBe(true);
    expect(ok(false)).toBe(false);
    expect(ok(['aish__list_dir'])).toEqual(['aish__list_dir']);
    expect(ok(['aish__rm'])).toEqual([expect.objectContaining({ path: 'tools.builtin' })]);
  });

  it('roots: none by default; "cwd", false or a list, for every server (mcp.roots) or one', () => {
    const ok = (mcp: Record<string, unknown>) => {
      const r = resolveConfig({ mcp }, builtins);
      return r.ok ? [r.config.mcp.roots, r.config.mcp.servers.fs?.roots] : r.issues;
    };
    const fs = (roots?: unknown) => ({ fs: { command: 'mcp-server-filesystem', args: ['/srv/notes'], ...(roots === undefined ? {} : { roots }) } });
    expect(ok({})).toEqual([false, undefined]);
    // The list written before issue 32 still reads.
    expect(ok({ roots: ['~/notes', '../lib'], servers: fs() })).toEqual([['~/notes', '../lib'], undefined]);
    expect(ok({ roots: 'cwd', servers: fs(false) })).toEqual(['cwd', false]);
    expect(ok({ servers: fs(['/srv/notes']) })).toEqual([false, ['/srv/notes']]);
    expect(ok({ servers: fs(true) })).toEqual([{ path: 'mcp.servers.fs.roots', message: 'expected "cwd", false or a list of directories' }]);
  });

  it('connect_timeout_ms: a server\'s own connect limit, a whole number of milliseconds (issue 36)', () => {
    const limit = (value: unknown) => {
      const r = resolveConfig({ mcp: { servers: { memory: { command: 'npx', args: ['-y', 'x'], connect_timeout_ms: value } } } }, builtins);
      return r.ok ? r.config.mcp.servers.memory?.connect_timeout_ms : r.issues;
    };
    expect(limit(90_000)).toBe(90_000);
    expect(limit(1.5)).toEqual([{ path: 'mcp.servers.memory.connect_timeout_ms', message: 'expected a whole number' }]);
  });
});

describe('defaultModels', () => {
  it('follows OPENAI_BASE_URL, OPENAI_MODEL and sends OPENAI_API_KEY only to that URL', () => {
    const m = defaultModels({ OPENAI_BASE_URL: 'http://box:11434/v1', OPENAI_MODEL: 'qwen' });
    expect(m.fast).toMatchObject({ endpoint: 'http://box:11434/v1', model: 'qwen', key_env: 'OPENAI_API_KEY' });
    expect(defaultModels({}).fast!.key_env).toBeUndefined();
  });
});

describe("the original's config shapes and seed 002's defaults", () => {
  const resolve = (data: Record<string, unknown>) => {
    const r = resolveConfig(data, defaultModels({}));
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    return r.config;
  };
  const presets = (...names: string[]) => Object.fromEntries(names.map((n) => [n, { endpoint: 'http://127.0.0.1:9/v1', model: n }]));

  it('mcp.auto_approve takes the seed map { name: true } as well as a list; false entries approve nothing', () => {
    expect(resolve({ mcp: { auto_approve: { fs__read: true, 'web__*': true, fs__rm: false } } }).mcp.auto_approve).toEqual(['fs__read', 'web__*']);
    expect(resolve({ mcp: { auto_approve: ['fs__read'] } }).mcp.auto_approve).toEqual(['fs__read']);
    const bad = resolveConfig({ mcp: { auto_approve: 'fs__read' } }, defaultModels({}));
    expect(bad.ok).toBe(false);
  });

  it.each<[string, string[], Record<string, string>]>([
    ['deep and cloud exist', ['fast', 'deep', 'cloud'], { code: 'deep', reasoning: 'cloud' }],
    ['only deep exists', ['fast', 'deep'], { code: 'deep' }],
    ['neither exists', ['fast'], {}],
  ])('routing.classes defaults when unset: %s', (_name, names, classes) => {
    expect(resolve({ models: presets(...names) }).routing.classes).toEqual(classes);
  });

  it('routing.classes written out replaces the defaults', () => {
    expect(resolve({ models: presets('fast', 'deep', 'cloud'), routing: { classes: { code: 'fast' } } }).routing.classes).toEqual({ code: 'fast' });
  });

  it('routing.fallback_model defaults to cloud when that preset exists', () => {
    expect(resolve({ models: presets('fast', 'cloud') }).routing.fallback_model).toBe('cloud');
    expect(resolve({ models: presets('fast') }).routing.fallback_model).toBeUndefined();
    expect(resolve({ models: presets('fast', 'cloud', 'other'), routing: { fallback_model: 'other' } }).routing.fallback_model).toBe('other');
  });

  it('context.summarizer_model defaults to fast, else the default preset', () => {
    expect(resolve({ models: presets('fast', 'big'), default_model: 'big' }).context.summarizer_model).toBe('fast');
    expect(resolve({ models: presets('small', 'big'), default_model: 'big' }).context.summarizer_model).toBe('big');
  });

  it('memory.summarizer_model (seed 002) names a preset; without it :memory summarize uses context.summarizer_model', () => {
    expect(resolve({ models: presets('fast', 'small'), memory: { summarizer_model: 'small' } }).memory.summarizer_model).toBe('small');
    expect(resolve({ models: presets('fast', 'big'), context: { summarizer_model: 'big' } }).memory.summarizer_model).toBe('big');
    expect(resolve({ models: presets('small', 'big'), default_model: 'big' }).memory.summarizer_model).toBe('big');
    const r = resolveConfig({ models: presets('fast'), memory: { summarizer_model: 'nope' } }, builtins);
    expect(r.ok ? [] : r.issues).toEqual([{ path: 'memory.summarizer_model', message: 'no preset named "nope" (presets: fast)' }]);
  });

  it('suggest.model is off by default; true, or a preset that exists, turns it on; idle_ms is bounded', () => {
    expect(resolve({ models: presets('fast') }).suggest).toEqual({ model: false, idle_ms: 400 });
    expect(resolve({ models: presets('fast', 'small'), suggest: { model: 'small', idle_ms: 150 } }).suggest).toEqual({ model: 'small', idle_ms: 150 });
    const issues = (data: unknown) => {
      const r = resolveConfig(data, builtins);
      return r.ok ? [] : r.issues;
    };
    expect(issues({ models: presets('fast'), suggest: { model: 'nope' } })).toEqual([{ path: 'suggest.model', message: 'no preset named "nope" (presets: fast)' }]);
    expect(issues({ suggest: { idle_ms: 10 } })).toEqual([{ path: 'suggest.idle_ms', message: 'expected a number from 50 to 10000' }]);
    expect(issues({ suggest: { model: 3 } })).toEqual([{ path: 'suggest.model', message: 'expected true, false or a preset name' }]);
  });
});

describe('the messages of every kind of problem', () => {
  const issuesOf = (data: unknown) => {
    const r = resolveConfig(data, builtins);
    if (r.ok) throw new Error('expected the config to be rejected');
    return Object.fromEntries(r.issues.map((i) => [i.path, i.message]));
  };

  it('names every unknown key of one object, each on its own line', () => {
    expect(issuesOf({ shell: { colour: 1, beep: 2, confirm_cmd: true }, nope: 1, nada: 2 })).toEqual({
      'shell.colour': 'unknown key',
      'shell.beep': 'unknown key',
      nope: 'unknown key',
      nada: 'unknown key',
    });
  });

  it('takes no array for an object of keys (valibot alone would read [] as an object with none)', () => {
    expect(issuesOf({ mcp: [], shell: [1], models: { fast: [] } })).toEqual({
      mcp: 'expected object, received array',
      shell: 'expected object, received array',
      'models.fast': 'expected object, received array',
    });
  });

  it('names keys valibot would pass over (constructor, __proto__, prototype) as unknown', () => {
    expect(issuesOf(JSON.parse('{"constructor": 1, "shell": {"__proto__": {"x": 1}, "prototype": 2}}'))).toEqual({
      constructor: 'unknown key',
      'shell.__proto__': 'unknown key',
      'shell.prototype': 'unknown key',
    });
  });

  it('says a type mismatch as "expected X, received Y", and a bad choice as the choices', () => {
    expect(
      issuesOf({
        shell: { confirm_cmd: 'yes', prompt: 3 },
        context: 'big',
        mcp: { sampling: 'maybe', elicitation: null, roots: 'here' },
      }),
    ).toEqual({
      'shell.confirm_cmd': 'expected boolean, received string',
      'shell.prompt': 'expected string, received number',
      context: 'expected object, received string',
      'mcp.sampling': 'expected one of "deny", "allow"',
      'mcp.elicitation': 'expected one of "decline", "defaults"',
      'mcp.roots': 'expected "cwd", false or a list of directories',
    });
  });

  it('reports problems in several sections and presets at once', () => {
    expect(
      issuesOf({
        models: { 'bad name': { endpoint: 'ftp://h', model: '' }, ok: { endpoint: 'http://h/v1', model: 'm', timeout_ms: 1.5, temperature: 3 } },
        norris: { max_steps: 0 },
        routing: { classes: { code: 'ok', poetry: 'ok' } },
      }),
    ).toEqual({
      'models.bad name': 'preset names use letters, digits, _ . -',
      'models.bad name.endpoint': 'expected a URL (http:// or https://)',
      'models.bad name.model': 'expected a non-empty string',
      'models.ok.timeout_ms': 'expected a whole number',
      'models.ok.temperature': 'expected a number from 0 to 2',
      'norris.max_steps': 'expected a number > 0',
      'routing.classes.poetry': 'unknown key',
    });
  });

  it('gives each union its own message, and a list of built-ins names the unknown one', () => {
    expect(
      issuesOf({
        shell: { known_commands: 'ls' },
        mcp: { auto_approve: 7 },
        models: { fast: { endpoint: 'http://h/v1', model: 'm', tool_choice: 'always' } },
        tools: { builtin: 'all' },
      }),
    ).toEqual({
      'shell.known_commands': 'expected a list of strings or { add: [...], remove: [...] }',
      'mcp.auto_approve': 'expected a list of tool names or a map of tool name → true',
      'models.fast.tool_choice': 'expected "auto", "none", "required" or { type: "function", function: { name } }',
      'tools.builtin': 'expected true, false or a list of aish__current_date, aish__read_file, aish__list_dir, aish__find_tools',
    });
  });

  it('puts the checks of an MCP server at the key they are about', () => {
    expect(
      issuesOf({
        mcp: {
          servers: {
            neither: {},
            'sp ace': { command: 'x' },
            web: { command: 'x', oauth: {} },
            cc: { url: 'http://h/mcp', oauth: { grant: 'client_credentials' } },
          },
        },
      }),
    ).toEqual({
      'mcp.servers.neither': 'expected exactly one of `url` (HTTP) or `command` (stdio)',
      'mcp.servers.sp ace': 'aliases use letters, digits, _ and -',
      'mcp.servers.web.oauth': '`oauth` applies to HTTP servers (`url`)',
      'mcp.servers.cc.oauth.client_id': 'the client_credentials grant needs `client_id`',
    });
  });
});
