// What a preview (`p` at `execute …?`, src/preview/) costs: the one probe of a session, and a
// preview of a command on a tree of 5 000 small files (`true`, and one that deletes, changes and
// creates a file, with its diff), against the same command in the Norris box alone (bubblewrap,
// no overlay) in the same run. Linux with user namespaces only; elsewhere the group says why.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Previewer } from '../src/preview/previewer.js';
import { median } from './stats.js';

export interface PreviewFigure {
  name: string;
  ms: number;
  baselineMs: number;
}

const FILES = 5000;

export async function benchPreview(rounds = 11): Promise<PreviewFigure[] | string> {
  const base = mkdtempSync(path.join(tmpdir(), 'aish-bench-preview-'));
  try {
    const tree = path.join(base, 'tree');
    for (let d = 0; d < 50; d++) {
      mkdirSync(path.join(tree, `d${d}`), { recursive: true });
      for (let f = 0; f < FILES / 50; f++) writeFileSync(path.join(tree, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
    }
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(base, 'home') };
    mkdirSync(env.HOME);
    const previewer = new Previewer({ env, scratchDir: path.join(base, 'state'), hiddenPaths: [], captureMaxChars: 16_000 });
    let t0 = performance.now();
    const availability = await previewer.availability();
    const probeMs = performance.now() - t0;
    if (!availability.available) return `preview not available here (${availability.why})`;

    const box = (command: string) => {
      const s = performance.now();
      spawnSync('bwrap', ['--unshare-user', '--unshare-net', '--unshare-pid', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--bind', tree, tree, '--chdir', tree, '--', '/bin/sh', '-c', command], { stdio: 'ignore' });
      return performance.now() - s;
    };
    const preview = async (command: string) => {
      const s = performance.now();
      const r = await previewer.run({ command, cwd: tree, env, tree, shell: '/bin/sh', timeoutMs: 30_000, signal: new AbortController().signal }, (f) => path.relative(tree, f));
      if (r.type !== 'done') throw new Error(`preview ${r.type}`);
      return performance.now() - s;
    };
    const out: PreviewFigure[] = [];
    // The probe runs once; its baseline is one boxed `true`.
    out.push({ name: 'preview: the probe (once per session)', ms: probeMs, baselineMs: box('true') });
    for (const [label, command, boxed] of [
      ['true', 'true', 'true'],
      ['rm + append + create', 'rm d1/f1.txt && echo more >> d2/f2.txt && echo new > new.txt', 'true'],
    ] as const) {
      const times: number[] = [];
      const bases: number[] = [];
      for (let i = 0; i < rounds; i++) {
        t0 = performance.now();
        times.push(await preview(command));
        bases.push(box(boxed));
      }
      out.push({ name: `preview of ${label}, ${FILES} files`, ms: median(times), baselineMs: median(bases) });
    }
    return out;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
