#!/bin/bash
# Time and peak memory of `watts analyze` on generated programs of growing size (issue 16).
#
# usage: benches/size.sh [BINARY] [EXTRA ANALYZE ARGS...]
#   sizes: $WATTS_SIZES (lines), default "5000 10000 20000 50000 100000"; 120 s limit each.
# Prints per size: lines, exit status (124 = out of time), seconds, peak RSS in MB, and the
# growth factor of time and memory per doubling of the size against the previous size.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/target/release/watts}
shift || true
sizes=${WATTS_SIZES:-"5000 10000 20000 50000 100000"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prev=""
for n in $sizes; do
  python3 "$here/benches/gen_size.py" "$n" > "$tmp/gen$n.c"
  lines=$(wc -l < "$tmp/gen$n.c")
  /usr/bin/time -f "%e %M" -o "$tmp/time" timeout 120 "$bin" analyze "$tmp/gen$n.c" --quiet "$@" \
    > /dev/null 2>&1
  rc=$?
  read -r secs kb < <(tail -1 "$tmp/time")
  mb=$((kb / 1024))
  growth=""
  if [ -n "$prev" ]; then
    read -r pl ps pm <<< "$prev"
    growth=$(python3 -c "import math; d=math.log2($lines/$pl); print('per doubling: time %.2fx, memory %.2fx' % ((max($secs,0.01)/max($ps,0.01))**(1/d), ($mb/$pm)**(1/d)))")
  fi
  printf '%7d lines  rc=%-3s %7.2f s %6d MB  %s\n' "$lines" "$rc" "$secs" "$mb" "$growth"
  prev="$lines $secs $mb"
done
