# Sourced by daemon.sh and order.sh. `start_replay BIN SPEED POLL START_IN` serves game
# 2025020100 from the project's mirror with `faceoff replay --serve` and writes a config that
# follows TOR with a jsonl stdout sink. It sets home (a temporary HOME, removed on exit) and
# base (the replay's API base URL).
start_replay() {
  local bin=$1 speed=$2 poll=$3 start_in=$4
  local game=Tests/Fixtures/mirror/v1/gamecenter/2025020100/play-by-play
  home=$(mktemp -d)
  trap 'kill $replay_pid 2>/dev/null || true; rm -rf "$home"' EXIT
  LOG_LEVEL=debug HOME=$home "$bin" replay --serve 127.0.0.1:0 "$game" --speed "$speed" \
    --start-in "$start_in" >"$home/base" 2>"$home/replay.log" &
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
}

# `until_final PID`: waits for the final alert in $home/alerts.jsonl, then stops PID with SIGTERM.
until_final() {
  until grep -q '"kind":"final"' "$home/alerts.jsonl" 2>/dev/null; do sleep 0.5; done
  sleep 1
  kill -TERM "$1"
}
