// What makes one (unwrapped) command destructive, program by program: each rule reads the
// arguments like the program does and names what it found (`rm -r -f`, `git push --force`), or
// says nothing. Pure: whether a file exists is asked of the caller's `fileExists`.

import { entry, hasOption, optionValues, scanOptions, type Call, type OptionSpec, type Rule } from './command-line.js';
import { MYSQL, PSQL_OPTIONS, sqlClient, sqlite } from './database-rules.js';
import { copyOnto, rsync, tar, tee } from './file-rules.js';

/** `/`, a top-level folder itself, or anything under the folders the system runs from. */
const SYSTEM_PATH = /^\/(?:etc|usr|bin|sbin|lib\w*|boot)(?:\/|$)|^\/\w*\/?$/;
/** `rm` of these takes everything: `/`, `~`, `$HOME`, `*`, `/*`, `./*`. */
const EVERYTHING = /^(?:\/+|~\/?|\$\{?HOME\}?\/?|(?:~|\$\{?HOME\}?|\.{0,2})\/\*|\*)$/;

const RM_OPTIONS: OptionSpec = { long: ['--recursive', '--force', '--interactive', '--one-file-system', '--no-preserve-root', '--preserve-root', '--dir', '--verbose'] };

function rm({ args }: Call): string | undefined {
  const scanned = scanOptions(args, RM_OPTIONS);
  const recursive = hasOption(scanned, 'r', 'R', '--recursive');
  const force = hasOption(scanned, 'f', '--force');
  if (recursive || force) return ['rm', recursive ? '-r' : '', force ? '-f' : ''].filter(Boolean).join(' ');
  const everything = scanned.operands.find((o) => EVERYTHING.test(o));
  return everything === undefined ? undefined : `rm of ${everything}`;
}

/** `chmod`, `chown`, `chgrp`: recursive, or on a system path. */
function ownership({ name, args }: Call): string | undefined {
  const scanned = scanOptions(args, { longValue: ['--reference', '--from'] });
  if (hasOption(scanned, 'R', '--recursive')) return `${name} -R`;
  const path = scanned.operands.find((o) => SYSTEM_PATH.test(o));
  return path === undefined ? undefined : `${name} on the system path ${path}`;
}

function sed({ args }: Call): string | undefined {
  const scanned = scanOptions(args, { value: 'efl', attached: 'i', longValue: ['--expression', '--file', '--line-length'] });
  return hasOption(scanned, 'i', '--in-place') ? 'sed -i' : undefined;
}

/** The first operand after global options: a subcommand (`git -C x push` is `push`). */
function subcommand(args: readonly string[], spec: OptionSpec): { name: string; args: string[] } {
  const [name = '', ...rest] = scanOptions(args, { ...spec, stopAtOperand: true }).operands;
  return { name, args: rest };
}

const GIT_GLOBAL: OptionSpec = { value: 'Cc', longValue: ['--git-dir', '--work-tree', '--namespace', '--config-env', '--exec-path'] };

const GIT: Record<string, (args: string[]) => string | undefined> = {
  push(args) {
    const scanned = scanOptions(args, { value: 'o', longValue: ['--repo', '--receive-pack', '--exec', '--push-option'] });
    const refspecs = scanned.operands.slice(1);
    if (hasOption(scanned, 'f', '--force', '--force-with-lease', '--force-if-includes') || refspecs.some((r) => r.startsWith('+'))) {
      return 'git push --force';
    }
    if (hasOption(scanned, 'd', '--delete') || refspecs.some((r) => /^:./.test(r))) return 'git push --delete';
    return hasOption(scanned, '--mirror', '--prune') ? 'git push --mirror / --prune' : undefined;
  },
  reset: (args) => (hasOption(scanOptions(args, { long: ['--hard', '--soft', '--mixed', '--merge', '--keep', '--quiet', '--patch'] }), '--hard') ? 'git reset --hard' : undefined),
  clean: (args) => (hasOption(scanOptions(args, { value: 'e', longValue: ['--exclude'] }), 'f', '--force') ? 'git clean -f' : undefined),
  branch(args) {
    const scanned = scanOptions(args);
    const forcedDelete = hasOption(scanned, 'd', '--delete') && hasOption(scanned, 'f', '--force');
    return hasOption(scanned, 'D') || forcedDelete ? 'git branch -D' : undefined;
  },
  checkout(args) {
    const scanned = scanOptions(args, { value: 'bBU', longValue: ['--conflict', '--orphan'] });
    const dashes = args.indexOf('--');
    const paths = dashes >= 0 ? args.slice(dashes + 1) : scanned.operands.filter((o) => o === '.');
    if (hasOption(scanned, 'f', '--force')) return 'git checkout --force';
    return paths.length > 0 ? `git checkout -- ${paths.join(' ')}` : undefined;
  },
  restore(args) {
    const scanned = scanOptions(args, { value: 's', longValue: ['--source', '--pathspec-from-file'] });
    const stagedOnly = hasOption(scanned, 'S', '--staged') && !hasOption(scanned, 'W', '--worktree');
    return !stagedOnly && scanned.operands.length > 0 ? `git restore ${scanned.operands.join(' ')}` : undefined;
  },
  stash: ([action]) => (action === 'drop' || action === 'clear' ? `git stash ${action}` : undefined),
};

/** `git -c key=value` settings that make git run a command: `alias.x=!cmd`, a pager, an editor… */
const GIT_RUNS = /^(?:alias\.[^=]*=\s*!|core\.(?:pager|editor|sshcommand|fsmonitor|hookspath|gitproxy|askpass)=|sequence\.editor=|diff\.external=|(?:diff|filter|merge)\..*\.(?:textconv|command|clean|smudge|process|driver)=|credential\..*helper=\s*!)/i;

function git({ args }: Call): string | undefined {
  const settings = optionValues(scanOptions(args, { ...GIT_GLOBAL, stopAtOperand: true }), 'c');
  const runs = settings.find((s) => GIT_RUNS.test(s));
  if (runs !== undefined) return `git -c ${runs.slice(0, runs.indexOf('='))} runs a command`;
  const sub = gitSubcommand(args);
  return entry(GIT, sub.name)?.(sub.args);
}

/** `git -C dir -c k=v push …` is `push …`. */
export function gitSubcommand(args: readonly string[]): { name: string; args: string[] } {
  return subcommand(args, GIT_GLOBAL);
}

const DOCKER_GLOBAL: OptionSpec = { value: 'Hcl', longValue: ['--host', '--context', '--config', '--log-level'] };
const COMPOSE_GLOBAL: OptionSpec = { value: 'fp', longValue: ['--file', '--project-name', '--profile', '--env-file', '--project-directory'] };
const DOCKER_ALWAYS = new Set(['rmi', 'system prune', 'volume rm', 'volume prune', 'image rm', 'image prune', 'container prune']);

/** Judged by the first two words: `rmi`, `volume rm`, `compose down` (past compose's `-f file`). */
function docker({ name, args }: Call): string | undefined {
  const sub = subcommand(args, DOCKER_GLOBAL);
  const next = subcommand(sub.args, COMPOSE_GLOBAL);
  const pair = `${sub.name} ${next.name}`;
  const always = [sub.name, pair].find((s) => DOCKER_ALWAYS.has(s));
  if (always) return `${name} ${always}`;
  if ((sub.name === 'rm' || pair === 'container rm') && hasOption(scanOptions(sub.args), 'f', '--force')) return `${name} rm -f`;
  if (pair === 'compose down') return composeDown(next.args);
  return undefined;
}

function composeDown(args: string[]): string | undefined {
  return hasOption(scanOptions(args), 'v', '--volumes') ? 'docker compose down --volumes' : undefined;
}

const KUBE_GLOBAL: OptionSpec = { value: 'ns', longValue: ['--namespace', '--context', '--kubeconfig', '--cluster', '--user', '--server', '--token', '--as', '--kube-context'] };

function kubectl({ args }: Call): string | undefined {
  return subcommand(args, KUBE_GLOBAL).name === 'delete' ? 'kubectl delete' : undefined;
}

function helm({ args }: Call): string | undefined {
  return ['uninstall', 'delete', 'del', 'un'].includes(subcommand(args, KUBE_GLOBAL).name) ? 'helm uninstall' : undefined;
}

function terraform({ name, args }: Call): string | undefined {
  const sub = args.find((a) => !a.startsWith('-'));
  if (sub === 'destroy') return `${name} destroy`;
  return sub === 'apply' && (args.includes('-destroy') || args.includes('--destroy')) ? `${name} apply -destroy` : undefined;
}

function always(reason?: string): Rule {
  return ({ name }) => reason ?? name;
}

const init: Rule = ({ name, args }) => (args[0] === '0' || args[0] === '6' ? `${name} ${args[0]}` : undefined);
const POWER_ACTIONS = ['poweroff', 'reboot', 'halt', 'kexec'];

/** Partitioning tools change the disk unless they only list. */
function partitioner({ name, args }: Call): string | undefined {
  const listing = hasOption(scanOptions(args), 'l', '--list', 'p', '--print') || args.at(-1) === 'print';
  return listing ? undefined : name;
}

const RULES: Record<string, Rule> = {
  rm,
  chmod: ownership,
  chown: ownership,
  chgrp: ownership,
  sed,
  tee,
  git,
  docker,
  podman: docker,
  'docker-compose': ({ args }) => (args[0] === 'down' ? composeDown(args.slice(1)) : undefined),
  kubectl,
  helm,
  terraform,
  tofu: terraform,
  psql: sqlClient({ value: 'cdfhpUvFLoPRST', longValue: PSQL_OPTIONS }, ['c', '--command']),
  mysql: MYSQL,
  mariadb: MYSQL,
  sqlite3: sqlite,
  truncate: always(),
  shred: always(),
  wipefs: always(),
  blkdiscard: always(),
  mkswap: always('mkfs'),
  mke2fs: always('mkfs'),
  fdisk: partitioner,
  sfdisk: partitioner,
  cfdisk: partitioner,
  gdisk: partitioner,
  sgdisk: partitioner,
  parted: partitioner,
  dd: ({ args }) => (args.some((a) => a.startsWith('of=')) ? 'dd of=' : undefined),
  mv: (call) => (call.args.includes('/dev/null') ? 'mv onto /dev/null' : copyOnto(call)),
  cp: copyOnto,
  install: copyOnto,
  ln: copyOnto,
  tar,
  bsdtar: tar,
  rsync,
  crontab: ({ args }) => (hasOption(scanOptions(args, { value: 'u' }), 'r') ? 'crontab -r' : undefined),
  shutdown: always(),
  reboot: always(),
  halt: always(),
  poweroff: always(),
  init,
  telinit: init,
  systemctl: ({ args }) => {
    const action = args.find((a) => POWER_ACTIONS.includes(a));
    return action ? `systemctl ${action}` : undefined;
  },
  kill: ({ args }) => (args.indexOf('-1', 1) > 0 ? 'kill -1 (every process)' : undefined),
  pkill: ({ args }) => (scanOptions(args).operands.some((p) => p === '.' || p === '.*') ? 'pkill of every process' : undefined),
};

/** The rule for a program, by name (`mkfs.ext4` included). */
export function ruleFor(name: string): Rule | undefined {
  return entry(RULES, name) ?? (name.startsWith('mkfs') ? always('mkfs') : undefined);
}
