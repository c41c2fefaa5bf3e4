#!/usr/bin/env bash
# Persistent wgmma kernels on the GPU machine: every kernel of the folders
# verified against cuBLAS (one process each, a time limit each: a ring that
# lost count of its phases hangs; OTHER_DIRS a comma-separated list of
# further folders to verify), memcheck on SAMPLE manifests, then the
# pairs folder timed against cuBLAS in ROUNDS tile-run bench runs (the
# pairs interleaved: NAME and NAME_p next to each other). Writes
# $OUT/verify.txt, $OUT/memcheck.txt, $OUT/bench-R.csv.
#
#   bench/gpu/persistent.sh PAIRS_DIR ROUNDS OTHER_DIRS [SAMPLE_MANIFEST...]
set -uo pipefail
[[ $# -ge 3 ]] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
pairs=$1 rounds=$2 other=$3
shift 3
out=${OUT:-/tmp/persistent}
mkdir -p "$out"
build=${TILE_RT_BUILD:-/tmp/tile-rt}
for dir in "$pairs" ${other//,/ }; do
  echo "== $dir"
  bench/gpu/verify-each.sh "$dir" 25 --reference cublas
done | tee "$out/verify.txt" | grep -v '^PASS' | tail -20
: >"$out/memcheck.txt"
for manifest in "$@"; do
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 \
    "$build/bin/tile-run" verify "$manifest" >>"$out/memcheck.txt" 2>&1
  echo "memcheck $(basename "$manifest"): exit $?" | tee -a "$out/memcheck.txt"
done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for round in $(seq 1 "$rounds"); do
  "$build/bin/tile-run" bench --csv "$out/bench-$round.csv" \
    $(ls "$pairs"/*.json | sort -V) | tail -n 30
done
