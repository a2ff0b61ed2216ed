#!/bin/sh
# Installs (or with --uninstall removes) Faceoff for the current user:
#   the release binary   -> $PREFIX/bin/faceoff        (PREFIX defaults to ~/.local)
#   the man page         -> $PREFIX/share/man/man1/faceoff.1
#   shell completions    -> bash, zsh and fish completion folders under $PREFIX/share
#   systemd user units   -> ~/.config/systemd/user/ (faceoff.service, faceoff-calendar.*)
# An upgrade is the same command: the store in ~/.local/state/faceoff is kept, and the new
# binary migrates it when it starts. Uninstalling keeps config, store and calendars.
#
#   contrib/install.sh              # build the release binary (make -C contrib release), then install
#   PREFIX=/opt/faceoff contrib/install.sh
#   contrib/install.sh --uninstall
set -eu
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-$HOME/.local}
UNITS=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
bin="$PREFIX/bin/faceoff"

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
  "$HOME/.local/state/faceoff" "$HOME/.local/share/faceoff" "$HOME/.cache/faceoff"
install -m 755 .build/dist/faceoff "$bin.new"
mv "$bin.new" "$bin"
install -m 644 contrib/man/faceoff.1 "$PREFIX/share/man/man1/faceoff.1"
"$bin" --generate-completion-script bash > "$PREFIX/share/bash-completion/completions/faceoff"
"$bin" --generate-completion-script zsh > "$PREFIX/share/zsh/site-functions/_faceoff"
"$bin" --generate-completion-script fish > "$PREFIX/share/fish/vendor_completions.d/faceoff.fish"
# One source for these units and the Debian package's (contrib/deb.sh): @BIN@ is the binary,
# written for systemd (quoted when the path has a space) and escaped for sed's replacement.
unitbin=$bin
case "$bin" in *" "*) unitbin="\"$bin\"" ;; esac
unitbin=$(printf '%s' "$unitbin" | sed 's/[\\&|]/\\&/g')
for unit in faceoff.service faceoff-calendar.service faceoff-calendar.timer; do
  sed "s|@BIN@|$unitbin|" "contrib/systemd/$unit" > "$UNITS/$unit"
done
if command -v systemctl >/dev/null 2>&1 && systemctl --user daemon-reload 2>/dev/null; then
  if systemctl --user is-active --quiet faceoff.service; then
    systemctl --user restart faceoff.service
    echo "Restarted faceoff.service with the new binary."
  fi
fi
echo "Installed $bin ($("$bin" --version))."
echo "Next: faceoff follow TOR && systemctl --user enable --now faceoff   (or faceoff-calendar.timer for calendars only)"
