# bash completion for morphkit. Commands and options come from the tool's own
# --help texts at completion time, so they never drift from the tool.
_morphkit()
{
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        # the command list: the indented lines of `morphkit --help`
        local commands
        commands=$("${COMP_WORDS[0]}" --help 2>/dev/null | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}')
        COMPREPLY=($(compgen -W "$commands help --help --version" -- "$cur"))
        return
    fi
    if [ "$cmd" = help ]; then
        COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" --help 2>/dev/null | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1}')" -- "$cur"))
        return
    fi
    case $prev in
        --interpolation|--beside)
            COMPREPLY=($(compgen -W "linear step smooth" -- "$cur")); return ;;
        --anim)
            # the animation names of the PATH already typed
            local w path
            for w in "${COMP_WORDS[@]:2}"; do
                [ -d "$w" ] || [[ $w == *.gltf || $w == *.glb ]] && path=$w
            done
            if [ -n "$path" ]; then
                COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" info --json "$path" 2>/dev/null | grep -o '"name": "[^"]*", "frames"' | sed 's/"name": "\([^"]*\)".*/\1/')" -- "$cur"))
            fi
            return ;;
        --out|--screenshot)
            COMPREPLY=($(compgen -f -X '!*.@(png|gif)' -- "$cur") $(compgen -d -- "$cur")); return ;;
        --time|--then|--size|--fps|--seconds|--frames|--camera|--zoom)
            return ;;
    esac
    if [[ $cur == -* ]]; then
        # every --option the command's --help mentions
        local options
        options=$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi
    # PATHs: folders (units, libraries) and glTF files
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.@(gltf|glb|GLTF|GLB)' -- "$cur"))
}
complete -F _morphkit morphkit
