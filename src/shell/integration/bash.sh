# aish's shell integration for bash (docs/shell.md). aish starts `bash --rcfile <its rc> -i`; that
# rc sets __aish_k (the session's secret) and __aish_rc (0: skip the person's rc files), then
# sources this file. It adds, after the person's own rc: markers for the prompt (R), the start of a
# command (C), its end with the status and directory (D), a continuation prompt (P) and answers to
# aish's queries (Q), each `ESC ] 6973 ; kind ; secret ; fields BEL`. The person's own prompt never
# shows (aish draws its own); their history, aliases, functions and options are untouched.

if [[ ${__aish_rc-1} == 1 ]]; then
  [[ -r ~/.bashrc ]] && . ~/.bashrc
fi

# A field of a marker: no BEL, ESC, newline, carriage return, unit separator, `;` or `%` left raw.
__aish_enc() {
  local v=${1//%/%25}
  v=${v//;/%3B}; v=${v//$'\x1f'/%1F}; v=${v//$'\n'/%0A}; v=${v//$'\r'/%0D}; v=${v//$'\e'/%1B}; v=${v//$'\a'/%07}
  __aish_v=$v
}

__aish_status() { __aish_s=$?; }

__aish_done() {
  local s=$__aish_s n=0 line typed=
  # Whole lines typed while the command ran that it did not read would run here next, outside
  # aish: they are read and handed to aish instead, which runs them as typed lines.
  # (aish passes keys on only once the command has started, so they arrive as whole lines; the
  # timeout is a guard: this hook must never wait for a line.)
  while (( n < 64 )) && read -t 0 2>/dev/null; do
    IFS= read -r -t 0.05 line 2>/dev/null || break
    typed+=$line$'\x1f'
    n=$((n + 1))
  done
  __aish_enc "$typed"
  typed=$__aish_v
  __aish_enc "$PWD"
  printf '\e]6973;D;%s;%s;%s;%s\a' "$__aish_k" "$s" "$__aish_v" "$typed"
  PS1='\[\e]6973;R;'"$__aish_k"'\a\]'
  PS2='\[\e]6973;P;'"$__aish_k"'\a\]'
  return "$s"
}

# aish's queries arrive as the line being edited plus a key bound to this function, so they never
# run as commands, never reach the history and leave no prompt.
__aish_query() {
  local q=$READLINE_LINE id op arg out n
  READLINE_LINE=''
  READLINE_POINT=0
  id=${q%% *}; q=${q#* }; op=${q%% *}; arg=${q#* }
  case $op in
    kind)
      # What `type -t` says, asked without a subshell (a fork per question would cost more than
      # the line it routes).
      out=
      if [[ -n ${BASH_ALIASES[$arg]+set} ]]; then out=alias
      elif [[ $arg =~ ^(if|then|else|elif|fi|case|esac|for|select|while|until|do|done|in|function|time|coproc|\{|\}|!|\[\[|\]\])$ ]]; then out=keyword
      elif declare -F -- "$arg" >/dev/null 2>&1; then out=function
      elif [[ $arg != *[][*?\\]* ]] && compgen -b -X "!$arg" -- "$arg" >/dev/null 2>&1; then out=builtin
      elif [[ $arg != */* ]] && type -P -- "$arg" >/dev/null 2>&1; then out=file
      fi
      ;;
    jobs)
      # Asked as aish ends: the jobs it hangs up (a disowned job is not one of them).
      out=$(jobs -p 2>/dev/null)
      ;;
    env)
      out=
      for n in $(compgen -e); do
        __aish_enc "${!n}"
        out+="$n=$__aish_v"$'\x1f'
      done
      ;;
  esac
  __aish_enc "$out"
  printf '\e]6973;Q;%s;%s;%s\a' "$__aish_k" "$id" "$__aish_v"
}

if (( BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1) )); then
  PROMPT_COMMAND=(__aish_status "${PROMPT_COMMAND[@]}" __aish_done)
else
  PROMPT_COMMAND=$'__aish_status\n'"${PROMPT_COMMAND}"$'\n__aish_done'
fi
PS0='\e]6973;C;'"$__aish_k"'\a'
PS1='\[\e]6973;R;'"$__aish_k"'\a\]'
PS2='\[\e]6973;P;'"$__aish_k"'\a\]'
PROMPT_DIRTRIM=
# A stray end of input (aish's, for a piped run) must never end the session's shell.
IGNOREEOF=1000
for __aish_m in emacs vi-insert vi-command; do
  bind -m "$__aish_m" 'set enable-bracketed-paste on' 2>/dev/null
  bind -m "$__aish_m" '"\e[9901~": kill-whole-line' 2>/dev/null
  bind -m "$__aish_m" -x '"\e[9902~": __aish_query' 2>/dev/null
done
unset __aish_m __aish_rc
