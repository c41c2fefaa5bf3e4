#!/usr/bin/env bash
# Kernels whose operands have dynamic offsets and strides, on the GPU
# machine: tile-run verify on every artifact under DIR/rand and DIR/forms
# with tile-run's default layouts (one 16-byte step past the densest), the
# forms again with layouts given by --layout (and one that breaks the
# kernel's alignment, which must be refused), memcheck on a sample, and
# tile-run bench of DIR/perf (dynamic against static layouts of the same
# shapes, cuBLAS in the same run).
#
#   bench/gpu/dynamic-layouts.sh DIR OUT
set -uo pipefail
[[ $# -eq 2 ]] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 out=$2
mkdir -p "$out"
build=${TILE_RT_BUILD:-/tmp/tile-rt}
run=$build/bin/tile-run
[[ -x $run ]] || { echo "dynamic-layouts: build tile-run first" >&2; exit 1; }
"$run" verify --seed 20261206 "$dir"/rand/*.json "$dir"/forms/*.json \
  > "$out/verify-default.txt" 2>&1
echo "verify (default layouts): exit $?"
# Wide rows, offsets, a batch stride with a gap between the matrices.
"$run" verify --seed 20261207 --layout A.offset=40 --layout A.row_stride=520 \
  --layout B.offset=8 --layout B.row_stride=264 --layout C.offset=4 \
  --layout C.row_stride=200 --layout A.batch_stride=90000 \
  --layout B.batch_stride=80000 --layout C.batch_stride=70000 \
  --layout B.col_stride=136 \
  "$dir"/forms/*.json > "$out/verify-given.txt" 2>&1
echo "verify (given layouts): exit $?"
# A row stride off the kernel's 16-byte assumption: refused at launch.
"$run" verify --layout A.row_stride=73 "$dir"/forms/dyn_f32_matmul0.json \
  > "$out/verify-misaligned.txt" 2>&1
echo "verify (misaligned row stride, must fail): exit $?"
bench/gpu/sanitize.sh memcheck 120 "$dir"/forms/dyn_bbatch_matmul0.json \
  "$dir"/forms/dyn_linear_matmul0.json "$dir"/forms/dyn_splitk_matmul0.json \
  "$dir"/forms/dyn_batch_matmul0.json > "$out/memcheck.txt" 2>&1
echo "memcheck: exit $?"
for round in 1 2; do
  "$run" bench "$dir"/perf/*.json > "$out/bench-$round.txt" 2>&1
  echo "bench round $round: exit $?"
done
grep -c PASS "$out/verify-default.txt" "$out/verify-given.txt"
grep -c FAIL "$out/verify-default.txt" "$out/verify-given.txt"
tail -3 "$out/verify-misaligned.txt"
tail -2 "$out/memcheck.txt"
grep -A8 "^| kernel" "$out/bench-2.txt"
