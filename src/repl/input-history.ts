// Persistent input history: one entry per line in `<state dir>/input_history`, oldest first,
// file 0600 and dir 0700, bounded. Failures are reported once by the caller and never stop aish.

import { mkdir, readFile, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';

/** Loads history newest-first (readline's order). A missing file is an empty history. */
export async function loadInputHistory(file: string, max: number): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const seen = new Set<string>();
  const newestFirst: string[] = [];
  for (let i = lines.length - 1; i >= 0 && newestFirst.length < max; i--) {
    const line = lines[i]!;
    if (seen.has(line)) continue;
    seen.add(line);
    newestFirst.push(line);
  }
  return newestFirst;
}

/** Writes history (given newest-first) atomically, oldest first, capped at `max` entries. */
export async function saveInputHistory(file: string, newestFirst: readonly string[], max: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const lines = newestFirst.slice(0, max).reverse();
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, lines.length ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
  await rename(tmp, file);
}
