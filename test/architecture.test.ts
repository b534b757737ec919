// The shape of src/ (SPEC §1, STYLE.md, docs/architecture.md): every folder imports only the
// folders below it in the table, no file takes part in an import cycle (type-only imports
// included), only the files of PROCESS_FILES touch `process`, the context store and the turn core
// do no I/O of their own, and the broker loads its HTTP client and SSE parser lazily.
// docs/architecture.md states the table and the process rule too; the tests hold it to them.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/aish-env.js';

const SRC = path.join(ROOT, 'src');

/**
 * What each unit of src/ (a folder, or a top-level file) may import from the rest of src/. Leaves
 * import nothing of ours. Read bottom-up: a unit appears only after everything it may use.
 */
const LAYERS: Record<string, readonly string[]> = {
  errors: [],
  io: [],
  'is-record': [],
  'cmd-contract': [],
  'tool-call': [],
  // Text grown by many small pieces (a streamed reply), kept as a few flat strings.
  'text-buffer': [],
  // Where a program is on PATH (the clipboard tool, bubblewrap).
  'find-on-path': [],
  // The system clipboard: a tool on PATH or OSC 52.
  clipboard: ['find-on-path'],
  // Writes to a standard stream's descriptor before Node's stream for it is set up.
  'fd-write': [],
  // isatty without node:tty, and a piped input's first bytes without process.stdin (start-up).
  'is-terminal': [],
  'pipe-peek': [],
  // Loads aish's own bundles with V8's code cache; the V8 flags the caches are made with.
  'code-cache': [],
  'v8-flags': [],
  // The built program's way to the MCP SDK, zod and ajv (dist/vendor.js).
  'vendor-load': ['code-cache'],
  // Writes a file only its owner may read, whole (temp file, then rename).
  'private-file': [],
  // Reads a small regular file without blocking: a project's config candidate, a shell's history.
  'small-file': [],
  config: ['errors', 'is-record', 'private-file', 'small-file'],
  // Checkpoints of a tree in a shadow git repository, and putting its files back (`:undo`).
  undo: ['config', 'errors', 'private-file'],
  cli: ['errors'],
  // The broker knows nothing of MCP, tools, turns or rendering.
  broker: ['config', 'errors', 'is-record', 'text-buffer'],
  // MCP sessions know nothing of the broker or the turn core.
  mcp: ['config', 'errors', 'is-record', 'private-file', 'tool-call'],
  'line-router': ['config'],
  'model-routing': ['broker'],
  context: ['broker', 'errors', 'is-record'],
  safety: ['config', 'tool-call'],
  // The rules that find secrets by shape, loaded when first needed (dist/secret-rules.js).
  'secret-rules': ['code-cache', 'safety'],
  history: ['context', 'errors', 'is-record', 'private-file'],
  shell: ['config', 'context', 'find-on-path', 'line-router', 'small-file'],
  memory: ['broker', 'config', 'context', 'errors', 'history', 'is-record', 'safety'],
  // The current directory's git work tree: the [project] block, @file mentions, git diff.
  project: ['config', 'errors', 'shell'],
  // Every command's output as a numbered block, `@out` mentions of them, which are private.
  blocks: ['errors', 'project', 'safety'],
  // The turn core: where the broker's replies, the gate and the context meet. No MCP, no terminal.
  turn: ['broker', 'cmd-contract', 'config', 'context', 'errors', 'history', 'is-record', 'model-routing', 'safety', 'text-buffer', 'tool-call'],
  // Tool hosts: the MCP registry (and later built-ins) seen as the turn core's ToolHost.
  tools: ['broker', 'mcp', 'safety', 'turn', 'tool-call'],
  // The autonomous loop and its sandbox. Not project/: the box's tree comes from the folders, never
  // from git, whose answer the repository's config can move (issue 32).
  norris: ['broker', 'cmd-contract', 'config', 'errors', 'find-on-path', 'safety', 'tool-call', 'turn', 'undo'],
  // A command in a throwaway copy-on-write view (user and mount namespaces, overlays, the box's bwrap).
  preview: ['find-on-path', 'norris', 'project', 'safety', 'shell'],
  // aish's line editor: the keys, the kill ring, the history and the drawing of the line (pure).
  line: [],
  // Everything a person sees; it draws the events of the layers below and produces none.
  render: ['cmd-contract', 'io', 'preview', 'shell', 'text-buffer', 'tool-call', 'turn'],
  // Project trust: the question about a project config, at start-up and for :trust.
  trust: ['config', 'errors', 'render'],
  meta: ['blocks', 'clipboard', 'config', 'errors', 'history', 'line-router', 'mcp', 'memory', 'model-routing', 'norris', 'project', 'render', 'safety', 'shell', 'trust', 'turn', 'undo'],
  repl: ['blocks', 'broker', 'config', 'errors', 'history', 'io', 'line', 'line-router', 'mcp', 'memory', 'meta', 'norris', 'project', 'render', 'safety', 'shell', 'turn', 'undo'],
  // What runs before the program is loaded: the config, the first prompt (or the first input).
  front: ['cli', 'config', 'errors', 'io', 'render', 'repl', 'safety'],
  // How aish ends (signals, lost streams, the exit), from the start-up file on.
  shutdown: ['errors', 'is-terminal'],
  // The one way a session is built, for the REPL and -p alike.
  'build-session': ['blocks', 'config', 'context', 'history', 'io', 'mcp', 'memory', 'norris', 'preview', 'project', 'render', 'repl', 'safety', 'secret-rules', 'shell', 'tools', 'turn', 'undo'],
  'one-shot': ['broker', 'build-session', 'cmd-contract', 'config', 'errors', 'io', 'mcp', 'project', 'render', 'shell', 'turn'],
  app: ['build-session', 'config', 'errors', 'history', 'io', 'mcp', 'memory', 'meta', 'render', 'repl', 'turn'],
  main: ['app', 'cli', 'config', 'errors', 'front', 'history', 'io', 'mcp', 'one-shot', 'render', 'safety', 'secret-rules', 'shutdown', 'trust'],
  // The second start-up file: V8 flags, shutdown, the front, then main.ts.
  start: ['cli', 'code-cache', 'errors', 'fd-write', 'front', 'is-terminal', 'main', 'pipe-peek', 'shutdown', 'v8-flags'],
  // The CommonJS start-up file: --help, --version and a bad flag, then start.ts.
  entry: ['cli', 'code-cache', 'errors', 'fd-write', 'start'],
};

interface Import {
  from: string;
  /** Resolved path under src/, or the bare specifier for packages and node: modules. */
  target: string;
  internal: boolean;
  typeOnly: boolean;
  lazy: boolean;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const files = walk(SRC).map((f) => path.relative(SRC, f));

function importsOf(file: string): Import[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean, lazy: boolean) => {
    const internal = specifier.startsWith('.');
    const target = internal ? path.normalize(path.join(path.dirname(file), specifier)).replace(/\.js$/, '.ts') : specifier;
    found.push({ from: file, target, internal, typeOnly, lazy });
  };
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'/gm)) add(m[2]!, Boolean(m[1]), false);
  for (const m of text.matchAll(/^import\s+'([^']+)'/gm)) add(m[1]!, false, false);
  for (const m of text.matchAll(/import\('([^']+)'\)/g)) add(m[1]!, false, true);
  return found;
}

/** `broker/stream.ts` → `broker`; `app.ts` → `app`. */
function unitOf(file: string): string {
  const [first, second] = file.split(path.sep);
  return second === undefined ? first!.replace(/\.ts$/, '') : first!;
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** The units of each row of docs/architecture.md's table: `config/` → config, `app.ts` → app. */
function docTable(): string[][] {
  const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const rows: string[][] = [];
  for (const line of doc.split('\n')) {
    const first = /^\| ([^|]*`[^|]*) \|/.exec(line)?.[1];
    if (!first) continue;
    rows.push([...first.matchAll(/`([\w-]+)(?:\.ts|\/)`/g)].map((m) => m[1]!));
  }
  return rows;
}

/** The files that may touch `process`; docs/architecture.md names the same ones. */
const PROCESS_FILES = ['main.ts', 'entry.ts', 'start.ts', 'shutdown.ts', 'code-cache.ts'];

describe('layers', () => {
  it('names every unit of src/ in the table', () => {
    const units = [...new Set(files.map(unitOf))].sort();
    expect(units).toEqual(Object.keys(LAYERS).sort());
  });

  it('lists each unit only after what it may import', () => {
    const order = Object.keys(LAYERS);
    for (const [unit, allowed] of Object.entries(LAYERS)) {
      for (const dep of allowed) expect(order.indexOf(dep), `${unit} → ${dep}`).toBeLessThan(order.indexOf(unit));
    }
  });

  it('docs/architecture.md has the same table, each row after every unit it may import', () => {
    const seen: string[] = [];
    for (const row of docTable()) {
      for (const unit of row) {
        expect(LAYERS, `docs/architecture.md names ${unit}`).toHaveProperty(unit);
        for (const dep of LAYERS[unit]!) expect(seen, `docs/architecture.md lists ${unit} before ${dep}, which it imports`).toContain(dep);
      }
      seen.push(...row);
    }
    expect(seen.sort()).toEqual(Object.keys(LAYERS).sort());
  });

  it.each(files)('%s imports only from the layers below it', (file) => {
    const unit = unitOf(file);
    const allowed = LAYERS[unit] ?? [];
    for (const imp of graph.get(file)!) {
      if (!imp.internal) continue;
      const dep = unitOf(imp.target);
      if (dep === unit) continue;
      expect(allowed, `${file} imports ${imp.target}`).toContain(dep);
    }
  });
});

describe('no import cycle', () => {
  it('has none between files, type-only imports included', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      stack.push(file);
      for (const imp of graph.get(file) ?? []) {
        if (!imp.internal || !graph.has(imp.target)) continue;
        const s = state.get(imp.target);
        if (s === 'open') cycles.push([...stack.slice(stack.indexOf(imp.target)), imp.target].join(' → '));
        else if (s === undefined) visit(imp.target);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('resolves every relative import to a file (so the check above sees them all)', () => {
    for (const [, imports] of graph) {
      for (const imp of imports) if (imp.internal) expect(graph.has(imp.target), `${imp.from} → ${imp.target}`).toBe(true);
    }
  });
});

/** Every package or node: module that loading `file` loads, through static, non-type imports. */
function staticPackages(file: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const imp of graph.get(f) ?? []) {
      if (imp.typeOnly || imp.lazy) continue;
      if (imp.internal) visit(imp.target);
      else packages.add(imp.target);
    }
  };
  visit(file);
  return packages;
}

// docs/performance.md "The prompt first": what each start-up step loads is measured; these are
// the packages that cost tens of milliseconds at import, kept to the paths that need them.
describe('what start-up loads', () => {
  const heavy = (p: string) => /^(zod|@modelcontextprotocol\/sdk|ajv|undici|cosmiconfig|highlight\.js|string-width|jiti)(\/|$)/.test(p);

  it('the start-up files load none of the heavy packages, and chalk only on a terminal (lazily)', () => {
    for (const file of ['entry.ts', 'start.ts', 'front.ts']) expect([...staticPackages(file)].filter(heavy), file).toEqual([]);
    expect(staticPackages('front.ts').has('chalk')).toBe(false);
  });

  it('the interactive program loads none of them before a line needs one: the MCP SDK and zod come with the first server', () => {
    expect([...staticPackages('app.ts')].filter(heavy)).toEqual([]);
    expect([...staticPackages('main.ts')].filter(heavy)).toEqual([]);
  });
});

describe('edges of the program', () => {
  it('docs/architecture.md names the same files that may touch process', () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const sentence = /on `process` used outside (.*?)\.(?: |$)/.exec(doc.replace(/\s+/g, ' '))?.[1] ?? '';
    expect([...sentence.matchAll(/`([\w-]+\.ts)`/g)].map((m) => m[1]).sort()).toEqual([...PROCESS_FILES].sort());
  });

  it(`touches process (argv, env, stdio, signals, exit) only in ${PROCESS_FILES.join(', ')}`, () => {
    for (const file of files.filter((f) => !PROCESS_FILES.includes(f))) {
      const text = readFileSync(path.join(SRC, file), 'utf8');
      expect(text, file).not.toMatch(/\bprocess\.(argv|env|stdin|stdout|stderr|exit|on|once|cwd)\b/);
    }
  });

  it('the shell\'s command life (shell/command-life.ts) is pure: of node it takes only the signal numbers (node:os), of aish only types', () => {
    const imports = graph.get(path.join('shell', 'command-life.ts'))!;
    for (const imp of imports.filter((i) => i.target.startsWith('node:'))) expect(imp.target).toBe('node:os');
    for (const imp of imports.filter((i) => i.internal)) expect(imp.typeOnly, imp.target).toBe(true);
  });

  it.each(['context', 'turn', 'safety', 'model-routing'])('%s/ does no I/O of its own: it imports no node: module', (unit) => {
    for (const file of files.filter((f) => unitOf(f) === unit)) {
      for (const imp of graph.get(file)!) expect(imp.target.startsWith('node:'), `${file} imports ${imp.target}`).toBe(false);
    }
  });

  it('gives the context store the broker only as types: its summarizer asks through the function it is given', () => {
    for (const file of files.filter((f) => unitOf(f) === 'context')) {
      for (const imp of graph.get(file)!) {
        if (imp.internal && unitOf(imp.target) === 'broker') expect(imp.typeOnly, `${file} imports ${imp.target}`).toBe(true);
      }
    }
  });

  it('loads undici and the SSE reader only lazily in the broker', () => {
    for (const imp of graph.get(path.join('broker', 'stream.ts'))!) {
      if (imp.target === 'undici' || imp.target === path.join('broker', 'sse.ts')) expect(imp.lazy, imp.target).toBe(true);
    }
    for (const file of files.filter((f) => unitOf(f) === 'broker' && !f.endsWith('sse.ts'))) {
      for (const imp of graph.get(file)!) {
        if (imp.target === 'eventsource-parser' || imp.target === 'undici') expect(imp.lazy || imp.typeOnly, `${file}: ${imp.target}`).toBe(true);
      }
    }
  });

  it('keeps the terminal out of the turn core and the tool hosts: they never import render/ or repl/', () => {
    for (const file of files.filter((f) => ['turn', 'tools', 'context', 'history', 'mcp', 'broker'].includes(unitOf(f)))) {
      for (const imp of graph.get(file)!) {
        if (imp.internal) expect(['render', 'repl'], `${file} imports ${imp.target}`).not.toContain(unitOf(imp.target));
      }
    }
  });

  it('builds a session in one place: the REPL and -p get their parts from build-session.ts', () => {
    const makers = ['new TurnCore(', 'new ApprovalGate(', 'createRegistry(', 'new SessionTools(', 'serverRequests(', 'new ShellRunner(', 'new NorrisMode('];
    for (const file of files.filter((f) => f !== 'build-session.ts')) {
      const text = readFileSync(path.join(SRC, file), 'utf8');
      for (const maker of makers) expect(text.includes(maker) && !text.includes(`export function ${maker.replace(/\($/, '')}`), `${file} calls ${maker}`).toBe(false);
    }
    for (const file of ['app.ts', 'one-shot.ts']) expect(graph.get(file)!.some((i) => i.target === 'build-session.ts'), file).toBe(true);
  });

  it('wires parts in order: no `let` in app.ts or build-session.ts for a closure to read before it is set', () => {
    for (const file of ['app.ts', 'build-session.ts']) expect(readFileSync(path.join(SRC, file), 'utf8')).not.toMatch(/\blet\s/);
  });

  it('keeps repl/repl.ts the loop and little else (under 250 lines); meta commands get ports, never the loop', () => {
    expect(readFileSync(path.join(SRC, 'repl', 'repl.ts'), 'utf8').split('\n').length).toBeLessThan(250);
    for (const file of files.filter((f) => unitOf(f) === 'meta')) {
      expect(readFileSync(path.join(SRC, file), 'utf8'), file).not.toMatch(/\bRepl\b|ReplInput|MetaContext/);
    }
  });
});
