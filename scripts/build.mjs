// Bundles src/ into dist/ with esbuild, because start-up time is measured (docs/performance.md):
// module resolution, Node's ES module loader and compiling the program dominated it. Every file is
// CommonJS (dist/package.json says so), and every bundle but the first is loaded with V8's code
// cache (src/code-cache.ts), which this script makes:
// - dist/aish.js, the start-up file: answers --help and --version alone, else loads
// - dist/start.js, the front (the config, the first prompt), which then loads
// - dist/program.js, the program (src/main.ts and everything it imports), whose imports of the
//   MCP SDK, zod and ajv go to
// - dist/vendor.js, those packages and what they bring, compiled with the first MCP server only.
// - dist/config.mjs is what `import { defineConfig } from 'aish'` resolves to in a TS config.
import { build } from 'esbuild';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const define = { AISH_VERSION: JSON.stringify(pkg.version) };

/** What the front is run on before its code cache is made: a config that uses the common keys. */
const SAMPLE_CONFIG = {
  models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'm', key_env: 'AISH_BUILD_KEY' }, deep: { endpoint: 'http://127.0.0.1:9/v1', model: 'd' } },
  default_model: 'fast',
  shell: { confirm_cmd: true, prompt: '{model} {cwd_short}> ' },
  routing: { auto: false },
  context: { max_turns: 40 },
  permissions: { allow: ['git status'], deny: ['rm -rf /'] },
  mcp: { auto_approve: [] },
};

// Old bundles and caches would otherwise pile up; dist/bench is the bench's own.
await mkdir('dist', { recursive: true });
for (const name of await readdir('dist')) if (name !== 'bench') await rm(`dist/${name}`, { recursive: true, force: true });
await writeFile('dist/package.json', '{ "type": "commonjs" }\n');
// The session shell's integration scripts are read by the shells themselves (src/shell/session.ts).
await cp('src/shell/integration', 'dist/shell-integration', { recursive: true });

const cjs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Bundles are compiled by code-cache.ts (a vm.Script), where import() has no loader: an import()
  // of a package left outside a bundle (undici, jiti, cosmiconfig) becomes a require.
  supported: { 'dynamic-import': false },
};

// import.meta.url in src/ (a path beside the program, a local require) is the bundle's own URL.
const metaUrl = {
  define: { ...define, 'import.meta.url': '__aishModuleUrl' },
  banner: { js: 'var __aishModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
};

// The packages that go to dist/vendor.js: what src/ imports of them is recorded as the program is
// built, and becomes the vendor bundle's table of modules.
const VENDOR = /^(@modelcontextprotocol\/sdk|zod|ajv)(\/|$)/;
const vendored = new Set();
const vendorLoader = path.resolve('src/vendor-load.ts');
const toVendor = {
  name: 'aish-vendor',
  setup(b) {
    b.onResolve({ filter: VENDOR }, (args) => {
      if (!args.importer.startsWith(path.resolve('src'))) return undefined;
      vendored.add(args.path);
      return { path: args.path, namespace: 'aish-vendor' };
    });
    b.onLoad({ filter: /.*/, namespace: 'aish-vendor' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(vendorLoader)}).vendorModule(${JSON.stringify(args.path)});`,
      loader: 'js',
      resolveDir: path.resolve('src'),
    }));
  },
};

await build({ ...cjs, entryPoints: { aish: 'src/entry.ts', start: 'src/start.ts' }, outdir: 'dist', define });

await build({
  ...cjs,
  ...metaUrl,
  entryPoints: { program: 'src/main.ts' },
  outdir: 'dist',
  // jiti loads the user's aish.config.ts and must find its own files; cosmiconfig loads a YAML or JS
  // config with Node's own loader (its import() of a .mjs file needs it); undici is loaded with the
  // first model request, and its files are CommonJS already.
  external: ['jiti', 'typescript', 'undici', 'cosmiconfig', '@lydell/node-pty', '@xterm/headless'],
  plugins: [toVendor],
});

// Each module as a function, so a module is evaluated when the program first asks for it.
const table = [...vendored].sort().map((spec) => `  ${JSON.stringify(spec)}: () => require(${JSON.stringify(spec)}),`);
await build({
  ...cjs,
  ...metaUrl,
  stdin: { contents: `module.exports = {\n${table.join('\n')}\n};\n`, resolveDir: path.resolve('.'), sourcefile: 'vendor.js', loader: 'js' },
  outfile: 'dist/vendor.js',
});

await build({
  entryPoints: { config: 'src/config/define.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  sourcemap: 'linked',
  define,
  logLevel: 'warning',
});

// src/code-cache.ts runs the bundles where import() has no loader: esbuild turned each into a
// require, and none may be left (a method named import, jiti's, is fine).
for (const name of ['start.js', 'program.js', 'vendor.js']) {
  const found = (await readFile(`dist/${name}`, 'utf8')).match(/(?<![\w.$])import\(/);
  if (found) throw new Error(`dist/${name} holds an import(), which code-cache.ts cannot run`);
}

// The code caches, made as src/code-cache.ts makes and checks them: start.js is compiled before
// start.ts sets the V8 flags of src/v8-flags.ts, program.js and vendor.js after. start.js is run
// first on a sample config (its warmUp), so the cache holds what every start runs.
await build({ ...cjs, sourcemap: false, entryPoints: { 'code-cache': 'src/code-cache.ts', 'v8-flags': 'src/v8-flags.ts' }, outdir: 'dist/build' });
const load = createRequire(path.resolve('dist/build/build.js'));
const { buildCodeCache, cachePath } = load('./code-cache.js');
const { V8_FLAGS } = load('./v8-flags.js');
const sample = await mkdtemp(path.join(tmpdir(), 'aish-build-'));
try {
  await writeFile(path.join(sample, '.aishrc.json'), JSON.stringify(SAMPLE_CONFIG));
  const cache = (name, warm) => buildCodeCache(path.resolve('dist', name), cachePath(path.resolve('dist', name)), warm);
  await cache('start.js', (start) => start.warmUp(sample));
  for (const flag of V8_FLAGS) v8.setFlagsFromString(flag);
  await cache('program.js');
  await cache('vendor.js');
} finally {
  await rm(sample, { recursive: true, force: true });
  await rm('dist/build', { recursive: true, force: true });
}
