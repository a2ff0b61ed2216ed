#!/bin/sh
# Writes the systemd user units with their placeholders filled in: the one place both
# install.sh (the user's own folders) and deb.sh (systemd's specifiers) render them.
#   contrib/units.sh OUTDIR BIN STATE_HOME DATA_HOME CACHE_HOME
# BIN is the binary's path; the three folders are the XDG base folders (faceoff adds
# /faceoff), set in the units' environment so faceoff and the sandbox agree.
set -eu
[ $# -eq 5 ] || { echo "usage: contrib/units.sh OUTDIR BIN STATE_HOME DATA_HOME CACHE_HOME" >&2; exit 2; }
out=$1 bin=$2
for folder in "$3" "$4" "$5"; do
  # systemd reads % (a specifier) and $ (a variable) in these lines: only the package's own
  # specifiers at the start (%S, %C, %h) pass.
  case "$folder" in
    *[[:space:]]* | *\"* | *\\* | *\$* | ?*%* | %[!SCh]* | %)
      echo "the units can't name the folder '$folder' (a space, quote, backslash, % or \$); set XDG_STATE_HOME, XDG_DATA_HOME and XDG_CACHE_HOME to folders without, or unset them" >&2
      exit 1 ;;
  esac
done
# For sed's replacement: its delimiter, & and backslash escaped.
escape() { printf '%s' "$1" | sed 's/[\\&|]/\\&/g'; }
# systemd splits ExecStart on spaces: a binary path with one is quoted.
case "$bin" in *" "*) bin="\"$bin\"" ;; esac
here=$(dirname "$0")
mkdir -p "$out"
for unit in faceoff.service faceoff-calendar.service faceoff-calendar.timer; do
  sed -e "s|@BIN@|$(escape "$bin")|" -e "s|@STATE_HOME@|$(escape "$3")|g" -e "s|@DATA_HOME@|$(escape "$4")|g" \
    -e "s|@CACHE_HOME@|$(escape "$5")|g" "$here/systemd/$unit" > "$out/$unit"
  chmod 644 "$out/$unit"
done
