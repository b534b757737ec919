// The preview's sandbox, as data (pure): which folders get a copy-on-write overlay, and the argv
// that runs a command in it. Two namespaces, both the kernel's: `unshare` makes a user and mount
// namespace where a short sh script mounts one overlay per folder (upper and work layers in a
// scratch folder of aish's), then runs the Norris box's bubblewrap with those overlays bound over
// the real folders, no network, a private /tmp (a scratch folder, read afterwards) and the secret
// places hidden. On fd 3 come bwrap's own report (`"child-pid": <the box's first process>`, from
// its info fd) and the script's `ended <status>`; then the script waits for a line on stdin, so
// aish can read the overlays through /proc/<pid>/root before the namespace, and every mount, is
// gone.

import path from 'node:path';
import { bwrapArgv, isInside, type BoxSettings } from '../norris/sandbox.js';
import type { OverlayLayers } from './overlay-changes.js';

/**
 * The script run by `sh -c` in the new namespaces: `$1` mount's path, `$2` the scratch folder,
 * then the folders to overlay, `--`, and the command's argv. Each folder is bound to
 * `<scratch>/<n>/l` first, so the overlay's options hold only short relative names (a path with
 * a comma or colon would need escaping there). That bind is the overlay's lower layer, which the
 * kernel never writes, and exists only in the namespace (remounting it read-only would fail where
 * the folder's file system is mounted nosuid or nodev: those flags are locked in a namespace).
 */
export const PREVIEW_SCRIPT = `set -eu
mount_bin=$1
scratch=$2
shift 2
n=0
while [ "$1" != "--" ]; do
  cd "$scratch/$n"
  "$mount_bin" --bind "$1" l
  "$mount_bin" -t overlay overlay -o lowerdir=l,upperdir=up,workdir=wk,userxattr m
  n=$((n + 1))
  shift
done
shift
cd /
"$@" </dev/null 2>&1 4>&3 3>&- &
pid=$!
status=0
wait "$pid" || status=$?
echo "ended $status" >&3
read -r _ || true
`;

/** The descriptor bwrap reports the box's pid on: the script's fd 3, as fd 4 of bwrap alone. */
const BOX_INFO_FD = 4;

/** The sub-folders of one overlay in the scratch folder. */
export const LAYER_DIRS = ['l', 'up', 'wk', 'm'] as const;

export interface PreviewPlan {
  unshare: string;
  mount: string;
  scratch: string;
  /** The real folders overlaid, from `overlaidFolders`. */
  overlays: readonly string[];
  /**
   * An empty folder in the scratch folder, bound on the box's /tmp: private and empty as in the
   * Norris box, but readable afterwards, so what the command wrote there can be listed.
   */
  tmp: string;
  /** The bubblewrap box around the command (its `binds` are the overlays'). */
  box: Omit<BoxSettings, 'binds'>;
  /** The shell that runs the command (`<shell> -c <command>`). */
  shell: string;
  command: string;
}

/**
 * The folders a preview overlays, outermost first: the tree (the git work tree's top, or the
 * current directory) and the home folder, each once. `/` is never overlaid: outside these the
 * file system is read-only in a preview.
 */
export function overlaidFolders(tree: string, home: string | undefined): string[] {
  const folders = [tree, ...(home ? [home] : [])].filter((f) => path.isAbsolute(f) && f !== path.parse(f).root);
  const unique = [...new Set(folders.map((f) => path.resolve(f)))];
  // An outer folder is mounted first, so an inner one is bound on top of it.
  return unique.sort((a, b) => (isInside(b, a) ? -1 : isInside(a, b) ? 1 : a.localeCompare(b)));
}

/** Where the overlay of folder `n` keeps its layers and is mounted, in the scratch folder. */
export function overlayDir(scratch: string, n: number): string {
  return path.join(scratch, String(n));
}

/** The argv that runs the plan: `unshare ... sh -c <script> ...`. */
export function previewArgv(plan: PreviewPlan): string[] {
  // /tmp first: a tree or home folder under /tmp is bound on top of it.
  const binds = [{ from: plan.tmp, to: '/tmp' }, ...plan.overlays.map((to, n) => ({ from: path.join(overlayDir(plan.scratch, n), 'm'), to }))];
  const box = bwrapArgv({ ...plan.box, binds, infoFd: BOX_INFO_FD });
  return [
    plan.unshare,
    '--user',
    '--map-root-user',
    '--mount',
    '--',
    '/bin/sh',
    '-c',
    PREVIEW_SCRIPT,
    'aish-preview',
    plan.mount,
    plan.scratch,
    ...plan.overlays,
    '--',
    ...box,
    plan.shell,
    '-c',
    plan.command,
  ];
}

/**
 * The three views of each overlay, read from outside while the script waits: the real folder, the
 * upper layer in the scratch folder, and the merged view through `/proc/<pid>/root` of the script.
 */
export function overlayLayers(plan: Pick<PreviewPlan, 'scratch' | 'overlays'>, pid: number): OverlayLayers[] {
  return plan.overlays.map((lower, n) => {
    const dir = overlayDir(plan.scratch, n);
    return { lower, upper: path.join(dir, 'up'), merged: path.join(`/proc/${pid}/root`, dir, 'm') };
  });
}
