#!/usr/bin/env bash
# Runs the benchmarks in release builds and prints their results side by side.
# Not part of CI. Needs the .venv that .ci/run makes (or any Python with icalendar 7).
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${ITERATIONS:-20}
python=${PYTHON:-.venv/bin/python}

swift build -c release --product CalendarBench
bench=.build/release/CalendarBench
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
"$bench" --export "$data" >/dev/null

echo "== Faceoff (Swift, libical), release build =="
"$bench" --iterations "$iterations"
echo
echo "== icalendar (Python), same schedules =="
"$python" bench/python/build_ics.py "$data" "$iterations"
