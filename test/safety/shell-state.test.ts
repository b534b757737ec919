// Lines that change the session's shell for later commands (issue 23) always ask: with
// shell.confirm_cmd off, under permissions.allow ['*'], and in Norris (a HALT); deny still wins, a
// destructive body is reported destructive, and look-alikes do not ask.

import { describe, expect, it } from 'vitest';
import { permsCommands } from '../../src/meta/perms.js';
import type { PermsPort } from '../../src/meta/perms.js';
import { runNorris, type NorrisHost } from '../../src/norris/run.js';
import { ApprovalGate } from '../../src/safety/gate.js';
import { decide, type Policy } from '../../src/safety/policy.js';

const policy = (permissions: Partial<Policy['permissions']> = {}, confirmCommands = true): Policy => ({
  confirmCommands,
  permissions: { allow: [], confirm: [], deny: [], ...permissions },
  autoApprove: [],
});

/** Every way a line could otherwise run without a question. */
const LENIENT: [string, Policy, boolean][] = [
  ['shell.confirm_cmd off', policy({}, false), false],
  ["permissions.allow ['*']", policy({ allow: ['*'] }), false],
  ["allow ['*'] and confirm_cmd off", policy({ allow: ['*'] }, false), false],
  ['Norris', policy(), true],
  ["Norris with allow ['*']", policy({ allow: ['*'] }), true],
];

const LATER = 'changes what later commands do';
const AROUND = 'changes what the shell runs around each command';
const KEYS = "changes the shell's key bindings";
const TAB = 'changes what Tab completion runs';

const ASKS: [shell: string, line: string, reason: string, why: string][] = [
  // aliases
  ['bash', "alias ll='ls -la'", "defines alias 'll'", LATER],
  ['bash', 'alias gs="git status" gd="git diff"', "defines alias 'gs'", LATER],
  ['bash', 'builtin alias x=y', "defines alias 'x'", LATER],
  ['zsh', "alias -g G='| grep'", "defines alias 'G'", LATER],
  ['zsh', 'alias -s txt=less', "defines alias 'txt'", LATER],
  ['bash', 'command alias x=y', "defines alias 'x'", LATER],
  ['bash', 'echo hi; alias x=y', "defines alias 'x'", LATER],
  ['zsh', "eval 'alias x=y'", "defines alias 'x'", LATER],
  ['bash', 'unalias ll', "removes alias 'll'", LATER],
  ['bash', 'unalias -a', 'removes every alias', LATER],
  ['zsh', 'unhash -a ll', "removes 'll'", LATER],
  // functions, every form
  ['bash', 'ls() { command ls --color "$@"; }', "defines function 'ls'", LATER],
  ['bash', 'function greet { echo "hi $1"; }', "defines function 'greet'", LATER],
  ['bash', 'function greet() { echo hi; }', "defines function 'greet'", LATER],
  ['bash', 'function greet ( echo hi )', "defines function 'greet'", LATER],
  ['bash', 'greet () ( echo hi )', "defines function 'greet'", LATER],
  ['bash', 'greet()\n{\n  echo hi\n}', "defines function 'greet'", LATER],
  ['bash', 'function greet\n{\n  echo hi\n}', "defines function 'greet'", LATER],
  ['bash', 'f() if true; then echo hi; fi', "defines function 'f'", LATER],
  ['bash', 'f() [[ -n $1 ]]', "defines function 'f'", LATER],
  ['bash', 'f() for x in a b; do echo $x; done', "defines function 'f'", LATER],
  ['bash', 'cd /tmp && mkcd() { mkdir -p "$1" && cd "$1"; }', "defines function 'mkcd'", LATER],
  ['bash', "eval 'f() { echo hi; }'", "defines function 'f'", LATER],
  ['bash', 'command_not_found_handle() { echo "no $1"; }', "defines function 'command_not_found_handle'", LATER],
  ['zsh', 'command_not_found_handler() { echo "no $1"; }', "defines function 'command_not_found_handler'", LATER],
  ['zsh', 'function f g { echo hi; }', "defines function 'f'", LATER],
  ['zsh', 'f g () { echo hi; }', "defines function 'f'", LATER],
  ['zsh', 'f() echo hi', "defines function 'f'", LATER],
  ['zsh', 'precmd() { print -Pn "\\e]0;%~\\a"; }', "defines function 'precmd'", AROUND],
  ['zsh', 'preexec() { echo "$1"; }', "defines function 'preexec'", AROUND],
  ['zsh', 'chpwd() { ls; }', "defines function 'chpwd'", AROUND],
  ['zsh', 'periodic() { date; }', "defines function 'periodic'", AROUND],
  ['zsh', 'zshexit() { echo bye; }', "defines function 'zshexit'", AROUND],
  ['zsh', 'TRAPINT() { return 128; }', "defines function 'TRAPINT'", LATER],
  ['bash', 'unset -f ls', "removes function 'ls'", LATER],
  ['bash', 'true && f() { :; }', "defines function 'f'", LATER],
  ['zsh', 'unfunction precmd', "removes function 'precmd'", LATER],
  ['zsh', 'autoload -Uz add-zsh-hook', "autoloads function 'add-zsh-hook'", LATER],
  // traps
  ['bash', "trap 'echo bye' EXIT", 'changes the trap on EXIT', LATER],
  ['bash', 'trap \'echo "$BASH_COMMAND"\' DEBUG', 'changes the trap on DEBUG', LATER],
  ['bash', "trap 'echo failed' ERR", 'changes the trap on ERR', LATER],
  ['bash', "trap 'echo back' RETURN", 'changes the trap on RETURN', LATER],
  ['bash', "trap -- 'echo x' INT TERM", 'changes the trap on INT TERM', LATER],
  ['bash', "trap '' INT", 'changes the trap on INT', LATER],
  ['bash', "builtin trap 'echo x' INT", 'changes the trap on INT', LATER],
  ['bash', "command trap 'echo x' INT", 'changes the trap on INT', LATER],
  ['bash', "cd /tmp && trap 'echo x' EXIT", 'changes the trap on EXIT', LATER],
  ['zsh', "eval \"trap 'echo x' INT\"", 'changes the trap on INT', LATER],
  ['bash', 'trap - INT', 'changes the trap on INT', LATER],
  // code run at each prompt
  ['bash', "PROMPT_COMMAND='history -a'", 'sets PROMPT_COMMAND', AROUND],
  ['bash', 'export PROMPT_COMMAND="date"', 'sets PROMPT_COMMAND', AROUND],
  ['bash', "PROMPT_COMMAND+=('date')", 'sets PROMPT_COMMAND', AROUND],
  ['bash', "PS0='$(date)'", 'sets PS0', AROUND],
  ['bash', "PS1='\\u@\\h:\\w\\$ '", 'sets PS1', AROUND],
  ['bash', "declare -x PS1='> '", 'sets PS1', AROUND],
  ['bash', "readonly PS4='+ '", 'sets PS4', AROUND],
  ['zsh', "PROMPT='%~ %# '", 'sets PROMPT', AROUND],
  ['zsh', "RPROMPT='$(git branch --show-current)'", 'sets RPROMPT', AROUND],
  ['zsh', 'precmd_functions+=(my_precmd)', 'sets precmd_functions', AROUND],
  ['zsh', 'preexec_functions=(my_preexec)', 'sets preexec_functions', AROUND],
  ['zsh', 'typeset -ga chpwd_functions', 'sets chpwd_functions', AROUND],
  ['zsh', 'add-zsh-hook precmd my_precmd', "changes the zsh hook 'precmd'", AROUND],
  ['zsh', 'add-zsh-hook -d preexec my_preexec', "changes the zsh hook 'preexec'", AROUND],
  ['zsh', 'function precmd { date; }', "defines function 'precmd'", AROUND],
  ['zsh', 'precmd_functions[1]=my_precmd', 'sets precmd_functions', AROUND],
  ['zsh', 'typeset -a precmd_functions=(my_precmd)', 'sets precmd_functions', AROUND],
  ['zsh', 'true; chpwd_functions=(ls)', 'sets chpwd_functions', AROUND],
  ['zsh', "RPROMPT+='%T'", 'sets RPROMPT', AROUND],
  ['bash', 'declare -a PROMPT_COMMAND=(date)', 'sets PROMPT_COMMAND', AROUND],
  ['bash', "PROMPT_COMMAND[1]='date'", 'sets PROMPT_COMMAND', AROUND],
  ['bash', 'export PS1', 'sets PS1', AROUND],
  ['bash', "PS2='> '", 'sets PS2', AROUND],
  ['bash', "command export PS0='x'", 'sets PS0', AROUND],
  ['bash', "eval \"PROMPT_COMMAND='date'\"", 'sets PROMPT_COMMAND', AROUND],
  ['bash', "printf -v PS1 '%s' '$ '", 'sets PS1', AROUND],
  ['bash', 'read -r PROMPT_COMMAND < cmd.txt', 'sets PROMPT_COMMAND', AROUND],
  ['bash', 'mapfile -t PROMPT_COMMAND < cmds.txt', 'sets PROMPT_COMMAND', AROUND],
  ['bash', 'unset PS1', 'unsets PS1', LATER],
  ['bash', 'unset -v PROMPT_COMMAND', 'unsets PROMPT_COMMAND', LATER],
  ['zsh', 'unset precmd_functions', 'unsets precmd_functions', LATER],
  // startup files and where commands are found
  ['bash', 'BASH_ENV=~/.env', 'sets BASH_ENV', LATER],
  ['bash', 'export ENV=~/.shrc', 'sets ENV', LATER],
  ['bash', 'export PATH=/tmp/evil:$PATH', 'sets PATH', LATER],
  ['bash', 'PATH+=:/opt/bin', 'sets PATH', LATER],
  ['bash', 'PATH=/opt/bin:$PATH', 'sets PATH', LATER],
  ['bash', 'local PATH=/opt/bin', 'sets PATH', LATER],
  ['zsh', 'typeset -x PATH=/opt/bin', 'sets PATH', LATER],
  ['zsh', 'path+=(/tmp/evil)', 'sets path', LATER],
  ['zsh', 'true && path[1]=/tmp/evil', 'sets path', LATER],
  ['bash', 'command export PATH=/tmp/evil:$PATH', 'sets PATH', LATER],
  ['bash', 'builtin hash -p /tmp/evil/ls ls', "sets the program run as 'ls'", LATER],
  ['zsh', 'path=(/opt/bin $path)', 'sets path', LATER],
  ['zsh', 'fpath+=(~/.zfunc)', 'sets fpath', LATER],
  ['bash', 'hash -p /tmp/evil/ls ls', "sets the program run as 'ls'", LATER],
  ['zsh', 'hash ls=/tmp/evil/ls', "sets the program run as 'ls'", LATER],
  ['bash', 'enable -f ./mybuiltin.so mybuiltin', "loads a builtin 'mybuiltin'", LATER],
  ['bash', 'enable -n cd', "disables 'cd'", LATER],
  ['zsh', 'disable -a ll', "disables 'll'", LATER],
  ['bash', 'source venv/bin/activate', "sources 'venv/bin/activate'", LATER],
  ['bash', '. ~/.bashrc', "sources '~/.bashrc'", LATER],
  ['zsh', 'source ~/.zshrc', "sources '~/.zshrc'", LATER],
  // keys
  ['bash', 'bind -x \'"\\C-t": date\'', 'binds a key to a command (bind -x)', KEYS],
  ['zsh', 'zle -N my-widget', "defines widget 'my-widget'", KEYS],
  ['zsh', "bindkey -s '^g' 'git status\\n'", 'binds a key to typed text (bindkey -s)', KEYS],
  // keys, any form (issue 34): a key bound to typed text types a command at the next key press
  ['bash', 'bind \'"\\e[9901~": "echo pwned\\n"\'', 'binds a key', KEYS],
  ['bash', 'bind "\\"\\C-x\\": \\"ls\\n\\""', 'binds a key', KEYS],
  ['bash', 'builtin bind \'"\\C-x": "ls\\n"\'', 'binds a key', KEYS],
  ['bash', 'true && bind \'"a": "b"\'', 'binds a key', KEYS],
  ['bash', 'eval "bind \'\\"\\C-x\\": \\"ls\\n\\"\'"', 'binds a key', KEYS],
  ['bash', 'bind -m vi-insert \'"jj": vi-movement-mode\'', 'binds a key', KEYS],
  ['bash', 'command bind -x \'"\\C-t": date\'', 'binds a key to a command (bind -x)', KEYS],
  ['bash', 'bind -f ~/.inputrc', 'reads key bindings from a file (bind -f)', KEYS],
  ['bash', "bind -r '\\C-x'", 'removes a key binding', KEYS],
  ['bash', 'echo hi; bind -u kill-whole-line', 'removes a key binding', KEYS],
  ['bash', "bind 'set editing-mode vi'", 'changes a line-editing setting', KEYS],
  ['zsh', "bindkey '^X' kill-line", 'binds a key', KEYS],
  ['zsh', 'bindkey -M viins jj vi-cmd-mode', 'binds a key', KEYS],
  ['zsh', "builtin bindkey -s '^g' 'ls\\n'", 'binds a key to typed text (bindkey -s)', KEYS],
  ['zsh', 'eval "bindkey \'^X\' kill-line"', 'binds a key', KEYS],
  ['zsh', 'bindkey -v', 'changes the editing mode', KEYS],
  ['zsh', 'bindkey -e', 'changes the editing mode', KEYS],
  ['zsh', "bindkey -r '^X'", 'changes a keymap', KEYS],
  ['zsh', 'bindkey -A emacs main', 'changes a keymap', KEYS],
  ['zsh', 'zle -C my-complete complete-word _main_complete', "defines widget 'my-complete'", KEYS],
  ['zsh', 'zle -A kill-line my-kill', "defines widget 'my-kill'", KEYS],
  ['zsh', 'zle -D my-widget', "removes widget 'my-widget'", KEYS],
  // completions: `-C` and `-F` run code at each Tab
  ['bash', "complete -C 'date' ls", "sets the completion of 'ls'", TAB],
  ['bash', 'complete -F _my_git git', "sets the completion of 'git'", TAB],
  ['bash', "command complete -W 'a b' x", "sets the completion of 'x'", TAB],
  ['bash', 'complete -D -F _default', "sets the completion of 'every command'", TAB],
  ['bash', 'complete -r ls', "removes the completion of 'ls'", TAB],
  ['zsh', 'compdef _git g', "sets the completion of 'g'", TAB],
  ['zsh', 'compctl -K my_fn cmd', "sets the completion of 'cmd'", TAB],
  // name references: `p=date` later writes PROMPT_COMMAND
  ['bash', 'declare -n p=PROMPT_COMMAND', "makes 'p' a name reference to 'PROMPT_COMMAND'", LATER],
  ['bash', 'typeset -n p=PS1', "makes 'p' a name reference to 'PS1'", LATER],
  ['bash', 'local -n p=PATH', "makes 'p' a name reference to 'PATH'", LATER],
  ['bash', 'declare -gn p=x', "makes 'p' a name reference to 'x'", LATER],
  ['bash', 'declare -n p', "makes 'p' a name reference", LATER],
  ['bash', 'builtin declare -n p=PS0', "makes 'p' a name reference to 'PS0'", LATER],
  ['bash', "eval 'declare -n p=PROMPT_COMMAND'", "makes 'p' a name reference to 'PROMPT_COMMAND'", LATER],
  ['zsh', 'typeset -n p=PROMPT', "makes 'p' a name reference to 'PROMPT'", LATER],
  // fish
  ['fish', 'function ls; command ls -la $argv; end', "defines function 'ls'", LATER],
  ['fish', 'function greet --on-event fish_prompt; echo hi; end', "defines function 'greet'", LATER],
  ['fish', 'functions -c ls myls', "defines function 'myls'", LATER],
  ['fish', 'functions -e ls', "removes function 'ls'", LATER],
  ['fish', 'funced greet', "defines function 'greet'", LATER],
  ['fish', 'abbr -a gs git status', "defines abbreviation 'gs'", LATER],
  ['fish', 'abbr --add --position anywhere L "| less"', "defines abbreviation 'L'", LATER],
  ['fish', 'abbr -e gs', "removes abbreviation 'gs'", LATER],
  ['fish', 'set -gx PATH /tmp/evil $PATH', 'sets PATH', LATER],
  ['fish', 'set -p fish_function_path ~/evil', 'sets fish_function_path', LATER],
  ['fish', 'fish_add_path /tmp/evil', 'sets PATH', LATER],
  ['fish', "bind \\ct 'git status'", 'binds a key', KEYS],
  // options that end the shell at a failing line or let a trap skip commands
  ['bash', 'set -e', 'turns on errexit', LATER],
  ['bash', 'set -euo pipefail', 'turns on errexit', LATER],
  ['bash', 'set -o errexit', 'turns on errexit', LATER],
  ['bash', 'set -T', 'turns on functrace', LATER],
  ['bash', 'shopt -s extdebug', 'turns on extdebug', LATER],
  ['zsh', 'setopt err_exit', 'turns on errexit', LATER],
  ['zsh', 'setopt ERR_EXIT', 'turns on errexit', LATER],
  ['zsh', 'unsetopt no_err_exit', 'turns on errexit', LATER],
  // any other option change: globbing, splitting, exporting, the editing mode, AUTO_CD (issue 34)
  ['bash', 'set -o vi', 'turns on vi (the editing mode)', LATER],
  ['bash', 'set -f', 'turns on noglob', LATER],
  ['bash', 'set -a', 'turns on allexport', LATER],
  ['bash', 'set -k', 'turns on keyword', LATER],
  ['bash', 'set +o history', 'turns off history', LATER],
  ['bash', 'shopt -s dotglob', 'turns on dotglob', LATER],
  ['bash', 'shopt -s globstar', 'turns on globstar', LATER],
  ['bash', 'shopt -s nullglob failglob', 'turns on nullglob', LATER],
  ['bash', 'shopt -u expand_aliases', 'turns off expand_aliases', LATER],
  ['zsh', 'setopt shwordsplit', 'turns on shwordsplit', LATER],
  ['zsh', 'setopt autocd', 'turns on autocd', LATER],
  ['zsh', 'setopt EXTENDED_GLOB', 'turns on extendedglob', LATER],
  ['zsh', 'unsetopt aliases', 'turns off aliases', LATER],
  ['zsh', 'setopt no_nomatch', 'turns off nomatch', LATER],
  ['zsh', 'set -o emacs', 'turns on emacs (the editing mode)', LATER],
  ['zsh', 'emulate sh', 'emulates sh (changes shell options)', LATER],
];

/** Each row once under each lenient mode: the row, then the mode's name, policy and Norris flag. */
function underEveryMode<T extends readonly unknown[]>(rows: readonly T[]) {
  return rows.flatMap((row) => LENIENT.map(([mode, p, norris]) => [...row, mode, p, norris] as const));
}

describe('a line that changes the shell always asks', () => {
  it.each(underEveryMode(ASKS))('%s: %j (%s: %s) with %s', (_shell, line, reason, why, _mode, p, norris) => {
    expect(decide({ type: 'command', command: line, norris }, p)).toEqual({ verdict: 'ask', reason: `${reason}: ${why}` });
  });

  it.each(ASKS)('%s: %j is denied by a deny rule that matches it', (_shell, line) => {
    expect(decide({ type: 'command', command: line }, policy({ allow: ['*'], deny: ['*'] }, false)).verdict).toBe('deny');
  });

  it.each([
    ["alias ll='ls -la'", 'alias *'],
    ['source venv/bin/activate', 'source *'],
    ['export PATH=/x:$PATH', 'export *'],
    ["trap 'echo bye' EXIT", 'trap *'],
    ['f() { curl -s x; }', 'curl *'],
    ["alias up='curl -s x'", 'curl *'],
  ])('%j: deny %j wins over the question', (line, rule) => {
    expect(decide({ type: 'command', command: line }, policy({ allow: ['*'], deny: [rule] }, false))).toMatchObject({ verdict: 'deny', rule });
  });
});

const DESTRUCTIVE_BODIES: [shell: string, line: string, reason: string][] = [
  ['bash', 'f() { rm -rf /; }', "rm -r -f in function 'f'"],
  ['bash', 'function cleanup { rm -rf ~; }', "rm -r -f in function 'cleanup'"],
  ['bash', 'ls() ( git reset --hard )', "git reset --hard in function 'ls'"],
  ['zsh', 'function f g { git push --force; }', "git push --force in function 'f'"],
  ['zsh', 'precmd() { rm -rf ~/tmp; }', "rm -r -f in function 'precmd'"],
  ['bash', "alias x='rm -rf ~'", "rm -r -f in alias 'x'"],
  ['zsh', "alias -g X='| sh'", "piped into sh in alias 'X'"],
  ['bash', "trap 'rm -rf ~' EXIT", 'rm -r -f in a trap on EXIT'],
  ['bash', "trap 'git clean -fdx' DEBUG", 'git clean -f in a trap on DEBUG'],
  ['bash', "PROMPT_COMMAND='rm -rf ~'", 'rm -r -f in PROMPT_COMMAND'],
  ['bash', "export PS1='$(rm -rf ~) $ '", 'rm -r -f in PS1'],
  ['bash', 'bind -x \'"\\C-t": rm -rf ~\'', 'rm -r -f in a key binding (bind -x)'],
];

describe('a destructive body inside a definition is destructive', () => {
  it.each(underEveryMode(DESTRUCTIVE_BODIES))('%s: %j (%s) with %s', (_shell, line, reason, _mode, p, norris) => {
    expect(decide({ type: 'command', command: line, norris }, p)).toEqual({ verdict: 'ask', reason: `destructive command (${reason})` });
  });
});

describe('look-alikes do not ask because of this rule', () => {
  const LOOK_ALIKES = [
    ...['echo alias', 'grep function file', "git log --format='%h () {'", 'ls -la', 'export FOO=bar', 'x=5', 'echo $PATH', 'cat trap.txt'],
    ...['cd /tmp', 'pushd src', 'FOO=bar make', 'unset FOO', 'arr=(a b)', "echo 'f() { :; }'", "printf '%s\\n' 'alias x=y'", 'grep -r "alias " .'],
    ...['alias', 'alias ll', 'trap', 'trap -p', 'trap -l', 'declare -f ls', 'typeset -f', 'export -p', 'hash -r', 'hash ls', 'enable', 'bind -p'],
    ...['type ls', 'command -v alias', 'which source', 'man trap', 'help alias', 'set -o noclobber', 'set +e', 'set -x', 'set -- a b', 'set -o pipefail'],
    ...['shopt -u extdebug', 'setopt noerrexit', 'unsetopt errexit', 'setopt no_clobber', 'setopt xtrace', 'zle -l', '() { echo anonymous; }', 'function { echo anonymous; }'],
    // listings and look-ups of what issue 34 made always ask
    ...['bind -p', 'bind -l', 'bind -P', 'bind -q kill-line', 'bindkey', 'bindkey -L', "bindkey '^X'", 'bindkey -M vicmd', 'zle -L', 'complete', 'complete -p'],
    ...['complete -p git', 'compgen -c', 'compctl -L', 'compctl', 'declare -n', 'declare +n p', 'declare -p -n p', 'set -o', 'set +o', 'shopt', 'shopt -p', 'shopt globstar'],
    ...['shopt -q extglob', 'setopt', 'emulate', 'arr[1]=x', 'read line', "printf -v out '%s' x", 'mapfile -t lines', 'printf %s PS1', 'echo PROMPT_COMMAND'],
    ...['set x 5', 'set -gx EDITOR_THEME dark', 'abbr', 'abbr --list', 'abbr -q gs', 'functions', 'functions -q ls', 'bind'],
  ];
  it.each(underEveryMode(LOOK_ALIKES.map((line) => [line] as const)))('%j with %s runs', (line, _mode, p, norris) => {
    expect(decide({ type: 'command', command: line, norris }, p).verdict).toBe('allow');
  });

  it('they still ask under shell.confirm_cmd, for that reason only', () => {
    expect(decide({ type: 'command', command: 'echo alias' }, policy())).toEqual({ verdict: 'ask', reason: 'shell.confirm_cmd' });
  });
});

describe('Norris HALTs on a line that changes the shell', () => {
  function norrisHost(replies: string[], answer: string) {
    const asked: string[] = [];
    const ran: string[] = [];
    const host: NorrisHost = {
      request: async () => ({ outcome: 'done', text: replies.shift() ?? 'GOAL: complete', toolCalls: 0 }),
      runCommand: async (command) => void ran.push(command),
      note: () => {},
      gate: new ApprovalGate({ policy: policy({ allow: ['*'] }, false), ask: async (q) => (asked.push(q), answer), show: () => {} }),
      status: () => {},
      setSummarizing: () => {},
      maxSteps: 3,
      box: 'boxed',
    };
    return { host, asked, ran };
  }

  it.each([
    ["alias ll='ls -la'", `defines alias 'll': ${LATER}`],
    ['precmd() { date; }', `defines function 'precmd': ${AROUND}`],
    ['export PATH=/tmp/evil:$PATH', `sets PATH: ${LATER}`],
    ["trap 'echo bye' EXIT", `changes the trap on EXIT: ${LATER}`],
    ['bind \'"\\C-x": "ls\\n"\'', `binds a key: ${KEYS}`],
  ])('%j stops at the HALT gate; skip never runs it', async (line, reason) => {
    const { host, asked, ran } = norrisHost([`CMD: ${line}\nCMD: ls\n`], 's');
    expect(await runNorris('set up', host, new AbortController().signal)).toBe('done');
    expect(asked).toEqual([`[Norris] ${reason}: ${line}\n  proceed / skip / abort? [p/s/A] `]);
    expect(ran).toEqual(['ls']);
  });

  it('with nobody to ask, the HALT aborts the run', async () => {
    const { host, ran } = norrisHost(["CMD: alias ls='ls --color'\n"], 's');
    const alone = { ...host, gate: new ApprovalGate({ policy: policy({ allow: ['*'] }, false), ask: null, show: () => {} }) };
    expect(await runNorris('set up', alone, new AbortController().signal)).toBe('aborted');
    expect(ran).toEqual([]);
  });
});

describe(':perms check', () => {
  it.each([
    ["alias ll='ls -la'", "ask: defines alias 'll': changes what later commands do"],
    ['f() { rm -rf /; }', "ask: destructive command (rm -r -f in function 'f')"],
    ['echo alias', 'allow: permissions.allow: *'],
  ])('%j → %j', async (line, shown) => {
    const info: string[] = [];
    const ctx = { gate: new ApprovalGate({ policy: policy({ allow: ['*'] }), ask: null, show: () => {} }), render: { info: (t: string) => info.push(t) } };
    await permsCommands[0]!.run(`check ${line}`, ctx as unknown as PermsPort, new AbortController().signal);
    expect(info).toEqual([shown]);
  });
});
