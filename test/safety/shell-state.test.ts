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

const ASKS: [shell: string, line: string, reason: string][] = [
  // aliases
  ['bash', "alias ll='ls -la'", "defines alias 'll'"],
  ['bash', 'alias gs="git status" gd="git diff"', "defines alias 'gs'"],
  ['bash', 'builtin alias x=y', "defines alias 'x'"],
  ['zsh', "alias -g G='| grep'", "defines alias 'G'"],
  ['zsh', 'alias -s txt=less', "defines alias 'txt'"],
  ['bash', 'unalias ll', "removes alias 'll'"],
  ['bash', 'unalias -a', 'removes every alias'],
  ['zsh', 'unhash -a ll', "removes 'll'"],
  // functions, every form
  ['bash', 'ls() { command ls --color "$@"; }', "defines function 'ls'"],
  ['bash', 'function greet { echo "hi $1"; }', "defines function 'greet'"],
  ['bash', 'function greet() { echo hi; }', "defines function 'greet'"],
  ['bash', 'function greet ( echo hi )', "defines function 'greet'"],
  ['bash', 'greet () ( echo hi )', "defines function 'greet'"],
  ['bash', 'greet()\n{\n  echo hi\n}', "defines function 'greet'"],
  ['bash', 'function greet\n{\n  echo hi\n}', "defines function 'greet'"],
  ['bash', 'f() if true; then echo hi; fi', "defines function 'f'"],
  ['bash', 'f() [[ -n $1 ]]', "defines function 'f'"],
  ['bash', 'f() for x in a b; do echo $x; done', "defines function 'f'"],
  ['bash', 'cd /tmp && mkcd() { mkdir -p "$1" && cd "$1"; }', "defines function 'mkcd'"],
  ['bash', "eval 'f() { echo hi; }'", "defines function 'f'"],
  ['bash', 'command_not_found_handle() { echo "no $1"; }', "defines function 'command_not_found_handle'"],
  ['zsh', 'command_not_found_handler() { echo "no $1"; }', "defines function 'command_not_found_handler'"],
  ['zsh', 'function f g { echo hi; }', "defines function 'f'"],
  ['zsh', 'f g () { echo hi; }', "defines function 'f'"],
  ['zsh', 'f() echo hi', "defines function 'f'"],
  ['zsh', 'precmd() { print -Pn "\\e]0;%~\\a"; }', "defines function 'precmd'"],
  ['zsh', 'preexec() { echo "$1"; }', "defines function 'preexec'"],
  ['zsh', 'chpwd() { ls; }', "defines function 'chpwd'"],
  ['zsh', 'periodic() { date; }', "defines function 'periodic'"],
  ['zsh', 'zshexit() { echo bye; }', "defines function 'zshexit'"],
  ['zsh', 'TRAPINT() { return 128; }', "defines function 'TRAPINT'"],
  ['bash', 'unset -f ls', "removes function 'ls'"],
  ['zsh', 'unfunction precmd', "removes function 'precmd'"],
  ['zsh', 'autoload -Uz add-zsh-hook', "autoloads function 'add-zsh-hook'"],
  // traps
  ['bash', "trap 'echo bye' EXIT", 'changes the trap on EXIT'],
  ['bash', 'trap \'echo "$BASH_COMMAND"\' DEBUG', 'changes the trap on DEBUG'],
  ['bash', "trap 'echo failed' ERR", 'changes the trap on ERR'],
  ['bash', "trap 'echo back' RETURN", 'changes the trap on RETURN'],
  ['bash', "trap -- 'echo x' INT TERM", 'changes the trap on INT TERM'],
  ['bash', "trap '' INT", 'changes the trap on INT'],
  ['bash', 'trap - INT', 'changes the trap on INT'],
  // code run at each prompt
  ['bash', "PROMPT_COMMAND='history -a'", 'sets PROMPT_COMMAND'],
  ['bash', 'export PROMPT_COMMAND="date"', 'sets PROMPT_COMMAND'],
  ['bash', "PROMPT_COMMAND+=('date')", 'sets PROMPT_COMMAND'],
  ['bash', "PS0='$(date)'", 'sets PS0'],
  ['bash', "PS1='\\u@\\h:\\w\\$ '", 'sets PS1'],
  ['bash', "declare -x PS1='> '", 'sets PS1'],
  ['bash', "readonly PS4='+ '", 'sets PS4'],
  ['zsh', "PROMPT='%~ %# '", 'sets PROMPT'],
  ['zsh', "RPROMPT='$(git branch --show-current)'", 'sets RPROMPT'],
  ['zsh', 'precmd_functions+=(my_precmd)', 'sets precmd_functions'],
  ['zsh', 'preexec_functions=(my_preexec)', 'sets preexec_functions'],
  ['zsh', 'typeset -ga chpwd_functions', 'sets chpwd_functions'],
  ['zsh', 'add-zsh-hook precmd my_precmd', "changes the zsh hook 'precmd'"],
  ['zsh', 'add-zsh-hook -d preexec my_preexec', "changes the zsh hook 'preexec'"],
  // startup files and where commands are found
  ['bash', 'BASH_ENV=~/.env', 'sets BASH_ENV'],
  ['bash', 'export ENV=~/.shrc', 'sets ENV'],
  ['bash', 'export PATH=/tmp/evil:$PATH', 'sets PATH'],
  ['bash', 'PATH+=:/opt/bin', 'sets PATH'],
  ['bash', 'PATH=/opt/bin:$PATH', 'sets PATH'],
  ['bash', 'local PATH=/opt/bin', 'sets PATH'],
  ['zsh', 'typeset -x PATH=/opt/bin', 'sets PATH'],
  ['zsh', 'path+=(/tmp/evil)', 'sets path'],
  ['zsh', 'path=(/opt/bin $path)', 'sets path'],
  ['zsh', 'fpath+=(~/.zfunc)', 'sets fpath'],
  ['bash', 'hash -p /tmp/evil/ls ls', "sets the program run as 'ls'"],
  ['zsh', 'hash ls=/tmp/evil/ls', "sets the program run as 'ls'"],
  ['bash', 'enable -f ./mybuiltin.so mybuiltin', "loads a builtin 'mybuiltin'"],
  ['bash', 'enable -n cd', "disables 'cd'"],
  ['zsh', 'disable -a ll', "disables 'll'"],
  ['bash', 'source venv/bin/activate', "sources 'venv/bin/activate'"],
  ['bash', '. ~/.bashrc', "sources '~/.bashrc'"],
  ['zsh', 'source ~/.zshrc', "sources '~/.zshrc'"],
  // keys
  ['bash', 'bind -x \'"\\C-t": date\'', 'binds a key to a command (bind -x)'],
  ['zsh', 'zle -N my-widget', "defines widget 'my-widget'"],
  ['zsh', "bindkey -s '^g' 'git status\\n'", 'binds a key to typed text (bindkey -s)'],
  // fish
  ['fish', 'function ls; command ls -la $argv; end', "defines function 'ls'"],
  ['fish', 'function greet --on-event fish_prompt; echo hi; end', "defines function 'greet'"],
  ['fish', 'functions -c ls myls', "defines function 'myls'"],
  ['fish', 'functions -e ls', "removes function 'ls'"],
  ['fish', 'funced greet', "defines function 'greet'"],
  ['fish', 'abbr -a gs git status', "defines abbreviation 'gs'"],
  ['fish', 'abbr --add --position anywhere L "| less"', "defines abbreviation 'L'"],
  ['fish', 'abbr -e gs', "removes abbreviation 'gs'"],
  ['fish', 'set -gx PATH /tmp/evil $PATH', 'sets PATH'],
  ['fish', 'set -p fish_function_path ~/evil', 'sets fish_function_path'],
  ['fish', 'fish_add_path /tmp/evil', 'sets PATH'],
  ['fish', "bind \\ct 'git status'", 'binds a key to a command'],
  // options that end the shell at a failing line or let a trap skip commands
  ['bash', 'set -e', 'turns on errexit'],
  ['bash', 'set -euo pipefail', 'turns on errexit'],
  ['bash', 'set -o errexit', 'turns on errexit'],
  ['bash', 'set -T', 'turns on functrace'],
  ['bash', 'shopt -s extdebug', 'turns on extdebug'],
  ['zsh', 'setopt err_exit', 'turns on errexit'],
  ['zsh', 'setopt ERR_EXIT', 'turns on errexit'],
  ['zsh', 'unsetopt no_err_exit', 'turns on errexit'],
];

/** Each row once under each lenient mode: the row, then the mode's name, policy and Norris flag. */
function underEveryMode<T extends readonly unknown[]>(rows: readonly T[]) {
  return rows.flatMap((row) => LENIENT.map(([mode, p, norris]) => [...row, mode, p, norris] as const));
}

describe('a line that changes the shell always asks', () => {
  it.each(underEveryMode(ASKS))('%s: %j (%s) with %s', (_shell, line, reason, _mode, p, norris) => {
    expect(decide({ type: 'command', command: line, norris }, p)).toEqual({ verdict: 'ask', reason: `${reason}: changes what later commands do` });
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
    ...['type ls', 'command -v alias', 'which source', 'man trap', 'help alias', 'set -o noclobber', 'set +e', 'set -x', 'set -- a b', 'shopt -s globstar'],
    ...['set x 5', 'set -gx EDITOR_THEME dark', 'abbr', 'abbr --list', 'abbr -q gs', 'functions', 'functions -q ls', 'bind', 'bind \\ct'],
    ...['shopt -u extdebug', 'setopt noerrexit', 'unsetopt errexit', 'setopt autocd', 'bindkey -e', 'zle -l', '() { echo anonymous; }', 'function { echo anonymous; }'],
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
    ["alias ll='ls -la'", "defines alias 'll'"],
    ['precmd() { date; }', "defines function 'precmd'"],
    ['export PATH=/tmp/evil:$PATH', 'sets PATH'],
    ["trap 'echo bye' EXIT", 'changes the trap on EXIT'],
  ])('%j stops at the HALT gate; skip never runs it', async (line, reason) => {
    const { host, asked, ran } = norrisHost([`CMD: ${line}\nCMD: ls\n`], 's');
    expect(await runNorris('set up', host, new AbortController().signal)).toBe('done');
    expect(asked).toEqual([`[Norris] ${reason}: changes what later commands do: ${line}\n  proceed / skip / abort? [p/s/A] `]);
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
