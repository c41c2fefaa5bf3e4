#!/usr/bin/env bash
# 2x1-cluster wgmma kernels on the GPU machine: every kernel of the pairs
# folder and of the random folders verified against cuBLAS (one process
# each, a time limit each: a cluster whose blocks lost count of each
# other's arrivals hangs), memcheck on SAMPLE manifests, the pairs timed
# against cuBLAS in ROUNDS tile-run bench runs, and the cuBLASLt epilogue
# baselines of bench/artifacts/epilogues/bench (whose D is compared with
# the kernel's C) once. Writes $OUT/verify.txt, $OUT/memcheck.txt,
# $OUT/bench-R.csv, $OUT/epilogues.txt.
#
#   bench/gpu/cluster.sh PAIRS_DIR ROUNDS RANDOM_DIRS [SAMPLE_MANIFEST...]
set -uo pipefail
[[ $# -ge 3 ]] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
out=${OUT:-/tmp/cluster}
mkdir -p "$out"
build=${TILE_RT_BUILD:-/tmp/tile-rt}
OUT=$out bench/gpu/persistent.sh "$@"
epilogues=bench/artifacts/epilogues/bench
if [[ -d $epilogues ]]; then
  "$build/bin/tile-run" bench --csv "$out/epilogues.csv" "$epilogues"/*.json \
    >"$out/epilogues.txt" 2>&1
  grep -iE "cublaslt|D |differ|note" "$out/epilogues.txt" | head -20
  tail -n 14 "$out/epilogues.txt"
fi
