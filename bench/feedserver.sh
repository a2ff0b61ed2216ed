#!/usr/bin/env bash
# `faceoff serve` (release build) under a 256-descriptor limit: plain requests timed alone,
# then while 500 slow and 100 idle clients hold connections. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product faceoff
home=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; rm -rf "$home"' EXIT
mkdir -p "$home/.config/faceoff"
printf 'teams = ["TOR"]\n' > "$home/.config/faceoff/config.toml"
export HOME=$home FACEOFF_API_BASE="file://$PWD/Tests/Fixtures/mirror/v1/"
(ulimit -n 256 && exec .build/release/faceoff serve --listen 127.0.0.1:0 > "$home/url" 2>"$home/log") &
server=$!
for _ in $(seq 100); do [ -s "$home/url" ] && break; sleep 0.1; done
port=$(sed -E 's#.*:([0-9]+)/.*#\1#' "$home/url")
python3 Tests/tools/slow_clients.py "$port" "${SLOW:-500}" "${IDLE:-100}" "${REQUESTS:-20}"
