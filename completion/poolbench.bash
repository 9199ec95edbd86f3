# bash completion for poolbench                              -*- shell-script -*-
# Subcommands, options and --format values come from the binary itself
# (`poolbench __complete ...`), so they never drift from its option tables;
# configuration, test, metric and host names from the database of --db,
# $POOLBENCH_DB or the config file (opened read-only; never created).
# Install as /usr/share/bash-completion/completions/poolbench.

# The candidates of `poolbench __complete ARGS...`, one per line.
_poolbench_ask()
{
    local bin=${_poolbench_bin:-poolbench}
    "$bin" __complete "$@" 2>/dev/null
}

# Add the lines of stdin that start with $cur to COMPREPLY, quoted for the
# shell when they hold blanks or other special characters. Names are never
# expanded (compgen -W would run $(...) inside a hostile label).
_poolbench_add()
{
    local line q
    while IFS= read -r line; do
        [[ -n $line && $line == "$cur"* ]] || continue
        if [[ $line == *[!A-Za-z0-9._,:=+@%/-]* ]]; then
            printf -v q '%q' "$line"
            COMPREPLY+=("$q")
        else
            COMPREPLY+=("$line")
        fi
    done
}

_poolbench_files()
{
    local ext=$1
    if declare -F _filedir >/dev/null; then
        _filedir $ext
    else
        local IFS=$'\n'
        COMPREPLY+=($(compgen -f -- "$cur"))
    fi
}

_poolbench()
{
    local cur prev words cword
    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n = cur prev words cword
    else
        words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    fi
    COMPREPLY=()
    local _poolbench_bin=poolbench
    if [[ ${words[0]} == */* && -x ${words[0]} ]]; then
        _poolbench_bin=${words[0]}
    fi

    # the subcommand, and the database named on the line
    local cmd= i db=()
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
        --db) db=(--db "${words[i+1]}") ;;
        --db=*) db=(--db "${words[i]#--db=}") ;;
        -*) ;;
        *) [[ -z $cmd ]] && cmd=${words[i]} ;;
        esac
    done
    # --db ~/x.db as typed: the shell has not expanded the ~ yet
    [[ ${#db[@]} == 2 && ${db[1]} == "~/"* ]] && db[1]=$HOME/${db[1]#"~/"}
    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            _poolbench_add < <(printf '%s\n' --help --version)
        else
            _poolbench_add < <(_poolbench_ask commands)
        fi
        return 0
    fi
    if [[ $cmd == help ]]; then
        _poolbench_add < <(_poolbench_ask commands)
        return 0
    fi

    # the value of an option: --opt VALUE or --opt=VALUE
    local opt=
    if [[ $cur == --*=* ]]; then
        opt=${cur%%=*} cur=${cur#*=}
    elif [[ $prev == -* ]] &&
        _poolbench_ask options "$cmd" | grep -qxF -- "$prev="; then
        opt=$prev
    elif [[ $prev == = && ${words[cword-2]} == --* ]]; then
        opt=${words[cword-2]} # "--format" "=" "f" without bash-completion
    elif [[ $prev == -o && $cmd =~ ^(report|run|export)$ ]]; then
        opt=--output
    fi
    if [[ -n $opt ]]; then
        case $opt in
        --format) _poolbench_add < <(_poolbench_ask formats) ;;
        --config) _poolbench_add < <(_poolbench_ask configs "${db[@]}") ;;
        --test) _poolbench_add < <(_poolbench_ask tests "${db[@]}") ;;
        --metric) _poolbench_add < <(_poolbench_ask metrics "${db[@]}") ;;
        --host) _poolbench_add < <(_poolbench_ask hosts "${db[@]}") ;;
        --x | --series) _poolbench_add < <(_poolbench_ask keys "${db[@]}") ;;
        --label-from) _poolbench_add < <(printf '%s\n' file dir title) ;;
        --zfs) _poolbench_add < <(printf '%s\n' openzfs zfs-fuse) ;;
        --on-failure) _poolbench_add < <(printf '%s\n' continue stop) ;;
        --output | --dir)
            if [[ $cmd == export ]]; then
                _poolbench_files
            elif declare -F _filedir >/dev/null; then
                _filedir -d
            else
                local IFS=$'\n'
                COMPREPLY+=($(compgen -d -- "$cur"))
            fi ;;
        --db | --rules | --configs | --pdf | --source | --ssh) _poolbench_files ;;
        esac
        return 0
    fi

    if [[ $cur == -* ]]; then
        _poolbench_add < <(_poolbench_ask options "$cmd")
        # "--db=": the value follows without a blank
        if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *= ]]; then
            compopt -o nospace 2>/dev/null
        fi
        return 0
    fi
    case $cmd in
    ingest | rm) _poolbench_files ;;
    run) _poolbench_files '@(ini|plan)' ;;
    list) _poolbench_add < <(printf '%s\n' sources configs tests results) ;;
    relabel) _poolbench_add < <(_poolbench_ask configs "${db[@]}") ;;
    db) _poolbench_add < <(printf '%s\n' compact) ;;
    esac
    return 0
}
complete -F _poolbench poolbench
