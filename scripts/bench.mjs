// Bundles bench/index.ts (TypeScript) with esbuild and runs it; benchmarks import src/ directly.
// Arguments pass through: `npm run bench -- startup` runs one group.
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
const run = spawnSync(process.execPath, ['--expose-gc', 'dist/bench/index.mjs', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
