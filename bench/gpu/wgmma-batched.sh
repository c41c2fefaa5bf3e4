#!/usr/bin/env bash
# Batched bf16/f16 kernels on the GPU machine: every kernel of ARTIFACT_DIR
# verified against cuBLAS (one process each, a time limit each), memcheck on
# SAMPLE kernels, then the kernels of BENCH_LIST (names, one per line, '#'
# comments) timed against cuBLAS's strided batched GEMM in one tile-run
# bench run. Writes $OUT/verify.txt, $OUT/memcheck.txt, $OUT/bench.csv when
# $OUT is set.
#
#   bench/gpu/wgmma-batched.sh ARTIFACT_DIR BENCH_LIST [SAMPLE...]
set -uo pipefail
[[ $# -ge 2 ]] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 list=$2
shift 2
out=${OUT:-/tmp/wgmma-batched}
mkdir -p "$out"
build=${TILE_RT_BUILD:-/tmp/tile-rt}
bench/gpu/verify-each.sh "$dir" 25 --reference cublas | tee "$out/verify.txt" | tail -3
: >"$out/memcheck.txt"
for name in "$@"; do
  compute-sanitizer --tool memcheck --error-exitcode 3 \
    "$build/bin/tile-run" verify "$dir/${name}_matmul0.json" >>"$out/memcheck.txt" 2>&1
  echo "memcheck $name: exit $?" | tee -a "$out/memcheck.txt"
done
kernels=()
while read -r name _; do
  [[ -z $name || $name == \#* ]] && continue
  kernels+=("$dir/${name}_matmul0.json")
done <"$list"
"$build/bin/tile-run" bench --csv "$out/bench.csv" "${kernels[@]}"
