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

__aish_status() { __aish_s=$? }
__aish_ret() { return $1 }

__aish_done() {
  local s=$__aish_s n=0 line typed=
  # Whole lines typed while the command ran that it did not read are handed to aish, which runs
  # them as typed lines (read here, they would otherwise run outside aish).
  while (( n < 64 )) && read -r -t 0.05 line 2>/dev/null; do
    typed+=$line$'\x1f'
    n=$((n + 1))
  done
  __aish_enc "$typed"
  typed=$__aish_v
  __aish_enc "$PWD"
  print -rn -- $'\e]6973;D;'"$__aish_k;$s;$__aish_v;$typed"$'\a'
  # A PS1 the person set since (typed, or by a theme's precmd) is theirs.
  [[ $PS1 == *"6973;R;$__aish_k"* ]] || __aish_ps1=$PS1
  PS1=$'%{\e]6973;R;'"$__aish_k"$'\a%}'
  PS2=$'%{\e]6973;P;'"$__aish_k"$'\a%}'
  RPS1=''
  RPS2=''
  return $s
}

__aish_preexec() { print -rn -- $'\e]6973;C;'"$__aish_k"$'\a' }

# Tab's answer (__aish_complete): the person's compsys when compinit ran, else names and files.
source "${${(%):-%x}:h}/complete.zsh"

__aish_query() {
  local q=$BUFFER id op arg out n
  BUFFER=''
  CURSOR=0
  id=${q%% *}; q=${q#* }; op=${q%% *}; arg=${q#* }
  case $op in
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
typeset -ga precmd_functions preexec_functions
precmd_functions=(__aish_status ${precmd_functions:#__aish_*} __aish_done)
preexec_functions=(${preexec_functions:#__aish_*} __aish_preexec)
setopt ignore_eof
# A line typed with a leading space stays out of the history, whatever the rc file chose: aish
# types a line holding a secret so (and adds it redacted), and keeps such a line out of its own.
setopt hist_ignore_space
unsetopt prompt_sp
PROMPT_EOL_MARK=''
# The person's prompt, kept for the `prompt` query: PS1 holds aish's marker from here on.
__aish_ps1=$PS1
PS1=$'%{\e]6973;R;'"$__aish_k"$'\a%}'
PS2=$'%{\e]6973;P;'"$__aish_k"$'\a%}'
RPS1=''
for __aish_m in emacs viins vicmd; do
  bindkey -M $__aish_m $'\e[9901~' kill-whole-line
  bindkey -M $__aish_m $'\e[9902~' __aish_query
done
unset __aish_m
