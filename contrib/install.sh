#!/bin/sh
# Installs (or with --uninstall removes) Faceoff for the current user:
#   the release binary   -> $PREFIX/bin/faceoff        (PREFIX defaults to ~/.local)
#   the man page         -> $PREFIX/share/man/man1/faceoff.1
#   shell completions    -> bash, zsh and fish completion folders under $PREFIX/share
#   systemd user units   -> ~/.config/systemd/user/ (faceoff.service, faceoff-calendar.*)
# The units keep the store, calendars and cache where faceoff finds them from this shell
# (XDG_STATE_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, or ~/.local/state, ~/.local/share, ~/.cache).
# An upgrade is the same command: the store is kept, and the new binary migrates it when it
# starts. Uninstalling keeps config, store and calendars.
#
#   contrib/install.sh              # build the release binary (make -C contrib release), then install
#   PREFIX=/opt/faceoff contrib/install.sh
#   contrib/install.sh --uninstall
set -eu
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-$HOME/.local}
UNITS=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
bin="$PREFIX/bin/faceoff"
# As faceoff reads them: a relative value is no value (the XDG spec).
xdg() { case "${1:-}" in /*) printf '%s' "$1" ;; *) printf '%s' "$HOME/$2" ;; esac; }
STATE_HOME=$(xdg "${XDG_STATE_HOME:-}" .local/state)
DATA_HOME=$(xdg "${XDG_DATA_HOME:-}" .local/share)
CACHE_HOME=$(xdg "${XDG_CACHE_HOME:-}" .cache)
# The units, naming this binary and these folders, rendered (and so checked: a folder they
# can't name is refused) before anything is installed.
rendered=$(mktemp -d)
trap 'rm -rf "$rendered"' EXIT
contrib/units.sh "$rendered" "$bin" "$STATE_HOME" "$DATA_HOME" "$CACHE_HOME"

if [ "${1:-}" = "--uninstall" ]; then
  if command -v systemctl >/dev/null 2>&1; then
    systemctl --user disable --now faceoff.service faceoff-calendar.timer 2>/dev/null || true
  fi
  rm -f "$bin" "$PREFIX/share/man/man1/faceoff.1" \
    "$PREFIX/share/bash-completion/completions/faceoff" "$PREFIX/share/zsh/site-functions/_faceoff" \
    "$PREFIX/share/fish/vendor_completions.d/faceoff.fish" \
    "$UNITS/faceoff.service" "$UNITS/faceoff-calendar.service" "$UNITS/faceoff-calendar.timer"
  command -v systemctl >/dev/null 2>&1 && systemctl --user daemon-reload 2>/dev/null || true
  echo "Removed faceoff from $PREFIX and its units (config, store and calendars are kept)."
  exit 0
fi

# The release binary with the commit stamped in (a no-op rebuild when nothing changed).
make -C contrib release >/dev/null
mkdir -p "$PREFIX/bin" "$PREFIX/share/man/man1" "$PREFIX/share/bash-completion/completions" \
  "$PREFIX/share/zsh/site-functions" "$PREFIX/share/fish/vendor_completions.d" "$UNITS" \
  "$STATE_HOME/faceoff" "$DATA_HOME/faceoff" "$CACHE_HOME/faceoff"
install -m 755 .build/dist/faceoff "$bin.new"
mv "$bin.new" "$bin"
install -m 644 contrib/man/faceoff.1 "$PREFIX/share/man/man1/faceoff.1"
"$bin" --generate-completion-script bash > "$PREFIX/share/bash-completion/completions/faceoff"
"$bin" --generate-completion-script zsh > "$PREFIX/share/zsh/site-functions/_faceoff"
"$bin" --generate-completion-script fish > "$PREFIX/share/fish/vendor_completions.d/faceoff.fish"
# The units rendered above (contrib/units.sh, as the package does).
cp "$rendered"/faceoff.service "$rendered"/faceoff-calendar.service "$rendered"/faceoff-calendar.timer "$UNITS"/
if command -v systemctl >/dev/null 2>&1 && systemctl --user daemon-reload 2>/dev/null; then
  if systemctl --user is-active --quiet faceoff.service; then
    systemctl --user restart faceoff.service
    echo "Restarted faceoff.service with the new binary."
  fi
fi
echo "Installed $bin ($("$bin" --version))."
echo "Next: faceoff follow TOR && systemctl --user enable --now faceoff   (or faceoff-calendar.timer for calendars only)"
