#!/bin/sh
# Says how much of contrib/faceoff.order the linked binary still defines. Symbols renamed or
# removed since bench/order.sh wrote the list are skipped by lld; when many are, the hot code
# is no longer together and `faceoff run` grows (bench/daemon.sh measures it).
#   contrib/order-check.sh BINARY
set -eu
order="$(dirname "$0")/faceoff.order"
listed=$(mktemp)
trap 'rm -f "$listed"' EXIT
grep -v '^#' "$order" | sort -u > "$listed"
total=$(wc -l < "$listed")
missing=$(nm --defined-only "$1" | awk '{print $3}' | sort -u | comm -23 "$listed" - | wc -l)
echo "symbol ordering: $((total - missing)) of $total listed symbols found"
if [ $((missing * 10)) -gt "$total" ]; then
  echo "warning: contrib/faceoff.order is stale ($missing symbols gone); regenerate it with bench/order.sh" >&2
fi
