// The Norris sandbox, as data (pure): which places are secret, the bubblewrap argv a step runs
// behind, and whether a failed step was stopped by the box. The box: user, mount, pid, ipc and uts
// namespaces, an empty network namespace unless `norris.network`, the whole filesystem read-only
// but the run's tree (its `.git` and `.gitmodules`, there or not, and the files that run later stay
// read-only) and a private /tmp,
// the secret places replaced by empty unreadable mounts, the unix sockets found in HOME, the tree
// and the runtime folder covered (a read-only mount does not stop a connection), no capabilities, a
// session of its own. box.ts and box-sockets.ts do the I/O (probing, stat, git, the search for
// sockets); docs/security.md says what the box allows.

import path from 'node:path';

/** A path the box hides or keeps read-only, with what it is (a folder and a file mount differently). */
export interface BoxPath {
  path: string;
  kind: 'dir' | 'file';
}

export interface BoxSettings {
  /** bwrap's path. */
  bwrap: string;
  /** Where writes are allowed: the run's tree (box-tree.ts), decided once when the run started. */
  tree: string;
  /** The directory the step starts in. */
  cwd: string;
  network: boolean;
  /** Existing secret places: unreadable, unwritable, empty. */
  hidden: readonly BoxPath[];
  /**
   * Unix sockets a step must not connect to (an ssh, gpg or password manager's agent in HOME): each
   * gets /dev/null mounted on it, so a connection is refused. From socketSearch and box-sockets.ts.
   */
  sockets?: readonly string[];
  /** Existing places inside the tree that stay read-only (`.git`, rc files when the tree holds HOME). */
  readOnly: readonly BoxPath[];
  /**
   * Places in the tree that run later and do not exist, so must not be made (`.git`,
   * `.gitmodules`, a missing rc file when the tree holds HOME): an empty read-only folder is
   * mounted on each. bwrap makes the mount point (and missing folders above it) in the tree
   * itself, so the caller removes those left empty after the step.
   */
  blocked?: readonly string[];
  /**
   * What is mounted writable, in order: by default the tree on itself. The preview mounts its
   * copy-on-write views here instead (src/preview/).
   */
  binds?: readonly { from: string; to: string }[];
  /** The user and group the command runs as inside (bwrap's own by default). */
  ids?: { uid: number; gid: number };
  /** A descriptor bwrap writes the box's pid to (`--info-fd`), for the preview to stop it by. */
  infoFd?: number;
}

/**
 * Where secrets live in a home folder: the issue's list, and the other usual homes of tokens
 * (package registries, git credentials, cloud command lines, the password store).
 */
export const SECRET_PLACES_IN_HOME = [
  '.ssh', '.aws', '.gnupg', '.config/gh', '.netrc', '.docker', '.kube',
  '.npmrc', '.yarnrc.yml', '.pypirc', '.git-credentials', '.config/git/credentials', '.cargo/credentials', '.cargo/credentials.toml',
  '.config/gcloud', '.azure', '.config/hub', '.terraform.d', '.password-store', '.vault-token',
] as const;

/** The places secrets live under `home`, and aish's own state, config and data folders. */
export function secretPlaces(home: string, env: Record<string, string | undefined>, extra: readonly string[]): string[] {
  const inHome = [...SECRET_PLACES_IN_HOME].map((p) => path.join(home, p));
  const xdg = (name: string, fallback: string) => path.join(env[name] || path.join(home, fallback), 'aish');
  const own = [xdg('XDG_STATE_HOME', '.local/state'), xdg('XDG_CONFIG_HOME', '.config'), xdg('XDG_DATA_HOME', '.local/share')];
  const more = extra.map((p) => (p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : path.resolve(home, p)));
  return [...new Set([...inHome, ...own, ...more])];
}

/**
 * Files inside the tree that stay read-only, whether or not they exist, because something outside
 * the box runs them later: the tree's `.git` (hooks, `core.fsmonitor`, aliases: a step must not
 * make a repository that runs them the next time the person uses git there) and `.gitmodules`,
 * and, when the tree holds the home folder, the shell's rc files, git's config and the person's
 * own aish config files.
 */
export function laterRunPlaces(tree: string, home: string, ownConfigNames: readonly string[]): string[] {
  const places = [path.join(tree, '.git'), path.join(tree, '.gitmodules')];
  if (isInside(home, tree)) {
    const rc = ['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshenv', '.zshrc', '.zprofile', '.zlogin', '.zlogout', '.config/fish', '.gitconfig', '.config/git'];
    places.push(...[...rc, ...ownConfigNames].map((p) => path.join(home, p)));
  }
  return places;
}

/** Where box-sockets.ts looks for unix sockets, and which folders it passes over. */
export interface SocketSearch {
  /** Folders searched whole: HOME, the run's tree, and the runtime folder when the box would show it. */
  roots: string[];
  /** Folders not searched: the hidden ones (their sockets are gone with them). */
  skip: string[];
  /** Sockets the environment names (an ssh or gpg agent's), wherever they are. */
  named: string[];
}

/**
 * Where a step's box must look for sockets: HOME, the run's tree (unless it is `/`), and
 * `$XDG_RUNTIME_DIR` unless it is under /run or /tmp (the box's own empty ones). The tree is
 * searched too: a socket there is a running program of the person's (a dev server, git's fsmonitor
 * daemon, an agent when the tree is `~/.config`), which the box keeps out of reach as it keeps the
 * loopback; a socket a step makes is made after the search and works. A root inside another is
 * searched with it. All paths real ones.
 */
export function socketSearch(home: string, env: Record<string, string | undefined>, tree: string, hidden: readonly BoxPath[]): SocketSearch {
  const runtime = env.XDG_RUNTIME_DIR;
  const candidates = [home, ...(tree !== path.parse(tree).root ? [tree] : []), ...(runtime && path.isAbsolute(runtime) && !['/run', '/tmp'].some((d) => isInside(runtime, d)) ? [runtime] : [])];
  const skip = hidden.filter((h) => h.kind === 'dir').map((h) => h.path);
  const kept = candidates.filter((r) => !skip.some((s) => isInside(r, s)));
  const roots = [...new Set(kept)].filter((r, _, all) => !all.some((o) => o !== r && isInside(r, o)));
  return { roots, skip, named: agentSocketPaths(env) };
}

/**
 * The variables that point a program at an agent or a session's daemon: gone from a step's
 * environment, so no tool tries the socket (which the box hides anyway) or trusts the address.
 */
export const AGENT_VARIABLES = ['SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'GPG_AGENT_INFO', 'GNOME_KEYRING_CONTROL', 'GNOME_KEYRING_PID', 'DBUS_SESSION_BUS_ADDRESS'] as const;

/** `env` without AGENT_VARIABLES. */
export function withoutAgents<T extends string | undefined>(env: Record<string, T>): Record<string, T> {
  const kept = { ...env };
  for (const name of AGENT_VARIABLES) delete kept[name];
  return kept;
}

/**
 * The socket paths the agent variables name: `SSH_AUTH_SOCK` itself, the first field of
 * `GPG_AGENT_INFO` (`path:pid:1`), every `path=` of a D-Bus address, `GNOME_KEYRING_CONTROL`'s
 * `control` socket. Absolute paths only; whether each is a socket is box-sockets.ts's to find.
 */
export function agentSocketPaths(env: Record<string, string | undefined>): string[] {
  const found = [
    env.SSH_AUTH_SOCK,
    env.GPG_AGENT_INFO?.split(':')[0],
    ...[...(env.DBUS_SESSION_BUS_ADDRESS ?? '').matchAll(/(?:^|[,;:])path=([^,;]+)/g)].map((m) => decodeDbusValue(m[1]!)),
    env.GNOME_KEYRING_CONTROL ? path.join(env.GNOME_KEYRING_CONTROL, 'control') : undefined,
  ];
  return [...new Set(found.filter((p): p is string => !!p && path.isAbsolute(p)))];
}

/** A D-Bus address value: `%xx` escapes decoded. */
function decodeDbusValue(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** Whether `inner` is `outer` or below it. */
export function isInside(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The argv that runs a command in the box: `[bwrap, ...options, '--']`; the caller appends
 * `<shell> -c <command>`. Mounts are applied in order, so the tree is made writable after the
 * private /tmp (a tree under /tmp stays visible), and the read-only, blocked and hidden places
 * come last (a secret place inside the tree stays hidden).
 */
export function bwrapArgv(s: BoxSettings): string[] {
  const argv = [
    s.bwrap,
    '--unshare-user',
    ...(s.ids ? ['--uid', String(s.ids.uid), '--gid', String(s.ids.gid)] : []),
    ...(s.infoFd !== undefined ? ['--info-fd', String(s.infoFd)] : []),
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(s.network ? [] : ['--unshare-net']),
    // The step's processes end with it (a daemon it starts too: the pid namespace ends), it
    // cannot type into aish's terminal (TIOCSTI), and as root it keeps no capability.
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    // Its own /proc: no other process's environment or command line can be read.
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    // Sockets of the running system (docker, the session bus, an ssh or gpg agent) live under
    // /run; a read-only mount does not stop connecting to a socket.
    '--tmpfs',
    '/run',
    ...(s.network ? ['--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve'] : []),
    ...(s.binds ?? [{ from: s.tree, to: s.tree }]).flatMap((b) => ['--bind', b.from, b.to]),
  ];
  for (const p of s.readOnly) argv.push('--ro-bind', p.path, p.path);
  for (const p of s.blocked ?? []) argv.push('--tmpfs', p, '--remount-ro', p);
  // A socket can be connected to through a read-only mount; a device node in its place cannot.
  // Before the hidden places: a socket inside one is gone with it (and has no mount point there).
  for (const p of s.sockets ?? []) if (!s.hidden.some((h) => h.kind === 'dir' && isInside(p, h.path))) argv.push('--ro-bind', '/dev/null', p);
  for (const p of s.hidden) {
    if (p.kind === 'dir') argv.push('--perms', '0000', '--tmpfs', p.path, '--remount-ro', p.path);
    // A device node on a bind mount (nodev) cannot be opened: reading it says "Permission denied".
    else argv.push('--ro-bind', '/dev/null', p.path);
  }
  argv.push('--chdir', s.cwd, '--');
  return argv;
}

/** What the model is told when a step failed because of the box; null when it did not. */
export function blockedNote(result: { exitCode: number; output: string }, s: Pick<BoxSettings, 'tree' | 'network' | 'hidden' | 'readOnly' | 'blocked'>): string | null {
  if (result.exitCode === 0) return null;
  const text = result.output;
  const lines = text.split('\n');
  const start = /^bwrap: (.*)$/m.exec(text);
  if (start && result.exitCode === 1) return `[aish] the Norris sandbox could not start: ${start[1]}`;
  const reasons: string[] = [];
  if (!s.network && NO_NETWORK.test(text)) reasons.push('no network');
  if (/Read-only file system|EROFS/.test(text)) {
    const git = [...s.readOnly.map((p) => p.path), ...(s.blocked ?? [])].some((p) => path.basename(p) === '.git');
    reasons.push(`read-only file system outside ${s.tree}${git ? ' (and in its .git)' : ''}`);
  }
  const hidden = s.hidden.find((p) => lines.some((line) => /Permission denied|EACCES/.test(line) && line.includes(p.path)));
  if (hidden) reasons.push(`${hidden.path} cannot be read in the box`);
  else if (s.hidden.length > 0 && lines.some((line) => /Permission denied|EACCES/.test(line) && /~\/|\$HOME/.test(line))) reasons.push('the places secrets live cannot be read in the box');
  return reasons.length > 0 ? `[aish] blocked by the Norris sandbox: ${reasons.join('; ')}` : null;
}

/** Messages of programs that found no network (curl, wget, git, ssh, bash's /dev/tcp, Node, Python, DNS). */
const NO_NETWORK =
  /Network is unreachable|Could not resolve host|Couldn't connect to server|Failed to connect to|Temporary failure in name resolution|Name or service not known|unable to resolve host|Could not resolve hostname|getaddrinfo (ENOTFOUND|EAI_AGAIN)|ENETUNREACH|EAI_AGAIN|connect: Connection refused|\/dev\/tcp\/[^:\n]*: Connection refused|Name resolution failure|No address associated with hostname/;
