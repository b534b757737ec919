// Built-in values: the command list the line router knows and the programs that need the terminal.
// Imports nothing, so the schema can use it without a cycle (the presets live in default-models.ts).

/**
 * Commands people type daily; a line starting with one goes to the shell (SPEC §3 rule 4).
 * English words that are also commands (who, time, more, test, sort, file, type...) are left out:
 * "time to refactor this?" is prose. `$time ...` or a config entry sends them to the shell.
 */
export const DEFAULT_KNOWN_COMMANDS: readonly string[] = [
  // files and text
  'ls', 'll', 'la', 'cd', 'pwd', 'cat', 'less', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg',
  'ag', 'find', 'fd', 'locate', 'tree', 'stat', 'wc', 'uniq', 'tr', 'sed', 'awk', 'diff', 'cmp',
  'comm', 'xargs', 'tee', 'echo', 'printf', 'touch', 'mkdir', 'rmdir', 'rm', 'cp', 'mv', 'ln',
  'chmod', 'chown', 'chgrp', 'realpath', 'basename', 'dirname', 'readlink', 'tar', 'zip', 'unzip',
  'gzip', 'gunzip', 'zcat', 'xz', 'bzip2', 'jq', 'yq', 'bat', 'nl', 'od', 'xxd', 'hexdump',
  'strings', 'base64', 'md5sum', 'sha1sum', 'sha256sum', 'du', 'df', 'mount', 'umount', 'lsblk',
  // processes and system
  'ps', 'pgrep', 'pkill', 'kill', 'killall', 'top', 'htop', 'btop', 'uptime', 'uname', 'whoami',
  'id', 'date', 'env', 'printenv', 'export', 'unset', 'which', 'hostname', 'jobs', 'nohup',
  'sleep', 'sudo', 'su', 'systemctl', 'journalctl', 'dmesg', 'lsof', 'strace', 'ulimit', 'true',
  'false', 'tput', 'stty', 'man',
  // editors and terminals
  'vim', 'vi', 'nvim', 'nano', 'emacs', 'code', 'tmux', 'screen',
  // development
  'git', 'gh', 'make', 'cmake', 'ninja', 'gcc', 'g++', 'cc', 'clang', 'ld', 'gdb', 'valgrind',
  'npm', 'npx', 'pnpm', 'yarn', 'node', 'deno', 'bun', 'tsc', 'python', 'python3', 'pip', 'pip3',
  'uv', 'pytest', 'ruby', 'gem', 'bundle', 'perl', 'go', 'cargo', 'rustc', 'rustup', 'java',
  'javac', 'mvn', 'gradle', 'lua', 'luajit', 'php', 'composer', 'docker', 'podman', 'kubectl',
  'helm', 'terraform', 'ansible',
  // network
  'ssh', 'scp', 'sftp', 'rsync', 'curl', 'wget', 'ping', 'traceroute', 'dig', 'nslookup', 'ip',
  'ifconfig', 'ss', 'netstat', 'nc',
  // packages
  'apt', 'apt-get', 'apt-cache', 'dpkg', 'brew', 'dnf', 'yum', 'pacman', 'snap', 'flatpak',
  // shells
  'sh', 'bash', 'zsh', 'fish', 'dash',
];

/**
 * Programs that take over the terminal: they run with aish's own stdin, stdout and stderr
 * (nothing is captured) so full-screen and password prompts work (SPEC §4).
 */
export const DEFAULT_INTERACTIVE: readonly string[] = [
  'vim', 'vi', 'nvim', 'nano', 'emacs', 'less', 'more', 'man', 'info', 'top', 'htop', 'btop',
  'watch', 'ssh', 'sftp', 'tmux', 'screen', 'mc', 'ranger', 'nnn', 'tig', 'lazygit', 'fzf',
];

/**
 * Commands whose output is private (`privacy.private_commands`): password managers, secret stores
 * and keys. Their blocks never reach the model, the session log or a file (docs/security.md).
 */
export const DEFAULT_PRIVATE_COMMANDS: readonly string[] = ['pass *', 'vault *', 'op *', 'gpg *'];

/** aish's own tools (`tools.builtin`); the tools they name are defined in src/tools/. */
export const BUILTIN_TOOL_NAMES = ['aish__current_date', 'aish__read_file', 'aish__list_dir', 'aish__find_tools'] as const;

/** `tools.builtin` → the built-in tools it turns on (true: all, false: none, a list: those). */
export function enabledBuiltins(setting: boolean | readonly string[]): string[] {
  if (setting === true) return [...BUILTIN_TOOL_NAMES];
  if (setting === false) return [];
  return BUILTIN_TOOL_NAMES.filter((n) => setting.includes(n));
}

/** The token budget of the conversation when neither the config nor the preset's server says one. */
export const DEFAULT_TOKEN_BUDGET = 16_384;
