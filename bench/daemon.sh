#!/usr/bin/env bash
# faceoff run over a sped-up replayed game, in a release build: CPU time per poll, peak
# resident memory, requests and bytes per game, and how long `faceoff status` takes.
# Not part of CI.   bench/daemon.sh [SPEED] [POLL_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
speed=${1:-30}
poll=${2:-5}
# FACEOFF_BIN=path times a binary built some other way (e.g. with --static-swift-stdlib).
if [ -z "${FACEOFF_BIN:-}" ]; then swift build -c release --product faceoff >/dev/null; fi
bin=${FACEOFF_BIN:-$PWD/.build/release/faceoff}
game=Tests/Fixtures/mirror/v1/gamecenter/2025020100/play-by-play
home=$(mktemp -d)
trap 'kill $replay_pid 2>/dev/null || true; rm -rf "$home"' EXIT

LOG_LEVEL=debug HOME=$home "$bin" replay --serve 127.0.0.1:0 "$game" --speed "$speed" --start-in 5 \
  >"$home/base" 2>"$home/replay.log" &
replay_pid=$!
for _ in $(seq 100); do [ -s "$home/base" ] && break; sleep 0.1; done
base=$(head -1 "$home/base")
mkdir -p "$home/.config/faceoff"
cat >"$home/.config/faceoff/config.toml" <<TOML
teams = ["TOR"]
[watch]
poll = "${poll}s"
[[sink]]
type = "stdout"
format = "jsonl"
TOML

# Run until the final is out, then stop it; GNU time reports CPU and peak memory.
HOME=$home FACEOFF_API_BASE=$base /usr/bin/time -v -o "$home/time" "$bin" run >"$home/alerts.jsonl" 2>"$home/run.log" &
time_pid=$!
until grep -q '"kind":"final"' "$home/alerts.jsonl" 2>/dev/null; do sleep 0.5; done
sleep 1
kill -TERM "$(pgrep -P $time_pid)"
wait $time_pid || true

polls=$(grep -c 'path=gamecenter/' "$home/replay.log" || true)
requests=$(grep -c 'served' "$home/replay.log" || true)
bytes=$(grep -o 'bytes=[0-9]*' "$home/replay.log" | cut -d= -f2 | paste -sd+ | bc)
user=$(grep 'User time' "$home/time" | awk '{print $NF}')
system=$(grep 'System time' "$home/time" | awk '{print $NF}')
rss=$(grep 'Maximum resident' "$home/time" | awk '{print $NF}')
cpu=$(echo "$user + $system" | bc)
echo "faceoff run, game 2025020100 at ${speed}x, poll ${poll}s: $(wc -l <"$home/alerts.jsonl") alerts"
echo "  requests: $requests ($polls play-by-play polls), $bytes bytes"
echo "  CPU: ${cpu} s in all, $(echo "scale=1; $cpu * 1000 / $polls" | bc) ms per poll (whole process, start-up and calendars included)"
echo "  peak resident memory: $((rss / 1024)) MB"

# faceoff status, from the store the run left behind (no network), median of 21.
times=()
for _ in $(seq 21); do
  start=$(date +%s%N)
  HOME=$home FACEOFF_API_BASE=http://127.0.0.1:1/v1/ "$bin" status >/dev/null
  times+=($(( ($(date +%s%N) - start) / 1000 )))
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 11p)
echo "  faceoff status: median $((median / 1000)).$(( (median % 1000) / 100 )) ms (process start included)"
