#!/usr/bin/env bash
# A probe on the GPU machine: builds tile-run, verifies every kernel of the
# given folders, runs compute-sanitizer memcheck on a sample, and times each
# folder twice (tile-run bench, cuBLAS in the same run).
#
#   OUT=DIR bench/gpu/probe.sh DIRS [MEMCHECK_MANIFESTS]
#
# DIRS and MEMCHECK_MANIFESTS are comma-separated. Writes gpu.txt,
# verify.txt, sanitize.txt and, per folder F and run R, F-R.csv and F-R.md
# to $OUT; prints the verify summary and the second run's tables.
set -uo pipefail
dirs=$1 sanitize=${2:-}
out=${OUT:?set OUT}
mkdir -p "$out"
source bench/gpu/build-runtime.sh
build_runtime "$out/build.log" tile-run || exit 1
run=$tile_run
gpu_line "$out/gpu.txt"
IFS=, read -ra folders <<<"$dirs"
"$run" verify "${folders[@]}" > "$out/verify.txt" 2>&1
grep -E "FAIL|passed" "$out/verify.txt"
if [[ -n $sanitize ]]; then
  IFS=, read -ra manifests <<<"$sanitize"
  TILE_RT_BUILD=$build bench/gpu/sanitize.sh memcheck 120 "${manifests[@]}" > "$out/sanitize.txt" 2>&1
  grep -E "passed|FAIL|ERROR" "$out/sanitize.txt"
fi
for r in 1 2; do
  for f in "${folders[@]}"; do
    name=$(basename "$f")
    "$run" bench --csv "$out/$name-$r.csv" "$f" > "$out/$name-$r.md" 2>/dev/null
  done
done
for f in "${folders[@]}"; do cat "$out/$(basename "$f")-2.md"; done
