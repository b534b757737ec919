// Start-up: median time from launch to the first prompt on a pseudo-terminal, with a config file
// present and no MCP servers, against a bare `node -e 0` measured in the same run, interleaved.

import { spawn as spawnPty } from 'node-pty';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const aish = path.join(process.cwd(), 'dist', 'aish.js');

import { median } from './stats.js';

function timeBare(): Promise<number> {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('exit', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
  });
}

function timeAish(cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const term = spawnPty(process.execPath, [aish], { cwd, env, cols: 100, rows: 30 });
    let seen = '';
    const timer = setTimeout(() => {
      term.kill();
      reject(new Error(`no prompt within 10 s; screen: ${seen}`));
    }, 10_000);
    term.onData((d) => {
      seen += d;
      if (seen.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').includes(']> ')) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        clearTimeout(timer);
        term.kill();
        resolve(ms);
      }
    });
  });
}

export async function benchStartup(runs = 21): Promise<{ bareMs: number; readyMs: number; ratio: number }> {
  const home = mkdtempSync(path.join(tmpdir(), 'aish-bench-'));
  const cwd = path.join(home, 'project');
  mkdirSync(cwd);
  writeFileSync(
    path.join(cwd, '.aishrc.json'),
    JSON.stringify({ models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'bench' } }, shell: { confirm_cmd: true } }),
  );
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm-256color', XDG_STATE_HOME: path.join(home, 'state'), XDG_CONFIG_HOME: path.join(home, 'config') };
  // Warm the file cache for both before measuring.
  await timeBare();
  await timeAish(cwd, env);
  const bare = [];
  const ready = [];
  for (let i = 0; i < runs; i++) {
    bare.push(await timeBare());
    ready.push(await timeAish(cwd, env));
  }
  const b = median(bare);
  const a = median(ready);
  return { bareMs: b, readyMs: a, ratio: a / b };
}

