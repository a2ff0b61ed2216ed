#!/usr/bin/env bash
# Regenerates contrib/faceoff.order, the list that makes lld put the code `faceoff run` and
# `faceoff status` execute next to each other (contrib/Makefile says why). Run it when
# `make -C contrib release` says the list is stale, then check bench/daemon.sh. Needs
# valgrind. Not part of CI.
#   bench/order.sh [SPEED] [POLL_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
speed=${1:-30}
poll=${2:-2}
. bench/replay-env.sh
work=$(mktemp -d)
# lld's map must name C++ functions the way callgrind does (mangled) to match them.
make -C contrib release EXTRA="-Xlinker -Map=$work/faceoff.map -Xlinker --no-demangle" >/dev/null
# valgrind 3.19 (Debian 12) cannot read the DWARF 5 that Swift writes; it needs the symbols only.
objcopy --strip-debug .build/dist/build/release/faceoff "$work/faceoff"
bin=$work/faceoff
start_replay "$bin" "$speed" "$poll" 20
profile=(valgrind --tool=callgrind --demangle=no)

HOME=$home FACEOFF_API_BASE=$base "${profile[@]}" --callgrind-out-file="$work/callgrind.run" "$bin" run \
  >"$home/alerts.jsonl" 2>"$home/run.log" &
run_pid=$!
until_final $run_pid
kill -TERM $run_pid
wait $run_pid || true
for form in "" --tmux --json; do
  HOME=$home "${profile[@]}" --callgrind-out-file="$work/callgrind.status$form" "$bin" status $form \
    >/dev/null 2>&1
done
[ -s "$work/callgrind.run" ] || { echo "order.sh: no profile of faceoff run" >&2; exit 1; }
python3 bench/order.py "$bin" "$work/faceoff.map" "$work"/callgrind.* >"$work/faceoff.order"
mv "$work/faceoff.order" contrib/faceoff.order
echo "wrote contrib/faceoff.order: $(grep -vc '^#' contrib/faceoff.order) symbols"
echo "SwiftPM does not relink when only this file changes: rm .build/dist/build/release/faceoff, then make -C contrib release."
