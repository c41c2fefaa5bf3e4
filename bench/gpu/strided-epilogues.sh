#!/usr/bin/env bash
# Kernels whose fused epilogue reads strided operands (bench/strided-
# epilogues.py), on the GPU machine: tile-run verify on every artifact in
# DIR with tile-run's layouts for the dynamic fields (one 16-byte step past
# the densest), the kernels with three epilogue operands again with wider
# layouts given by --layout, and compute-sanitizer memcheck on MEMCHECK
# (comma-separated manifests). Builds the runtime first.
#
#   bench/gpu/strided-epilogues.sh DIR OUT [MEMCHECK]
set -uo pipefail
[[ $# -ge 2 ]] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 out=$2 sample=${3:-}
mkdir -p "$out"
source bench/gpu/build-runtime.sh
build_runtime "$out/build.log" tile-run || exit 1
"$tile_run" verify --seed 20261207 "$dir"/*.json > "$out/verify-default.txt" 2>&1
echo "strided-epilogues: verify (tile-run's layouts): exit $?"
mapfile -t three < <(grep -l '"E2"' "$dir"/*.json)
if ((${#three[@]})); then
  "$tile_run" verify --seed 20261208 --layout E0.offset=37 \
    --layout E0.batch_stride=9000 --layout E1.offset=5 \
    --layout E1.row_stride=7 --layout E1.batch_stride=6000 \
    --layout E2.offset=11 --layout E2.row_stride=2100 \
    --layout E2.batch_stride=1200000 "${three[@]}" > "$out/verify-given.txt" 2>&1
  echo "strided-epilogues: verify (given layouts, ${#three[@]} kernels): exit $?"
fi
if [[ -n $sample ]]; then
  IFS=, read -ra manifests <<<"$sample"
  TILE_RT_BUILD=$build bench/gpu/sanitize.sh memcheck 120 "${manifests[@]}" \
    > "$out/memcheck.txt" 2>&1
  echo "strided-epilogues: memcheck: exit $?"
fi
grep -hE "passed|FAIL" "$out"/verify-*.txt "$out"/memcheck.txt 2>/dev/null
