// Bundles src/ into dist/ with esbuild: one start-up file plus lazily loaded chunks, because
// start-up time is measured (docs/performance.md) and module resolution dominates it.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: { aish: 'src/main.ts', config: 'src/config/define.ts' },
  outdir: 'dist',
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
  define: { AISH_VERSION: JSON.stringify(pkg.version) },
  banner: {
    js: "import { createRequire as __aishCreateRequire } from 'node:module'; const require = __aishCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
