// Bundles src/ into dist/ with esbuild, because start-up time is measured (docs/performance.md) and
// module resolution dominates it. dist/aish.js is the start-up file, CommonJS (dist/package.json
// says so): it answers --help and --version without Node's ESM loader and otherwise requires
// dist/start.js, which draws the first prompt and then imports dist/main.mjs, the program, an ES
// module that loads its parts as lazily loaded chunks.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const define = { AISH_VERSION: JSON.stringify(pkg.version) };

// Old chunks would otherwise pile up (their names carry a hash); dist/bench is the bench's own.
await mkdir('dist', { recursive: true });
for (const name of await readdir('dist')) if (name !== 'bench') await rm(`dist/${name}`, { recursive: true, force: true });
await writeFile('dist/package.json', '{ "type": "commonjs" }\n');

// aish.js answers --help and --version alone; start.js (the front, then the program) is its own
// bundle, so those two compile nothing more.
await build({
  entryPoints: { aish: 'src/entry.ts', start: 'src/start.ts' },
  outdir: 'dist',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  sourcemap: 'linked',
  define,
  logLevel: 'warning',
});

await build({
  entryPoints: { main: 'src/main.ts', config: 'src/config/define.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // jiti loads the user's aish.config.ts and must find its own files; undici is loaded lazily (first
  // model request) and is CommonJS, whose named exports Node's own loader resolves.
  external: ['jiti', 'typescript', 'undici'],
  define,
  banner: {
    js: "import { createRequire as __aishCreateRequire } from 'node:module'; const require = __aishCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
