#!/usr/bin/env bash
# TMA-store epilogues (store=tma) on the GPU machine: builds tile-run,
# verifies every kernel of the given folders, runs compute-sanitizer memcheck
# and racecheck on a sample, and times the pairs folder twice (tile-run bench,
# cuBLAS in the same run).
#
#   OUT=DIR bench/gpu/tma-store.sh PAIRS_DIR VERIFY_DIRS SANITIZE_MANIFESTS
#
# VERIFY_DIRS and SANITIZE_MANIFESTS are comma-separated. Writes verify.txt,
# sanitize.txt, bench-1.csv and bench-2.csv (and the tables) to $OUT.
set -uo pipefail
pairs=$1 verify=$2 sanitize=$3
out=${OUT:?set OUT}
mkdir -p "$out"
source bench/gpu/build-runtime.sh
build_runtime "$out/build.log" tile-run || exit 1
run=$tile_run
gpu_line "$out/gpu.txt"
IFS=, read -ra dirs <<<"$pairs,$verify"
"$run" verify "${dirs[@]}" > "$out/verify.txt" 2>&1
grep -E "FAIL|passed" "$out/verify.txt"
IFS=, read -ra manifests <<<"$sanitize"
TILE_RT_BUILD=$build bench/gpu/sanitize.sh memcheck 120 "${manifests[@]}" > "$out/sanitize.txt" 2>&1
TILE_RT_BUILD=$build bench/gpu/sanitize.sh racecheck 120 "${manifests[@]}" >> "$out/sanitize.txt" 2>&1
grep -E "passed|FAIL|ERROR" "$out/sanitize.txt"
for r in 1 2; do
  "$run" bench --csv "$out/bench-$r.csv" "$pairs" > "$out/bench-$r.md" 2>/dev/null
done
cat "$out/bench-2.md"
