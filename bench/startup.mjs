// Start-up: median time from launch to the first prompt on a pseudo-terminal, with a config file
// present and no MCP servers, against a bare `node -e 0` measured in the same run, interleaved.

import { spawn as spawnPty } from 'node-pty';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const aish = path.join(root, 'dist', 'aish.js');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeBare() {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('exit', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
  });
}

function timeAish(cwd, env) {
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

export async function benchStartup({ runs = 21 } = {}) {
  const home = mkdtempSync(path.join(tmpdir(), 'aish-bench-'));
  const cwd = path.join(home, 'project');
  mkdirSync(cwd);
  writeFileSync(
    path.join(cwd, '.aishrc.json'),
    JSON.stringify({ models: { fast: { endpoint: 'http://127.0.0.1:9/v1', model: 'bench' } }, shell: { confirm_cmd: true } }),
  );
  const env = { PATH: process.env.PATH, HOME: home, TERM: 'xterm-256color', XDG_STATE_HOME: path.join(home, 'state'), XDG_CONFIG_HOME: path.join(home, 'config') };
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchStartup();
  console.log(`startup: launch to prompt ${r.readyMs.toFixed(1)} ms (median of 21), bare node -e 0 ${r.bareMs.toFixed(1)} ms, ratio ${r.ratio.toFixed(2)} (target <= 2.0)`);
}
