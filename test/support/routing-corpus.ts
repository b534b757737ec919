// The routing corpus (test/fixtures/routing/*.txt) and a scripted session shell to route it with:
// what a zsh on a developer's machine would answer for `whence -w`, and the files of a small
// project, so the corpus routes the same everywhere.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { WordKind } from '../../src/line-router.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'routing');

/** The lines of a corpus file: one per line, without blank lines and `# ` comments. */
export function corpusLines(name: string): string[] {
  return readFileSync(path.join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('# ') && l !== '#');
}

const BUILTINS =
  'cd pwd echo printf print read set unset export alias unalias source . eval exec exit logout return break continue shift trap wait jobs fg bg disown kill type whence where which command builtin hash history fc help let local declare typeset readonly umask ulimit pushd popd dirs times true false test [ setopt unsetopt autoload bindkey zle compdef rehash emulate zmodload vared noglob getopts suspend';
const KEYWORDS = 'if then else elif fi for while until do done case esac select function time coproc { } ! [[ ]] in repeat foreach end nocorrect';
const PROGRAMS =
  'ls cat less more head tail grep egrep rg ag find fd locate tree stat wc uniq tr sed awk diff cmp comm xargs tee touch mkdir rmdir rm cp mv ln chmod chown realpath basename dirname readlink tar zip unzip gzip gunzip xz jq bat nl od xxd strings base64 md5sum sha256sum du df mount lsblk ps pgrep pkill killall top htop uptime uname whoami id date env printenv hostname nohup sleep sudo su systemctl journalctl dmesg lsof strace tput stty man vim vi nvim nano emacs code view tmux screen git gh make cmake gcc cc clang gdb npm npx pnpm yarn node deno bun tsc python python3 pip pip3 uv pytest ruby gem bundle perl go cargo rustc rustup java mvn gradle php docker kubectl helm terraform ssh scp rsync curl wget ping dig nslookup ip ss netstat nc apt apt-get apt-cache dpkg brew sh bash zsh fish yes seq shuf sort cut paste join split fold fmt column rev tac watch who w users last free file info install whatis apropos whereis cal units bc script clear reset open xdg-open say convert rename look write wall expand factor nice timeout time 7z unrar dos2unix iconv vmstat iostat nproc lscpu renice tldr exa eza zoxide fzf ncdu neofetch btop minikube kind kubectx kubens aws gcloud az pipx black ruff mypy poetry jupyter gofmt ninja clang-format valgrind rails rake composer ssh-keygen ssh-copy-id http mtr host whois nmap ifconfig traceroute crontab at dnf pacman javac';
const ALIASES = 'll la k gs';
const FUNCTIONS = 'mkcd nvm z';

const table = new Map<string, WordKind>();
for (const [words, kind] of [
  [PROGRAMS, 'file'],
  [KEYWORDS, 'keyword'],
  [BUILTINS, 'builtin'],
  [ALIASES, 'alias'],
  [FUNCTIONS, 'function'],
] as const) {
  for (const w of words.split(' ')) table.set(w, kind);
}

/** What the scripted zsh says a word is: null for a word it does not know. */
export function corpusKindOf(word: string): WordKind | null {
  return table.get(word) ?? null;
}

const DIRECTORIES = new Set(['src', 'test', 'docs', 'node_modules', 'build', 'src/repl', '.', '..', '/tmp', '/etc', '/usr', '/usr/bin']);
const FILES = new Set(['README.md', 'package.json', 'notes.txt', 'Makefile', '.env', '.env.example', 'build.sh', 'build.log', 'names.txt', 'src/main.ts', 'src/line-router.ts', '/etc/hosts', '/etc/passwd', '/etc/os-release']);

/** Whether a directory exists in the scripted project. */
export function corpusIsDirectory(p: string): boolean {
  return DIRECTORIES.has(p.replace(/\/$/, ''));
}

/** Whether a file or directory exists in the scripted project. */
export function corpusExists(p: string): boolean {
  return FILES.has(p) || corpusIsDirectory(p);
}
