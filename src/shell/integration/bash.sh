# aish's shell integration for bash (docs/shell.md). aish starts `bash --rcfile <its rc> -i`; that
# rc sets __aish_k (the session's secret) and __aish_rc (0: skip the person's rc files), then
# sources this file. It adds, after the person's own rc: markers for the prompt (R), the start of a
# command (C), its end with the status and directory (D), a continuation prompt (P) and answers to
# aish's queries (Q), each `ESC ] 6973 ; kind ; secret ; fields BEL`. The shell never draws the
# person's own prompt (aish draws its own, or asks for theirs: the `prompt` query); their history,
# aliases, functions and options are untouched.

if [[ ${__aish_rc-1} == 1 ]]; then
  [[ -r ~/.bashrc ]] && . ~/.bashrc
fi

# A field of a marker: no BEL, ESC, newline, carriage return, unit separator, `;` or `%` left raw.
__aish_enc() {
  local v=${1//%/%25}
  v=${v//;/%3B}; v=${v//$'\x1f'/%1F}; v=${v//$'\n'/%0A}; v=${v//$'\r'/%0D}; v=${v//$'\e'/%1B}; v=${v//$'\a'/%07}
  __aish_v=$v
}

# The command's status, kept first thing in PROMPT_COMMAND (and given back: the person's own
# entries after it see it in $? too). __aish_sn says it ran for this prompt.
__aish_status() { __aish_s=$? __aish_sn=1; return "$__aish_s"; }
__aish_ret() { return "$1"; }

__aish_done() {
  local s=$? n=0 line typed= moved
  # A PROMPT_COMMAND the line assigned replaced __aish_status: $? here (the status of the entry
  # before this one) is the best there is for this once; __aish_guard puts it back for the next.
  [[ -n ${__aish_sn-} ]] && s=$__aish_s
  __aish_s=$s __aish_sn=
  __aish_fds
  moved=$__aish_v
  __aish_end "$s" "$moved" 1
  __aish_guard keys
  return "$s"
}

# The end marker: status, directory, the lines typed ahead (read when $3 is set), where the line
# had moved the shell's own input and output (see __aish_fds), and `late` when given at aish's
# `end` question rather than by the prompt hook.
__aish_end() {
  local s=$1 moved=$2 n=0 line typed= num='\#'
  # Whole lines typed while the command ran that it did not read would run here next, outside
  # aish: they are read and handed to aish instead, which runs them as typed lines.
  # (aish passes keys on only once the command has started, so they arrive as whole lines; the
  # timeout is a guard: this hook must never wait for a line.)
  while [[ -n $3 ]] && (( n < 64 )) && read -t 0 2>/dev/null; do
    IFS= read -r -t 0.05 line 2>/dev/null || break
    typed+=$line$'\x1f'
    n=$((n + 1))
  done
  __aish_enc "$typed"
  typed=$__aish_v
  __aish_enc "$moved"
  moved=$__aish_v
  __aish_enc "$PWD"
  printf '\e]6973;D;%s;%s;%s;%s;%s;%s\a' "$__aish_k" "$s" "$__aish_v" "$typed" "$moved" "${4-}"
  # The command number this end is for: a later `end` query knows from it whether one is owed.
  (( __aish_atp )) && __aish_dn=${num@P}
}

# The shell's own input, output and error back on its terminal when a line moved them (`exec
# >file`, `exec 2>&1 >file`, `exec 1>&-`): aish's markers (with the secret) would go there, and
# nothing would reach aish any more. Where each had gone goes into __aish_v for aish's status line.
__aish_fds() {
  local fd to
  __aish_v=
  [[ -t 0 && -t 1 && -t 2 ]] && return
  for fd in 0 1 2; do
    [[ -t $fd ]] && continue
    # A closed one is told apart first: the command substitution's pipe would take its number.
    to=
    [[ -L /proc/$$/fd/$fd ]] && { to=$(readlink "/proc/$$/fd/$fd" 2>/dev/null) || to='?'; }
    __aish_v+="$fd ${to:-closed}"$'\n'
    case $fd in
      0) exec 0</dev/tty ;;
      1) exec 1>/dev/tty ;;
      2) exec 2>/dev/tty ;;
    esac
  done
}

# aish's hooks and keys, put back where a line removed or replaced them (`unset PROMPT_COMMAND`,
# `PROMPT_COMMAND='history -a'`, `PS0=`, `bind -r`, `HISTCONTROL=ignoredups`): run at each prompt
# and as aish clears the line before typing a command (the KILL_LINE key), in the shell, without a
# fork. The person's own PROMPT_COMMAND entries are kept, between aish's two: __aish_status first
# (it must see the command's $?), __aish_done last. The keys are bound again only from the prompt
# hook (`keys`): not from within one of aish's own key functions, which readline is running.
__aish_guard() {
  local e m
  local -a keep=() pc
  if (( __aish_pca )); then
    pc=("${PROMPT_COMMAND[@]}")
    if (( ${#pc[@]} < 2 )) || [[ ${pc[0]} != __aish_status || ${pc[-1]} != __aish_done ]]; then
      for e in "${pc[@]}"; do
        [[ -z $e || $e == __aish_status || $e == __aish_done ]] || keep+=("$e")
      done
      PROMPT_COMMAND=(__aish_status "${keep[@]}" __aish_done)
    fi
  else
    case $PROMPT_COMMAND in
      __aish_status$'\n'*$'\n'__aish_done) ;;
      *)
        e=${PROMPT_COMMAND#__aish_status$'\n'}
        PROMPT_COMMAND=$'__aish_status\n'"${e%$'\n'__aish_done}"$'\n__aish_done'
        ;;
    esac
  fi
  [[ $PS0 == *"6973;C;$__aish_k"* ]] || PS0+=$__aish_c
  # A PS1 the person set since (typed, or by a prompt command of theirs: starship's) is theirs.
  if [[ $PS1 != "$__aish_r" ]]; then
    [[ $PS1 == *"6973;R;$__aish_k"* ]] || __aish_ps1=$PS1
    PS1=$__aish_r
  fi
  PS2='\[\e]6973;P;'"$__aish_k"'\a\]'
  IGNOREEOF=1000
  case :$HISTCONTROL: in
    *:ignorespace:*|*:ignoreboth:*) ;;
    *) HISTCONTROL=${HISTCONTROL:+$HISTCONTROL:}ignorespace ;;
  esac
  [[ $1 == keys ]] || return 0
  for m in emacs vi-insert vi-command; do
    bind -m "$m" -x '"\e[9901~": __aish_clear' 2>/dev/null
    bind -m "$m" -x '"\e[9902~": __aish_query' 2>/dev/null
  done
}

# The KILL_LINE key, typed before each command: the line is cleared and the hooks checked.
__aish_clear() {
  READLINE_LINE=''
  READLINE_POINT=0
  __aish_guard
}

# Splits a line as bash's programmable completion does, with the cursor at its end: the current
# command (after the last unquoted `;`, `&`, `|`, `(` or newline) into COMP_WORDS, where a run of
# the person's COMP_WORDBREAKS characters is a word of its own. __aish_word is the text readline
# would replace (after the last unquoted word break, from its opening quote when one is still
# open) and __aish_cur the same without quotes and backslashes.
__aish_cwords() {
  local line=$1 breaks=${COMP_WORDBREAKS-$' \t\n"\'><=;|&(:'} c q= esc= i start=0 word= kind= wstart=0 qstart=0
  for (( i = 0; i < ${#line}; i++ )); do
    c=${line:i:1}
    if [[ -n $esc ]]; then esc=
    elif [[ $q == "'" ]]; then [[ $c == "'" ]] && q=
    elif [[ $q == '"' ]]; then
      if [[ $c == '\' ]]; then esc=1; elif [[ $c == '"' ]]; then q=; fi
    elif [[ $c == '\' ]]; then esc=1
    elif [[ $c == [\"\'] ]]; then q=$c
    elif [[ $c == [\;\&\|\($'\n'] ]]; then start=$((i + 1))
    fi
  done
  COMP_LINE=${line:start}
  COMP_LINE=${COMP_LINE#"${COMP_LINE%%[![:space:]]*}"}
  COMP_POINT=${#COMP_LINE}
  COMP_WORDS=()
  q= esc=
  for (( i = 0; i < ${#COMP_LINE}; i++ )); do
    c=${COMP_LINE:i:1}
    if [[ -n $esc || -n $q ]]; then
      if [[ -n $esc ]]; then esc=
      elif [[ $c == "$q" ]]; then q=
      elif [[ $q == '"' && $c == '\' ]]; then esc=1
      fi
      word+=$c
      continue
    fi
    if [[ $c == [[:space:]] ]]; then
      [[ -n $word ]] && COMP_WORDS+=("$word")
      word= kind= wstart=$((i + 1))
    elif [[ $c != [\"\'\\] && $breaks == *"$c"* ]]; then
      [[ -n $word && $kind != b ]] && COMP_WORDS+=("$word") && word=
      word+=$c kind=b wstart=$((i + 1))
    else
      [[ $kind == b ]] && COMP_WORDS+=("$word") && word=
      [[ $c == \\ ]] && esc=1
      [[ $c == [\"\'] ]] && q=$c qstart=$i
      word+=$c kind=w
    fi
  done
  COMP_WORDS+=("$word")
  COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
  if [[ -n $q ]]; then __aish_word=${COMP_LINE:qstart}; else __aish_word=${COMP_LINE:wstart}; fi
  __aish_cur=
  q= esc=
  for (( i = 0; i < ${#__aish_word}; i++ )); do
    c=${__aish_word:i:1}
    if [[ -n $esc ]]; then esc= __aish_cur+=$c
    elif [[ $q == "'" ]]; then [[ $c == "'" ]] && q= || __aish_cur+=$c
    elif [[ $c == '\' && ( -z $q || ${__aish_word:i+1:1} == [\"\\\$\`] ) ]]; then esc=1
    elif [[ $c == "$q" ]]; then q=
    elif [[ -z $q && $c == [\"\'] ]]; then q=$c
    else __aish_cur+=$c
    fi
  done
}

# Candidates for the line in $1, as Tab in bash would find them, into __aish_v: the replaced text,
# then flags (f: file names, n: no space after), then the candidates, each after a \x1f. The
# person's completion functions run as they would at a Tab, reading nothing and printing nothing.
__aish_complete() {
  local COMP_LINE COMP_POINT COMP_CWORD COMP_TYPE=9 COMP_KEY=9 __aish_word __aish_cur
  local -a COMP_WORDS COMPREPLY=() __aish_sp __aish_ca
  local cmd prev spec func= opts= flags= c i out= IFS=$' \t\n'
  __aish_cwords "$1"
  cmd=${COMP_WORDS[0]} prev=${COMP_WORDS[COMP_CWORD-1]-}
  if (( COMP_CWORD == 0 )); then
    if [[ $__aish_cur == */* || $__aish_cur == [.~]* ]]; then
      flags=f
      mapfile -t COMPREPLY < <(builtin compgen -f -- "$__aish_cur" 2>/dev/null)
    else
      mapfile -t COMPREPLY < <(builtin compgen -A command -- "$__aish_cur" 2>/dev/null)
    fi
  else
    spec=$(builtin complete -p -- "$cmd" 2>/dev/null || { [[ $cmd == */* ]] && builtin complete -p -- "${cmd##*/}" 2>/dev/null; })
    if [[ -z $spec ]]; then
      # bash-completion's loader (`complete -D`) loads the command's completion and says 124.
      func=$(builtin complete -p -D 2>/dev/null)
      if [[ $func == *' -F '* ]]; then
        func=${func#* -F }; func=${func%% *}
        "$func" "$cmd" "$__aish_cur" "$prev" </dev/null >/dev/null 2>&1
        (( $? == 124 )) && spec=$(builtin complete -p -- "$cmd" 2>/dev/null)
      fi
      func=
    fi
    if [[ -z $spec ]]; then
      opts=' default '
    else
      eval "__aish_sp=(${spec#complete })" 2>/dev/null
      for (( i = 0; i < ${#__aish_sp[@]} - 1; i++ )); do
        case ${__aish_sp[i]} in
          -F) func=${__aish_sp[++i]} ;;
          -o) opts+=" ${__aish_sp[++i]} " ;;
          -D|-E|-I) ;;
          *) __aish_ca+=("${__aish_sp[i]}") ;;
        esac
      done
      (( ${#__aish_ca[@]} )) && mapfile -t COMPREPLY < <(builtin compgen "${__aish_ca[@]}" -- "$__aish_cur" 2>/dev/null)
      if [[ -n $func ]]; then
        local -a __aish_got=("${COMPREPLY[@]}")
        COMPREPLY=()
        "$func" "$cmd" "$__aish_cur" "$prev" </dev/null >/dev/null 2>&1
        COMPREPLY=("${__aish_got[@]}" "${COMPREPLY[@]}")
      fi
    fi
    [[ $opts == *' filenames '* ]] && flags=f
    [[ $opts == *' nospace '* ]] && flags+=n
    if [[ $opts == *' plusdirs '* ]] || { (( ${#COMPREPLY[@]} == 0 )) && [[ $opts == *' dirnames '* ]]; }; then
      flags=${flags/f/}f
      mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(builtin compgen -d -- "$__aish_cur" 2>/dev/null)
    fi
    if (( ${#COMPREPLY[@]} == 0 )) && [[ $opts == *' default '* || $opts == *' bashdefault '* ]]; then
      flags=${flags/f/}f
      mapfile -t COMPREPLY < <(builtin compgen -f -- "$__aish_cur" 2>/dev/null)
    fi
  fi
  for c in "${COMPREPLY[@]}"; do
    [[ $c == __aish_* ]] && continue
    if [[ $flags == *f* ]]; then
      i=$c
      [[ $i == '~/'* ]] && i=$HOME/${i#\~/}
      [[ -d $i && $c != */ ]] && c+=/
    fi
    out+=$'\x1f'$c
  done
  __aish_v=$__aish_word$'\x1f'$flags$out
}

# aish's queries arrive as the line being edited plus a key bound to this function, so they never
# run as commands, never reach the history and leave no prompt.
__aish_query() {
  local st=$? q=$READLINE_LINE id op arg out n num='\#'
  READLINE_LINE=''
  READLINE_POINT=0
  id=${q%% *}; q=${q#* }; op=${q%% *}; arg=${q#* }
  case $op in
    end)
      # aish saw the prompt come back after a command without its end marker: the line removed
      # aish's PROMPT_COMMAND. The end is given here, once (only when a command ran since the
      # last one), with the status readline kept; the hooks are back for the next line.
      if (( ! __aish_atp )) || [[ ${num@P} != "${__aish_dn-}" ]]; then
        __aish_s=$st __aish_sn=
        __aish_fds
        __aish_end "$st" "$__aish_v" '' late
      fi
      __aish_guard
      return
      ;;
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
    keys)
      # The editing mode the person chose (`set -o vi`, `editing-mode vi` in ~/.inputrc).
      if [[ -o vi ]]; then out=vi; else out=emacs; fi
      ;;
    prompt)
      # The person's prompt as bash draws it (`shell.prompt_from_shell`), with the last command's
      # status in $?. `@P` is bash 4.4's; an older bash answers nothing (aish draws its own).
      if (( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )); then
        __aish_ret "$__aish_s"
        out=${__aish_ps1@P}
      fi
      ;;
    jobs)
      # Asked as aish ends: the jobs it hangs up (a disowned job is not one of them).
      out=$(jobs -p 2>/dev/null)
      ;;
    complete)
      __aish_complete "$arg"
      out=$__aish_v
      ;;
    histfile)
      # Where the person's history is kept (HISTFILE is rarely exported): aish's Up reaches it.
      out=$HISTFILE
      ;;
    histsave)
      # Asked as aish ends, before the hangup: bash hung up just after a bound function ran (aish
      # asks for the jobs then) exits without writing the lines of this session to HISTFILE.
      # (A person who unset HISTFILE keeps no history file: history -a is not left to pick one.)
      out=
      [[ -n ${HISTFILE-} ]] && history -a 2>/dev/null
      ;;
    histadd)
      # A line aish typed with a leading space because it held a secret, as aish redacted it: it
      # takes the place the line would have had in the history.
      out=
      [[ -o history ]] && history -s -- "$arg"
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

# PROMPT_COMMAND is an array from bash 5.1 on, a string of lines before; `@P` (the command
# number an end marker is for) is bash 4.4's.
__aish_pca=0 __aish_atp=0
(( BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1) )) && __aish_pca=1
(( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )) && __aish_atp=1
if (( __aish_pca )); then
  PROMPT_COMMAND=(__aish_status "${PROMPT_COMMAND[@]}" __aish_done)
else
  PROMPT_COMMAND=$'__aish_status\n'"${PROMPT_COMMAND}"$'\n__aish_done'
fi
# The person's prompt, kept for the `prompt` query: PS1 holds aish's marker from here on.
__aish_ps1=$PS1
__aish_c='\e]6973;C;'"$__aish_k"'\a'
__aish_r='\[\e]6973;R;'"$__aish_k"'\a\]'
PS0=$__aish_c
PS1=$__aish_r
# A stray end of input (aish's, for a piped run) must never end the session's shell; a line typed
# with a leading space stays out of the history, whatever the rc file chose (aish types a line
# holding a secret so); aish's keys are bound. __aish_guard keeps all this in place from now on.
for __aish_m in emacs vi-insert vi-command; do
  bind -m "$__aish_m" 'set enable-bracketed-paste on' 2>/dev/null
done
__aish_guard keys
unset __aish_m __aish_rc
