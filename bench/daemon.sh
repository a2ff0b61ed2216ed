#!/usr/bin/env bash
# faceoff run over a sped-up replayed game, in a release build: CPU time per poll, peak
# resident memory, requests and bytes per game, and how long `faceoff status` takes.
# Not part of CI.   bench/daemon.sh [SPEED] [POLL_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
speed=${1:-30}
poll=${2:-5}
# The binary users install (make -C contrib release); FACEOFF_BIN=path measures another, e.g.
# a plain `swift build -c release --product faceoff --static-swift-stdlib`.
if [ -z "${FACEOFF_BIN:-}" ]; then make -C contrib release >/dev/null; fi
bin=${FACEOFF_BIN:-$PWD/.build/dist/faceoff}
. bench/replay-env.sh
start_replay "$bin" "$speed" "$poll" 5

# Run until the final is out, then stop it; GNU time reports CPU and peak memory.
HOME=$home FACEOFF_API_BASE=$base /usr/bin/time -v -o "$home/time" "$bin" run >"$home/alerts.jsonl" 2>"$home/run.log" &
run_pid=$!
until_final $run_pid
kill -TERM "$(pgrep -P $run_pid)"
wait $run_pid || true

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
echo "  peak resident memory: $(echo "scale=1; $rss / 1024" | bc) MB"

# faceoff status, from the store the run left behind (no network), median of 21.
times=()
for _ in $(seq 21); do
  start=$(date +%s%N)
  HOME=$home FACEOFF_API_BASE=http://127.0.0.1:1/v1/ "$bin" status >/dev/null
  times+=($(( ($(date +%s%N) - start) / 1000 )))
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 11p)
echo "  faceoff status: median $((median / 1000)).$(( (median % 1000) / 100 )) ms (process start included)"
