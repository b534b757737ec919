# aish's shell integration for fish (docs/shell.md). aish starts `fish -i -C 'source <its rc>'`:
# fish reads the person's config.fish, conf.d and /etc/fish first (none of them with
# `--no-config`), then that rc sets __aish_k (the session's secret) and sources this file. It adds
# markers for the prompt (R), the start of a command (C), its end with the status and directory (D),
# an incomplete line (P) and answers to aish's queries (Q), each `ESC ] 6973 ; kind ; secret ;
# fields BEL`. fish never draws the person's prompt (aish draws its own, or asks for theirs: the
# `prompt` query); their functions, abbreviations, variables and history are untouched.

# Where this file is: a fish_prompt defined here is aish's, one defined anywhere else the person's.
set -g __aish_file (status current-filename)

# A field of a marker: no BEL, ESC, newline, carriage return, unit separator, `;` or `%` left raw.
# Split at newlines first: each piece is then one argument, and one line of `string`'s output.
function __aish_enc
    set -l parts (string split -- \n $argv[1])
    set parts (string replace -a -- % %25 $parts)
    set parts (string replace -a -- ';' %3B $parts)
    set parts (string replace -a -- \x1f %1F $parts)
    set parts (string replace -a -- \r %0D $parts)
    set parts (string replace -a -- \e %1B $parts)
    set parts (string replace -a -- \a %07 $parts)
    set -g __aish_v (string join -- %0A $parts)
end

function __aish_ret
    return $argv[1]
end

# The person's prompt is kept for the `prompt` query, and aish's takes its place: it prints the
# end marker of a command that may have said `exit` (below), then the ready marker, and nothing
# else (the mode and right prompts print nothing either).
function __aish_take_prompt
    functions -e __aish_user_prompt
    functions -q fish_prompt
    and functions -c fish_prompt __aish_user_prompt
    function fish_prompt
        if set -q __aish_ended
            __aish_done $__aish_s $__aish_ended
            set -e __aish_ended
        end
        printf '\e]6973;R;%s\a' $__aish_k
    end
    function fish_right_prompt
    end
    function fish_mode_prompt
    end
end

function __aish_preexec --on-event fish_preexec
    printf '\e]6973;C;%s\a' $__aish_k
end

# Whole lines typed while the command ran that it did not read would be read by fish's line editor
# next, outside aish: they are read here and handed to aish, which runs them as typed lines. fish's
# `read` has no timeout: `dd` reads the terminal without waiting (`iflag=nonblock`, GNU dd's; one
# process, where setting the terminal's modes around it took four and 20 ms a line). The terminal
# is still in the command's line mode, so only whole lines are there to read; a last piece without
# its Enter is dropped (fish's line editor, which reads what is left, has it cleared by aish).
function __aish_typed
    set -g __aish_v ''
    set -l got (command dd bs=4096 count=64 iflag=nonblock </dev/tty 2>/dev/null | string collect -N)
    test -n "$got"; or return
    set -l lines (string split -- \n (string replace -a -- \r \n $got))
    set -e lines[-1]
    test (count $lines) -gt 0; or return
    __aish_enc (string join -- \x1f $lines[1..64])\x1f
end

function __aish_done --argument-names s
    __aish_enc $PWD
    printf '\e]6973;D;%s;%s;%s;%s\a' $__aish_k $s $__aish_v "$argv[2]"
end

# The end marker comes as the command ends, before fish draws anything for its next prompt (the
# mark of a last line without a newline: a `⏎` and a line of spaces), which is then no part of the
# command's output. A line that may have asked fish to `exit` has it at the next prompt instead,
# as bash's PROMPT_COMMAND would: fish ends without one, and aish sees the shell end.
function __aish_postexec --on-event fish_postexec
    set -g __aish_s $status
    # Read now: once fish takes the terminal back for its line editor, the keys are its own.
    __aish_typed
    if string match -qr -- '(^|[;&|\n]|\b(begin|and|or|not|then|else)\s)\s*exit\b' $argv[1]
        set -g __aish_ended $__aish_v
    else
        __aish_done $__aish_s $__aish_v
    end
    # A fish_prompt the person defined since (typed, or a theme loaded) is theirs.
    test "$(functions --details fish_prompt)" = $__aish_file; or __aish_take_prompt
    return $__aish_s
end

# Enter: a line fish would not run because it is incomplete (an unclosed quote or block: fish
# would add a newline and wait) says so; aish then cancels it with Ctrl-C. One with a syntax error
# fish would leave in its line editor after printing the error: it ends here instead, with fish's
# own message (from `fish -n`, which reads the line and runs nothing) and the status `eval` gives
# such a line, after the mark that ends the echo of a line aish typed.
function __aish_enter
    commandline --is-valid
    switch $status
        case 2
            printf '\e]6973;P;%s\a' $__aish_k
        case 1
            set -l line (commandline | string collect)
            commandline -r ''
            # A piped run's line is told apart from aish's `begin … end </dev/null` around it.
            set -l inner (string match -r --groups-only -- '(?s)^ *begin\n(.*)\nend </dev/null$' $line | string collect)
            test -n "$inner"; and set line $inner
            printf '\e[?2004l'
            set -l fish (status fish-path)
            $fish --no-config -n -c $line 2>&1
            __aish_done 123 ''
            commandline -f repaint
        case '*'
            commandline -f execute
    end
end

# Ctrl-C in the line editor drops the line and ends it, as a prompt after Ctrl-C in bash does.
function __aish_cancel
    commandline -r ''
    __aish_done 130 ''
    commandline -f repaint
end

# The key aish types before a command: the whole line goes, all its lines (fish's kill-whole-line
# takes only the one the cursor is on).
function __aish_clear
    commandline -r ''
end

# Candidates for the line in $argv[1], as Tab in fish would find them, into __aish_v: the replaced
# token, then flags (f: file names, n: no space after), then the candidates, each after a \x1f, a
# candidate's description after a tab. fish's own completions (`complete -C`) are asked: the
# person's, fish's and those fish generates from man pages.
function __aish_complete
    commandline -r -- $argv[1]
    set -l word (commandline -ct | string collect)
    set -l cands (complete --do-complete=$argv[1])
    commandline -r ''
    set -l flags
    set -l out ''
    for c in $cands
        string match -q -- '__aish_*' $c; and continue
        set -l name (string split -m1 -- \t $c)[1]
        # A name that is there as a path is a file name, to be quoted for the shell.
        set -l expanded (string replace -r -- '^~/' "$HOME/" $name)
        test -e "$expanded"; and set flags f
        set out "$out"\x1f"$c"
    end
    if test (count $cands) -eq 1; and string match -qr -- '[=/]$' (string split -m1 -- \t $cands[1])[1]
        set flags $flags n
    end
    set -l flagged (string join '' -- $flags)
    set -g __aish_v "$word"\x1f"$flagged$out"
end

# aish's queries arrive as the line being edited plus a key bound to this function, so they never
# run as commands, never reach the history and leave no prompt.
function __aish_query
    set -l q (commandline | string collect)
    commandline -r ''
    set -l parts (string split -m2 -- ' ' $q)
    set -l id $parts[1]
    set -l op $parts[2]
    set -l arg "$parts[3]"
    set -l out ''
    switch $op
        case kind
            # What `type -t` says, asked without a subshell; an abbreviation is fish's alias.
            if abbr -q -- $arg
                set out alias
            else if contains -- $arg if else for while switch case begin end function not and or time
                set out keyword
            else if functions -q -- $arg
                set out function
            else if builtin -q -- $arg
                set out builtin
            else if command -q -- $arg
                set out file
            end
        case keys
            # The editing mode the person chose (`fish_vi_key_bindings`).
            set out emacs
            string match -q -- '*vi*' $fish_key_bindings; and set out vi
        case prompt
            # The person's prompt as fish draws it (`shell.prompt_from_shell`), with the last
            # command's status in $status.
            if functions -q __aish_user_prompt
                set out (__aish_ret $__aish_s; __aish_user_prompt 2>/dev/null | string collect)
            end
        case jobs
            # Asked as aish ends: the process groups of its jobs (a disowned job is not one of them).
            set out (string join ' ' -- (jobs -g 2>/dev/null))
        case complete
            __aish_complete $arg
            set out $__aish_v
        case histfile
            # Where the person's history is kept: aish's Up reaches it. An empty fish_history
            # keeps none.
            set -l name fish
            set -q fish_history; and set name $fish_history
            if test -n "$name"
                set -l data $HOME/.local/share
                set -q XDG_DATA_HOME; and test -n "$XDG_DATA_HOME"; and set data $XDG_DATA_HOME
                set out $data/fish/{$name}_history
            end
        case histsave
            history save 2>/dev/null
        case env
            # A path variable (`PATH`, a name ending in PATH) joins its list with `:` when quoted,
            # as fish exports it; any other with a space.
            for n in (set -nx)
                __aish_enc "$$n"
                set out "$out$n=$__aish_v"\x1f
            end
    end
    __aish_enc "$out"
    printf '\e]6973;Q;%s;%s;%s\a' $__aish_k $id $__aish_v
end

__aish_take_prompt
# fish's line editor is aish's to type into, not the person's to read: no suggestions drawn under
# the typed line, no window title.
set -g fish_autosuggestion_enabled 0
function fish_title
end
# The key bindings, in every mode, again whenever the person changes their bindings
# (`fish_vi_key_bindings` erases bindings): a key bound to clear the whole line before aish types a
# command, one to answer a query, Enter, Ctrl-C, and Ctrl-D, which must never end the session's
# shell (a stray end of input).
function __aish_bind --on-variable fish_key_bindings
    for m in default insert visual replace replace_one
        bind -M $m \e\[9901~ __aish_clear
        bind -M $m \e\[9902~ __aish_query
        bind -M $m \r __aish_enter
        bind -M $m \cc __aish_cancel
        bind -M $m \cd delete-char
    end
    # aish types each line as a bracketed paste, which fish takes in as it would keys typed, but
    # for two things. A leading space stays (fish drops it in a paste): a line typed with one stays
    # out of the history, as aish promises for a line holding a secret. An abbreviation expands
    # after a word as it would when typed (`ll foo`; fish expands one only as Enter runs the line,
    # and then only at the cursor).
    bind -M paste " " self-insert expand-abbr
    for c in ';' '|' '&'
        bind -M paste $c self-insert expand-abbr
    end
end
__aish_bind
