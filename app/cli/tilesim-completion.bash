# bash completion for tilesim. Commands and options are read from the
# installed binary's own --help, so they never go stale; --hw completes the
# hardware names under the config directory, other arguments complete files.
# Installed to share/bash-completion/completions/tilesim; by hand:
#   source app/cli/tilesim-completion.bash

_tilesim_commands() {
  "$1" --help 2>/dev/null | awk '/^Subcommands:/ {on = 1; next} on && NF {print $1}'
}

_tilesim_options() {
  "$1" "$2" --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

_tilesim_hardware_names() {
  local dir=${TILESIM_CONFIG_DIR:-}
  if [[ -z $dir ]]; then
    local exe
    exe=$(command -v "$1") || return
    dir=$(dirname "$(dirname "$(readlink -f "$exe")")")/share/tilesim/configs
  fi
  local file
  for file in "$dir"/hw/*.yaml; do
    [[ -e $file ]] && basename "$file" .yaml
  done
}

_tilesim() {
  local tool=${COMP_WORDS[0]} current=${COMP_WORDS[COMP_CWORD]}
  local previous=${COMP_WORDS[COMP_CWORD - 1]}
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$(_tilesim_commands "$tool") --help --version" -- "$current")
    return
  fi
  if [[ $previous == --hw ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_tilesim_hardware_names "$tool")" -- "$current")
    compopt -o filenames 2>/dev/null
    mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$current")
    return
  fi
  if [[ $current == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_tilesim_options "$tool" "${COMP_WORDS[1]}")" -- "$current")
    return
  fi
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -f -- "$current")
}
complete -F _tilesim tilesim
