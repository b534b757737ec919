# aish's shell integration for zsh (docs/shell.md): the person's .zshrc, then markers for the prompt
# (R), the start of a command (C), its end with status and directory (D), a continuation prompt (P)
# and answers to aish's queries (Q), each `ESC ] 6973 ; kind ; secret ; fields BEL`. The secret is
# __aish_k, set by the file that sourced this one.
ZDOTDIR=$__aish_user_zdotdir
if [[ ${__aish_rc-1} == 1 && -r $ZDOTDIR/.zshrc ]]; then
  source "$ZDOTDIR/.zshrc"
fi
unset __aish_rc

# A field of a marker: no BEL, ESC, newline, carriage return, unit separator, `;` or `%` left raw.
__aish_enc() {
  local v=${1//\%/%25}
  v=${v//;/%3B}; v=${v//$'\x1f'/%1F}; v=${v//$'\n'/%0A}; v=${v//$'\r'/%0D}; v=${v//$'\e'/%1B}; v=${v//$'\a'/%07}
  __aish_v=$v
}

# The command's status, kept first thing in precmd (and given back: the person's own hooks after
# it see it in $? too). __aish_sn says it ran for this prompt.
__aish_status() { __aish_s=$? __aish_sn=1; return $__aish_s }
__aish_ret() { return $1 }

__aish_done() {
  local s=$? moved
  # precmd_functions assigned by the line lost __aish_status: $? here is the best there is for
  # this once; __aish_guard puts it back for the next.
  [[ -n ${__aish_sn-} ]] && s=$__aish_s
  __aish_s=$s __aish_sn=
  __aish_fds
  moved=$__aish_v
  __aish_end $s "$moved" 1
  __aish_guard
  return $s
}

# The end marker: status, directory, the lines typed ahead (read when $3 is set), where the line
# had moved the shell's own input and output (see __aish_fds), and `late` when given at aish's
# `end` question rather than by the prompt hook.
__aish_end() {
  local s=$1 moved=$2 n=0 line typed=
  # Whole lines typed while the command ran that it did not read are handed to aish, which runs
  # them as typed lines (read here, they would otherwise run outside aish).
  while [[ -n $3 ]] && (( n < 64 )) && read -r -t 0.05 line 2>/dev/null; do
    typed+=$line$'\x1f'
    n=$((n + 1))
  done
  __aish_enc "$typed"
  typed=$__aish_v
  __aish_enc "$moved"
  moved=$__aish_v
  __aish_enc "$PWD"
  print -rn -- $'\e]6973;D;'"$__aish_k;$s;$__aish_v;$typed;$moved;${4-}"$'\a'
  # The commands begun this end is for: a later `end` query knows from it whether one is owed.
  __aish_dn=$__aish_cn
}

# The shell's own input, output and error back on its terminal when a line moved them (`exec
# >file`, `exec 2>&1 >file`, `exec 1>&-`): aish's markers (with the secret) would go there, and
# nothing would reach aish any more. Where each had gone goes into __aish_v for aish's status line.
# (A widget's input is /dev/null: called from one, only output and error are looked at.)
__aish_fds() {
  local fd to
  __aish_v=
  [[ -t 0 && -t 1 && -t 2 ]] && return
  (( $# )) || set -- 0 1 2
  for fd; do
    [[ -t $fd ]] && continue
    to=
    [[ -L /proc/$$/fd/$fd ]] && { to=$(readlink /proc/$$/fd/$fd 2>/dev/null) || to='?' }
    __aish_v+="$fd ${to:-closed}"$'\n'
    case $fd in
      0) exec 0</dev/tty ;;
      1) exec 1>/dev/tty ;;
      2) exec 2>/dev/tty ;;
    esac
  done
}

# aish's hooks, prompt, options and keys, put back where a line removed or replaced them
# (`precmd_functions=()`, `preexec_functions=()`, `unsetopt hist_ignore_space`, `bindkey -r`): run
# at each prompt and as aish clears the line before typing a command (the KILL_LINE widget), in
# the shell, without a fork. The person's own hooks are kept, between aish's: __aish_status first
# (it must see the command's $?), __aish_done last, __aish_preexec last of preexec.
__aish_guard() {
  local m
  typeset -ga precmd_functions preexec_functions
  if [[ ${precmd_functions[1]-} != __aish_status || ${precmd_functions[-1]-} != __aish_done ]]; then
    precmd_functions=(__aish_status ${precmd_functions:#__aish_(status|done)} __aish_done)
  fi
  [[ ${preexec_functions[-1]-} == __aish_preexec ]] || preexec_functions=(${preexec_functions:#__aish_preexec} __aish_preexec)
  # A PS1 the person set since (typed, or by a theme's precmd) is theirs.
  if [[ $PS1 != "$__aish_r" ]]; then
    [[ $PS1 == *"6973;R;$__aish_k"* ]] || __aish_ps1=$PS1
    PS1=$__aish_r
  fi
  PS2=$__aish_p
  RPS1=''
  RPS2=''
  setopt ignore_eof hist_ignore_space
  for m in emacs viins vicmd; do
    bindkey -M $m $'\e[9901~' __aish_clear
    bindkey -M $m $'\e[9902~' __aish_query
  done
}

# The KILL_LINE key, typed before each command: the line is cleared and the hooks checked.
__aish_clear() {
  BUFFER=''
  CURSOR=0
  __aish_guard
}

__aish_preexec() {
  __aish_cn=$((__aish_cn + 1))
  print -rn -- $'\e]6973;C;'"$__aish_k"$'\a'
}

# Tab's answer (__aish_complete): the person's compsys when compinit ran, else names and files.
source "${${(%):-%x}:h}/complete.zsh"

__aish_query() {
  local st=$? q=$BUFFER id op arg out n
  BUFFER=''
  CURSOR=0
  id=${q%% *}; q=${q#* }; op=${q%% *}; arg=${q#* }
  case $op in
    end)
      # aish saw the prompt come back after a command without its end marker: the line removed
      # aish's precmd hook. The end is given here, once (only when a command began since the
      # last one), with the status zle kept; the hooks are back for the next line.
      if (( __aish_cn != __aish_dn )); then
        __aish_s=$st __aish_sn=
        __aish_fds 1 2
        __aish_end $st "$__aish_v" '' late
      fi
      __aish_guard
      return
      ;;
    kind)
      # What `whence -w` says, asked without a subshell.
      out=
      if (( $+aliases[$arg] )); then out=alias
      elif (( ${reswords[(Ie)$arg]} )); then out=keyword
      elif (( $+functions[$arg] )); then out=function
      elif (( $+builtins[$arg] )); then out=builtin
      elif (( $+commands[$arg] )); then out=file
      fi
      ;;
    keys)
      # The editing mode the person chose (`bindkey -v`).
      out=emacs
      [[ "$(bindkey -lL main)" == *viins* ]] && out=vi
      # A directory typed as a command changes to it: the router sends such a line to the shell.
      [[ -o autocd ]] && out+=' autocd'
      ;;
    prompt)
      # The person's prompt as zsh draws it (`shell.prompt_from_shell`): %-escapes, and with
      # prompt_subst their $(...), with the last command's status in $?.
      __aish_ret $__aish_s
      out=${(%%)__aish_ps1}
      ;;
    jobs)
      # Asked as aish ends: the process groups of its jobs (a disowned job is not one of them).
      out=
      for n in ${(v)jobstates}; do
        out+="${${n#*:*:}%%=*} "
      done
      ;;
    complete)
      __aish_complete "$arg"
      out=$__aish_v
      ;;
    histfile)
      # Where the person's history is kept: aish's Up reaches it.
      out=$HISTFILE
      ;;
    histadd)
      # A line aish typed with a leading space because it held a secret, as aish redacted it (the
      # line itself, still held until the next one, goes as this one comes).
      out=
      print -s -r -- "$arg"
      ;;
    env)
      out=
      for n in ${(k)parameters[(R)*export*]}; do
        __aish_enc "${(P)n}"
        out+="$n=$__aish_v"$'\x1f'
      done
      ;;
  esac
  __aish_enc "$out"
  print -rn -- $'\e]6973;Q;'"$__aish_k;$id;$__aish_v"$'\a'
}

zle -N __aish_query
zle -N __aish_clear
__aish_cn=0 __aish_dn=0
typeset -ga precmd_functions preexec_functions
precmd_functions=(__aish_status ${precmd_functions:#__aish_*} __aish_done)
preexec_functions=(${preexec_functions:#__aish_*} __aish_preexec)
unsetopt prompt_sp
PROMPT_EOL_MARK=''
# The person's prompt, kept for the `prompt` query: PS1 holds aish's marker from here on. A
# terminal without a cursor-up (TERM=dumb, or one zsh does not know) gets zle's single-line mode,
# which draws no prompt of zero width: there the marker is not marked as zero-width (it is never
# shown; zle only counts it).
__aish_ps1=$PS1
zmodload zsh/terminfo 2>/dev/null
if (( ${+terminfo[cuu1]} )); then
  __aish_r=$'%{\e]6973;R;'"$__aish_k"$'\a%}'
  __aish_p=$'%{\e]6973;P;'"$__aish_k"$'\a%}'
else
  __aish_r=$'\e]6973;R;'"$__aish_k"$'\a'
  __aish_p=$'\e]6973;P;'"$__aish_k"$'\a'
fi
PS1=$__aish_r
# A stray end of input (aish's, for a piped run) must never end the session's shell; a line typed
# with a leading space stays out of the history, whatever the rc file chose (aish types a line
# holding a secret so); aish's keys are bound. __aish_guard keeps all this in place from now on.
__aish_guard
