// Where a program is: the first executable file of that name in the folders of a PATH.

import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** The full path of an executable `name` on `pathVar`, or null. */
export function findOnPath(name: string, pathVar: string): string | null {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, name);
    if (isExecutableFile(full)) return full;
  }
  return null;
}

/** Whether `file` is a file this process may run. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
