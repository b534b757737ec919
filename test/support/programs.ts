// What this machine can run, for tests that need a program or a kernel feature (skipped, with the
// reason in their name, where it is missing).

import { execFileSync } from 'node:child_process';

/** Whether `file args` runs and exits 0. */
export function runs(file: string, args: readonly string[]): boolean {
  try {
    execFileSync(file, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** bubblewrap is installed and can build a box with a user and a network namespace here. */
export const canSandbox = runs('bwrap', ['--unshare-user', '--unshare-net', '--ro-bind', '/', '/', 'true']);
