#!/bin/sh
# The release artifacts, beside the package deb.sh wrote (make -C contrib dist calls both):
#   contrib/dist.sh DIST   where DIST holds the stamped binary `faceoff` and the .deb; writes
#     DIST/faceoff-VERSION-linux-ARCH.tar.gz   the binary, man page, completions and user units
#                                              as a PREFIX tree, for `tar -x --strip-components=1 -C ~/.local`
#                                              (how, in share/doc/faceoff/INSTALL)
#     DIST/SHA256SUMS                          of the tarball and the .deb
# Every date inside is SOURCE_DATE_EPOCH (the Makefile sets it to the commit's time), owners
# are root and names sorted, so the same commit built again gives the same bytes.
set -eu
umask 022
cd "$(dirname "$0")/.."
dist=$(cd "$1" && pwd)
: "${SOURCE_DATE_EPOCH:?the dates in the artifacts come from SOURCE_DATE_EPOCH (make -C contrib dist sets it)}"
version=$(sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/FaceoffBase/Faceoff.swift)
arch=$(dpkg --print-architecture)
deb="faceoff_${version}_${arch}.deb"
tarball="faceoff-${version}-linux-${arch}.tar.gz"
[ -f "$dist/$deb" ] || { echo "dist.sh: $dist/$deb is missing (make -C contrib deb writes it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
top="faceoff-$version"
root="$work/$top"
bin="$dist/faceoff"

install -D -m 755 "$bin" "$root/bin/faceoff"
install -d "$root/share/man/man1" "$root/share/bash-completion/completions" "$root/share/zsh/site-functions" \
  "$root/share/fish/vendor_completions.d" "$root/share/doc/faceoff"
sed '/^$/d' contrib/man/faceoff.1 | gzip -9n > "$root/share/man/man1/faceoff.1.gz"
"$bin" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/share/bash-completion/completions/faceoff"
"$bin" --generate-completion-script zsh > "$root/share/zsh/site-functions/_faceoff"
"$bin" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/faceoff.fish"
# The units for a binary in ~/.local/bin, read by systemd from ~/.local/share/systemd/user
# (a user unit folder) once the tree is unpacked into ~/.local; folders as the package's.
contrib/units.sh "$root/share/systemd/user" %h/.local/bin/faceoff %S %h/.local/share %C
install -m 644 README.md contrib/tmux/faceoff.tmux.conf "$root/share/doc/faceoff/"
if [ -d docs ]; then
  mkdir -p "$root/share/doc/faceoff/docs"
  install -m 644 docs/*.md "$root/share/doc/faceoff/docs/"
fi
cat > "$root/share/doc/faceoff/INSTALL" <<INSTALL
Faceoff $version for Linux ($arch): the release binary with the Swift runtime linked in.

It needs Debian 12's libraries (or another system's with glibc 2.36 or later):
    sudo apt-get install libical3 libcurl4 libsqlite3-0 libqrencode4 libssl3
and, for desktop notifications and an MQTT sink, libnotify-bin and libmosquitto1.

For your user, into ~/.local (bin/, share/man, completions, share/systemd/user):
    tar -xzf $tarball --strip-components=1 -C ~/.local
    faceoff follow TOR
    systemctl --user daemon-reload && systemctl --user enable --now faceoff

The units in share/systemd/user run %h/.local/bin/faceoff; unpacked elsewhere, edit their
ExecStart. To remove it, delete the files this archive lists (tar -tzf $tarball).
INSTALL
chmod 644 "$root/share/doc/faceoff/INSTALL"
# No pipeline above may have failed quietly (sh has no pipefail): nothing generated is empty.
for generated in share/man/man1/faceoff.1.gz share/bash-completion/completions/faceoff \
  share/zsh/site-functions/_faceoff share/fish/vendor_completions.d/faceoff.fish share/systemd/user/faceoff.service; do
  [ "$(gzip -dcf "$root/$generated" | wc -c)" -gt 100 ] || { echo "dist.sh: $generated came out empty" >&2; exit 1; }
done
find "$root" -type d -exec chmod 755 {} +
(cd "$work" && tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
  -cf - "$top") | gzip -9n > "$dist/$tarball.new"
mv "$dist/$tarball.new" "$dist/$tarball"
(cd "$dist" && sha256sum "$deb" "$tarball" > SHA256SUMS)
cat "$dist/SHA256SUMS"
