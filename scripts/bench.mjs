// Bundles bench/index.ts (TypeScript) with esbuild and runs it; benchmarks import src/ directly.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';

await build({
  entryPoints: ['bench/index.ts'],
  outfile: 'dist/bench/index.mjs',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const run = spawnSync(process.execPath, ['--expose-gc', 'dist/bench/index.mjs'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
