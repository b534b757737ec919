# aish's shell integration for zsh, first part (docs/shell.md). aish points ZDOTDIR here and keeps
# the person's own in __aish_user_zdotdir: their .zshenv is read as zsh would read it, then ZDOTDIR
# comes back here so that zsh reads aish's .zshrc, which reads theirs.
__aish_here=$ZDOTDIR
ZDOTDIR=${__aish_user_zdotdir:-$HOME}
if [[ ${__aish_rc-1} == 1 && -r $ZDOTDIR/.zshenv ]]; then
  source "$ZDOTDIR/.zshenv"
fi
__aish_user_zdotdir=$ZDOTDIR
ZDOTDIR=$__aish_here
unset __aish_here
