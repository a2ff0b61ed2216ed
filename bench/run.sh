#!/usr/bin/env bash
# Runs the benchmarks in release builds and prints their results side by side.
# Not part of CI. Needs the .venv that .ci/run makes (or any Python with icalendar 7).
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${ITERATIONS:-20}
python=${PYTHON:-.venv/bin/python}

swift build -c release --product CalendarBench
swift build -c release --product LiveBench
bench=.build/release/CalendarBench
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
"$bench" --export "$data" >/dev/null

echo "== Faceoff (Swift, libical), release build =="
"$bench" --iterations "$iterations"
echo
echo "== icalendar (Python), same schedules =="
"$python" bench/python/build_ics.py "$data" "$iterations"

echo
echo "== Live engine: decode + detect per snapshot, release build =="
games=(Demo/demo-game.json)
for f in ../shared/nhl-api/fixtures/play-by-play_*.json; do [ -f "$f" ] && games+=("$f"); done
.build/release/LiveBench --iterations 5 "${games[@]}"

echo
echo "== Alerts: feed visibility -> loopback webhook receiver, release build =="
swift build -c release --product AlertBench
.build/release/AlertBench --speed "${ALERT_SPEED:-60}" --poll "${ALERT_POLL:-5}" 2>/dev/null
echo "-- the same through an MQTT sink to a local mosquitto (needs mosquitto, mosquitto-clients) --"
.build/release/AlertBench --speed "${ALERT_SPEED:-60}" --poll "${ALERT_POLL:-5}" --mqtt 2>/dev/null
echo "-- the receiver down for the first 20 s from puck drop --"
.build/release/AlertBench --speed "${ALERT_SPEED:-60}" --poll "${ALERT_POLL:-5}" --outage 20 2>/dev/null

echo
echo "== faceoff run over a replayed game, release build =="
bench/daemon.sh "${DAEMON_SPEED:-60}" "${DAEMON_POLL:-2}"
