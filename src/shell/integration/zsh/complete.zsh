# aish's answer to Tab for zsh (docs/shell.md "Tab completion"), sourced by the integration's
# .zshrc. When the person's .zshrc ran compinit, their own completion system (compsys) answers,
# in this shell, as it would at a Tab: branches after `git checkout`, subcommands, options with
# their descriptions. Without compinit, command names for a first word and file names after it.
# Either way __aish_complete leaves in __aish_v what bash's integration gives: the replaced word,
# flags (f: file names aish quotes, n: no space after, d: each candidate followed by what zsh
# lists for it), then the fields, each after a \x1f.

# Command names for a command's first word, else file names in the shell's directory.
__aish_complete_plain() {
  local line=$1 word= cur flags= c out=
  local -a words cands
  words=(${(z)line})
  [[ -n $line && $line != *[[:space:]] ]] && word=${words[-1]} && words[-1]=()
  cur=${(Q)word}
  # A quote still open stays in the word: what follows it is the text.
  [[ $word == [\"\']* && $cur == ${word[1]}* ]] && cur=${(Q)${word[2,-1]}}
  if [[ ${words[-1]-;} == (\;|\||\|\||\&|\&\&|\(|\{|\!|\|\&) && $cur != */* && $cur != [.~]* ]]; then
    cands=(${(k)commands} ${(k)aliases} ${(k)functions} ${(k)builtins} $reswords)
    cands=(${(M)cands:#${(b)cur}*})
  else
    flags=f
    if [[ $cur == \~/* ]]; then
      cands=($HOME/${(b)cur#\~/}*(NM))
      cands=(\~/${^cands#$HOME/})
    else
      cands=(${(b)cur}*(NM))
    fi
  fi
  for c in ${(u)cands}; do
    [[ $c == __aish_* ]] && continue
    out+=$'\x1f'$c
  done
  __aish_v=$word$'\x1f'$flags$out
}

# Stands in for the compadd builtin while compsys runs for aish: each match zsh would offer is
# kept, as it would be inserted (zsh quotes it for the word's quoting), with what zsh would list
# for it and the suffix that would follow it. Then one empty match tells compsys that this
# completer found something, so it stops there as it would at a Tab.
__aish_compadd() {
  local -A apre hpre dscrs suf wdir oad
  local -a isfile quoted rest hits names dscr
  zparseopts -E -a rest P:=apre p:=hpre d:=dscrs S:=suf W:=wdir O:=oad A:=oad D:=oad f=isfile Q=quoted \
    i: I: s: x: X: r: R: F: M+: E: J: V: o:: q e n U C a l k 1 2 2>/dev/null
  # compsys asking which words would match (-O, -A, -D) is answered by the builtin itself.
  if (( $#oad )); then
    builtin compadd "$@"
    return
  fi
  (( $#dscrs )) && dscr=("${(@P)${(v)dscrs}}")
  builtin compadd -A hits -D dscr "$@"
  (( $#hits )) || return 1
  (( $#isfile )) && builtin compadd -O names "$@"
  local i c name end=${(v)suf} dir=${(v)wdir}
  (( $#suf )) || end=' '
  for (( i = 1; i <= $#hits; i++ )); do
    c=$QIPREFIX$IPREFIX${(v)apre}${(v)hpre}$hits[i]
    # A file name given quoted (-Q, as _path_files gives them) is looked for unquoted.
    name=$names[i]
    (( $#quoted )) && name=${(Q)name}
    if (( $#isfile )) && [[ -d ${dir:+$dir/}$name ]]; then
      c+=/
      __aish_cs+=('')
    else
      c+=$compstate[quote]
      __aish_cs+=("$end")
    fi
    __aish_cw+=("$c")
    __aish_cd+=("${dscr[i]-}")
  done
  builtin compadd -U -qS '' ''
}

# The completion widget aish calls: compsys runs with __aish_compadd in compadd's place, printing
# nothing (stdout and stderr go nowhere), and zle inserts and lists nothing. Its styles are looked
# up under the widget's name, where options are not grouped under one description (zsh would list
# `-q --quiet` and their description across two columns; aish lists a candidate per line), and a
# description is not cut at the terminal's width (aish cuts it at its own).
__aish_compsys_widget() {
  __aish_cword=$QIPREFIX$IPREFIX$PREFIX
  local __aish_saved=${functions[compadd]-} curcontext=__aish_compsys:::
  functions[compadd]=$functions[__aish_compadd]
  { COLUMNS=500 _main_complete } >/dev/null 2>&1
  if [[ -n $__aish_saved ]]; then functions[compadd]=$__aish_saved; else unfunction compadd; fi
  compstate[insert]=''
  compstate[list]=''
}
zle -C __aish_compsys complete-word __aish_compsys_widget
zstyle ':completion:__aish_compsys:*' list-grouped false

# The line in $1 completed by compsys: asked as a Tab at the end of the line, in the query's
# widget, whose line is then empty again.
__aish_complete_compsys() {
  # Arrays count from 1 here, whatever the person's options say.
  setopt localoptions no_ksh_arrays
  local -a __aish_cw __aish_cd __aish_cs
  local __aish_cword= i flags= out= seen=
  BUFFER=$1
  CURSOR=$#BUFFER
  zle __aish_compsys
  BUFFER=''
  CURSOR=0
  # The same match may come in two groups (a branch among heads and among all refs): once each.
  local -A once
  local -a w d s
  for (( i = 1; i <= $#__aish_cw; i++ )); do
    (( $+once[$__aish_cw[i]] )) && continue
    once[$__aish_cw[i]]=1
    w+=("$__aish_cw[i]") d+=("$__aish_cd[i]") s+=("$__aish_cs[i]")
  done
  # A single match whose suffix is not a space (`--opt=`, a directory) takes none after it.
  if (( $#w == 1 )) && [[ $s[1] != ' ' ]]; then
    w[1]+=$s[1]
    flags=n
  fi
  for (( i = 1; i <= $#w; i++ )); do
    [[ -n $d[i] && $d[i] != $w[i] ]] && seen=1
  done
  if [[ -n $seen ]]; then
    flags+=d
    for (( i = 1; i <= $#w; i++ )); do
      out+=$'\x1f'$w[i]$'\x1f'${d[i]:-$w[i]}
    done
  else
    for i in "${(@)w}"; do
      out+=$'\x1f'$i
    done
  fi
  __aish_v=$__aish_cword$'\x1f'$flags$out
}

# compinit leaves _comps, its table of completion functions: without it, zsh's Tab would offer
# no more than command and file names either.
__aish_complete() {
  if (( ${+_comps} )) && (( ${+functions[_main_complete]} )); then
    __aish_complete_compsys "$1"
  else
    __aish_complete_plain "$1"
  fi
}
