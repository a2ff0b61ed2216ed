#!/bin/sh
# Builds the Debian package from the release binary (make -C contrib deb calls it):
#   contrib/deb.sh DIST    where DIST holds the stamped binary `faceoff`; writes
#                          DIST/faceoff_VERSION_ARCH.deb
# Depends come from dpkg-shlibdeps (libc, libical, libqrencode, SQLite, libstdc++, zlib) plus, by hand,
# what Faceoff loads at run time where dpkg-shlibdeps can't see it: libcurl4 and libssl3.
# libmosquitto1 (loaded only by an MQTT sink) is recommended, not required.
set -eu
umask 022
cd "$(dirname "$0")/.."
dist=$(cd "$1" && pwd)
version=$(sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/FaceoffBase/Faceoff.swift)
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/faceoff_${version}_${arch}"
bin="$dist/faceoff"

install -D -m 755 "$bin" "$root/usr/bin/faceoff"
install -d "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" \
  "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d" \
  "$root/usr/lib/systemd/user" "$root/usr/share/doc/faceoff" "$root/DEBIAN"
# The generated man page's blank lines are mdoc warnings (groff, lintian); they mean nothing.
sed '/^$/d' contrib/man/faceoff.1 | gzip -9n > "$root/usr/share/man/man1/faceoff.1.gz"
# bash-completion sources the script; the #! line the generator writes is noise there.
"$bin" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/usr/share/bash-completion/completions/faceoff"
"$bin" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_faceoff"
"$bin" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/faceoff.fish"
# The same units `make install` writes, naming the packaged binary and systemd's own folders
# for the user (%S, %C; the data folder has no specifier).
contrib/units.sh "$root/usr/lib/systemd/user" /usr/bin/faceoff %S %h/.local/share %C
gzip -9n < README.md > "$root/usr/share/doc/faceoff/README.md.gz"
# The references the README links to, in docs/ as in the repository.
install -d "$root/usr/share/doc/faceoff/docs"
for doc in docs/*.md; do gzip -9n < "$doc" > "$root/usr/share/doc/faceoff/docs/$(basename "$doc").gz"; done
install -m 644 contrib/tmux/faceoff.tmux.conf "$root/usr/share/doc/faceoff/faceoff.tmux.conf"
maintainer="Faceoff maintainers <maintainers@users.noreply.a-seed-839707e0.example>"
cat > "$root/usr/share/doc/faceoff/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: faceoff
Upstream-Contact: $maintainer

Files: *
Copyright: 2026 the Faceoff maintainers
License: none-chosen
 No license has been chosen yet; until one is, the maintainers keep all rights.
COPYRIGHT
printf 'faceoff (%s) unstable; urgency=medium\n\n  * Release %s, commit %s.\n\n -- %s  %s\n' \
  "$version" "$version" "$("$bin" --version | sed -n 's/.*commit \(.*\))/\1/p')" "$maintainer" "$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}")" \
  | gzip -9n > "$root/usr/share/doc/faceoff/changelog.gz"

# dpkg-shlibdeps reads the package's name from a debian/control; a two-line one will do.
mkdir -p "$work/debian"
printf 'Source: faceoff\n\nPackage: faceoff\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O "$root/usr/bin/faceoff" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
# The release link packs relative relocations (contrib/Makefile), which glibc loads from 2.36:
# the libc6 version is raised to that, never lowered.
libc=$(echo "$shlibs" | sed -n 's/.*libc6 (>= \([^)]*\)).*/\1/p')
if [ -n "$libc" ] && dpkg --compare-versions "$libc" lt 2.36; then
  shlibs=$(echo "$shlibs" | sed 's/libc6 (>= [^)]*)/libc6 (>= 2.36)/')
fi
[ -n "$shlibs" ] || { echo "deb.sh: dpkg-shlibdeps found no libraries in the binary" >&2; exit 1; }
cat > "$root/DEBIAN/control" <<CONTROL
Package: faceoff
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $shlibs, libcurl4, libssl3
Recommends: libnotify-bin, libmosquitto1
Section: utils
Priority: optional
Description: NHL schedules as calendar feeds and live game alerts
 Faceoff follows your NHL teams: their schedules as iCalendar feeds for any
 calendar app, and alerts for goals, power plays and final scores of their
 games on the desktop, in the terminal or to webhooks. It runs as a systemd
 user service (faceoff.service) and answers a fan's questions from the
 command line: schedule, standings, rosters, player stats.
CONTROL
# No pipeline above may have failed quietly (sh has no pipefail): nothing generated is empty.
for generated in usr/share/man/man1/faceoff.1.gz usr/share/bash-completion/completions/faceoff \
  usr/share/zsh/vendor-completions/_faceoff usr/share/fish/vendor_completions.d/faceoff.fish; do
  [ "$(gzip -dcf "$root/$generated" | wc -c)" -gt 100 ] || { echo "deb.sh: $generated came out empty" >&2; exit 1; }
done
find "$root" -type d -exec chmod 755 {} +
# Dated by SOURCE_DATE_EPOCH when it is set (make -C contrib deb sets the commit's time), so a
# rebuild of the same commit gives the same bytes.
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +; fi
dpkg-deb --root-owner-group --build "$root" "$dist/faceoff_${version}_${arch}.deb" >/dev/null
echo "$dist/faceoff_${version}_${arch}.deb"
