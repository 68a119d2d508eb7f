#!/usr/bin/env bash
# Soundness oracle from csmith: generates small random C programs whose real checksum is known,
# and turns each into a program with one assertion that really fails.
#
# usage: tests/csmith/sweep.sh [--out DIR] [--timeout SECS] SEED...
#
# For every seed:
#   1. csmith --seed SEED $CSMITH_OPTS  ->  DIR/seed-SEED.orig.c
#   2. compile it natively (clang-19, clang or gcc; -O0) and run it with a timeout to read
#      "checksum = X" (a seed whose program does not finish in time is skipped);
#   3. write DIR/seed-SEED.c: `#include <assert.h>` first, and the final
#        platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);
#      replaced by two assertions on consecutive lines:
#        assert((crc32_context ^ 0xFFFFFFFFUL) == 0xXUL);  holds in every execution
#        assert((crc32_context ^ 0xFFFFFFFFUL) != 0xXUL);  fails in every execution
#      (the program is deterministic). The first must never be reported unreachable (nor
#      violated); the second never proved nor unreachable;
#   4. check natively that the new program aborts on the second assertion.
#
# Output, one line per seed on stdout (tests/corpus.rs parses it):
#   include DIR                                   first line: where csmith.h is (pass -I DIR)
#   ok SEED FILE LINE CHECKSUM NATIVE_MS LINES    FILE has the true assertion on LINE, the
#                                                 failing one on LINE + 1
#   skip SEED REASON...
# Exit status: 0, or 77 when csmith or its headers (Debian: libcsmith-dev) are missing.
# Generated files go to DIR (default: a fresh `mktemp -d`), never into the repository.
set -euo pipefail

out=""
timeout_s=5
seeds=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --timeout) timeout_s="$2"; shift 2 ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) seeds+=("$1"); shift ;;
    esac
done

# Options that keep programs small: the analyzer inlines every call, so few functions and shallow
# blocks; no bitfields, volatiles, packed structs or unions (layouts the IR summarises anyway);
# no jumps (goto); one-dimensional short arrays; pointers kept (they exercise the points-to
# analysis) but only one level deep.
CSMITH_OPTS=${CSMITH_OPTS:-"--max-funcs 3 --max-block-depth 3 --max-block-size 3 --max-expr-complexity 4 --no-bitfields --no-volatiles --no-volatile-pointers --no-packed-struct --no-unions --no-argc --no-jumps --max-array-dim 1 --max-array-len-per-dim 4 --max-struct-fields 3 --max-pointer-depth 1 --concise"}

if ! command -v csmith >/dev/null 2>&1; then
    echo "csmith not installed" >&2
    exit 77
fi
inc=""
for d in "${CSMITH_INCLUDE:-}" /usr/include/csmith /usr/include/csmith-* /usr/local/include/csmith /usr/local/include/csmith-*; do
    if [ -n "$d" ] && [ -f "$d/csmith.h" ]; then inc="$d"; break; fi
done
if [ -z "$inc" ]; then
    echo "csmith.h not found (Debian: apt-get install libcsmith-dev; or set CSMITH_INCLUDE)" >&2
    exit 77
fi
cc="${CC:-}"
if [ -z "$cc" ]; then
    for c in clang-19 clang gcc cc; do
        if command -v "$c" >/dev/null 2>&1; then cc="$c"; break; fi
    done
fi
if [ -z "$out" ]; then out="$(mktemp -d "${TMPDIR:-/tmp}/watts-csmith.XXXXXX")"; fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
echo "include $inc"

ms() { echo $(( $(date +%s%N) / 1000000 )); }

marker='    platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);'
for seed in "${seeds[@]}"; do
    orig="$out/seed-$seed.orig.c"
    prog="$out/seed-$seed.c"
    # shellcheck disable=SC2086
    # csmith writes platform.info into its working directory: run it in the output directory.
    if ! (cd "$out" && csmith --seed "$seed" $CSMITH_OPTS -o "$orig") >/dev/null 2>&1; then
        echo "skip $seed csmith failed"; continue
    fi
    if ! "$cc" -O0 -w -I "$inc" -o "$out/seed-$seed.orig" "$orig" 2>"$out/seed-$seed.cc.log"; then
        echo "skip $seed native compilation failed ($out/seed-$seed.cc.log)"; continue
    fi
    t0=$(ms)
    status=$( (timeout "$timeout_s" "$out/seed-$seed.orig" >"$out/seed-$seed.stdout" 2>/dev/null; echo $?) 2>/dev/null )
    t1=$(ms)
    if [ "$status" -ne 0 ]; then
        if [ "$status" -eq 124 ]; then
            echo "skip $seed native run timed out after ${timeout_s}s"
        else
            echo "skip $seed native run failed with status $status"
        fi
        continue
    fi
    sum=$(sed -n 's/^checksum = \([0-9A-Fa-f]*\)$/\1/p' "$out/seed-$seed.stdout")
    if [ -z "$sum" ]; then echo "skip $seed no checksum in the output"; continue; fi
    if [ "$(grep -cxF -- "$marker" "$orig" || true)" -ne 1 ]; then
        echo "skip $seed no single platform_main_end line"; continue
    fi
    {
        echo '#include <assert.h>'
        while IFS= read -r line || [ -n "$line" ]; do
            if [ "$line" = "$marker" ]; then
                echo "    assert((crc32_context ^ 0xFFFFFFFFUL) == 0x${sum}UL);"
                echo "    assert((crc32_context ^ 0xFFFFFFFFUL) != 0x${sum}UL);"
            else
                printf '%s\n' "$line"
            fi
        done <"$orig"
    } >"$prog"
    lineno=$(grep -n -F 'assert((crc32_context ^ 0xFFFFFFFFUL) == 0x' "$prog" | cut -d: -f1)
    # The oracle itself must be right: the new program fails its assertion natively.
    if ! "$cc" -O0 -w -I "$inc" -o "$out/seed-$seed.bin" "$prog" 2>"$out/seed-$seed.cc.log"; then
        echo "skip $seed the asserting copy does not compile ($out/seed-$seed.cc.log)"; continue
    fi
    status=$( (timeout "$timeout_s" "$out/seed-$seed.bin" >/dev/null 2>"$out/seed-$seed.stderr"; echo $?) 2>/dev/null )
    if [ "$status" -ne 134 ] || ! grep -q ":$((lineno + 1)): .*Assertion" "$out/seed-$seed.stderr"; then
        echo "skip $seed the asserting copy did not fail its second assertion natively (status $status)"; continue
    fi
    echo "ok $seed $prog $lineno $sum $((t1 - t0)) $(wc -l <"$orig")"
done
