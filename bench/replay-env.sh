# Sourced by daemon.sh and order.sh (which run under set -euo pipefail).
#
# `start_replay BIN SPEED POLL START_IN` serves game 2025020100 from the project's mirror with
# `faceoff replay --serve` and writes a config that follows TOR with a jsonl stdout sink. It
# sets home (a temporary HOME) and base (the replay's API base URL).
#
# `until_final PID` waits for the final alert in $home/alerts.jsonl while PID (the faceoff run
# being measured, whose pid the caller also puts in run_pid) is alive; it fails if PID dies or
# no final comes within 15 minutes.
#
# On exit, whatever is still running (run_pid, the replay) is stopped and home and work (if
# the caller set it) are removed.
cleanup() {
  if [ -n "${run_pid:-}" ]; then pkill -P "$run_pid" 2>/dev/null || true; fi
  kill "${run_pid:-}" "${replay_pid:-}" 2>/dev/null || true
  rm -rf "${home:-}" "${work:-}"
}
trap cleanup EXIT

start_replay() {
  local bin=$1 speed=$2 poll=$3 start_in=$4
  local game=Tests/Fixtures/mirror/v1/gamecenter/2025020100/play-by-play
  home=$(mktemp -d)
  LOG_LEVEL=debug HOME=$home "$bin" replay --serve 127.0.0.1:0 "$game" --speed "$speed" \
    --start-in "$start_in" >"$home/base" 2>"$home/replay.log" &
  replay_pid=$!
  for _ in $(seq 100); do [ -s "$home/base" ] && break; sleep 0.1; done
  if ! [ -s "$home/base" ] || ! kill -0 "$replay_pid" 2>/dev/null; then
    echo "the replay server did not start:" >&2
    cat "$home/replay.log" >&2
    exit 1
  fi
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
}

until_final() {
  local deadline=$((SECONDS + 900))
  until grep -q '"kind":"final"' "$home/alerts.jsonl" 2>/dev/null; do
    if ! kill -0 "$1" 2>/dev/null || [ $SECONDS -gt $deadline ]; then
      echo "faceoff run ended or hung before the final; its log:" >&2
      tail -20 "$home/run.log" >&2
      return 1
    fi
    sleep 0.5
  done
  sleep 1
}
