#!/usr/bin/env bash
# split_last on the GPU machine: verifies every kernel of DIR/verify and
# DIR/bench against float64 (cuBLAS DGEMM reference), runs memcheck on two split kernels,
# and times DIR/bench (each shape with the cost model's split_last config
# and the same config unsplit, NAMEu) twice against cuBLAS.
#   bench/gpu/split-last.sh DIR OUT
# Artifacts: bench/compile.sh bench/split-last-{random,forced,bench}.txt.
# Writes OUT/verify.txt, OUT/memcheck.txt, OUT/bench-{1,2}.{txt,csv}.
set -uo pipefail
[[ $# -eq 2 ]] || { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 out=$2
build=${TILE_RT_BUILD:-/tmp/tile-rt}
mkdir -p "$out"
status=0
"$build/bin/tile-run" verify --reference cublas "$dir"/verify/*.json \
  "$dir"/bench/*.json >"$out/verify.txt" 2>&1 || status=1
echo "verify: $(grep -c ' PASS ' "$out/verify.txt") PASS, $(grep -c ' FAIL ' "$out/verify.txt") FAIL"
grep -E ' FAIL |error' "$out/verify.txt" | head -5
# memcheck on split kernels: the first two whose PTX adds into C atomically
# (else the first two of the list).
sample=$(grep -lE 'red\.global\.add|atom\.global\.add' "$dir"/verify/*.ptx 2>/dev/null |
  head -n 2 | sed 's/\.ptx$/.json/')
[[ -n $sample ]] || sample=$(ls "$dir"/verify/*.json | head -n 2)
# shellcheck disable=SC2086
TILE_RT_BUILD=$build bench/gpu/sanitize.sh memcheck 300 $sample \
  >"$out/memcheck.txt" 2>&1 || status=1
tail -n 3 "$out/memcheck.txt"
for r in 1 2; do
  "$build/bin/tile-run" bench --csv "$out/bench-$r.csv" "$dir"/bench/*.json \
    >"$out/bench-$r.txt" 2>&1 || status=1
done
grep '^|' "$out/bench-2.txt"
exit $status
