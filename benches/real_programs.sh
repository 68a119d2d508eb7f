#!/bin/bash
# Time and peak memory of `watts analyze` on the real programs (issue 16).
#
# usage: benches/real_programs.sh [BINARY] [EXTRA ANALYZE ARGS...]
#   BINARY   default: target/release/watts of this checkout
#   programs: $WATTS_REALPROGRAMS, else ../shared/realprograms beside the checkout (never copied
#             into the repository); a 60 s limit per program (WATTS_REAL_TIMEOUT), 6 GB cap.
# Prints one line per program: name, exit status (124 = out of time), seconds, peak RSS in MB,
# and whether the analysis stopped at the memory budget (--max-memory) before its fixpoint.
# Wall time is noisy on a loaded machine: compare runs made one after the other, or use
# `valgrind --tool=callgrind` for instruction counts (see DECISIONS.md D16 for the figures).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/target/release/watts}
shift || true
dir=${WATTS_REALPROGRAMS:-$here/../shared/realprograms}
limit=${WATTS_REAL_TIMEOUT:-60}
[ -d "$dir" ] || { echo "no real programs in $dir (set WATTS_REALPROGRAMS)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$dir"/*.c; do
  n=$(basename "$f" .c)
  /usr/bin/time -f "%e %M" -o "$tmp/time" timeout "$limit" \
    bash -c 'ulimit -v 6000000; exec "$0" analyze "$1" --format gnu "${@:2}" -- -w' "$bin" "$f" "$@" \
    > "$tmp/out" 2>&1
  rc=$?
  read -r secs kb < <(tail -1 "$tmp/time")
  stopped=""
  grep -q "went past its memory budget" "$tmp/out" && stopped="  (stopped at the memory budget)"
  printf '%-16s rc=%-3s %7.2f s %7d MB%s\n' "$n" "$rc" "$secs" $((kb / 1024)) "$stopped"
done
