#!/usr/bin/env bash
# Verifies each kernel of DIR (its *_matmul0.json) against cuBLAS, each
# under a time limit, so that a kernel that never ends shows as rc=124
# instead of stopping the run; one line per kernel, also appended to
# $OUT/verify-timeout.txt. Then times the kernels named after DIR, if any.
#
#   bench/gpu/verify-timeout.sh DIR [NAME...]
#
# Run from the repository root on the GPU machine (see run-bench.sh for
# the runtime build and bench/carry). Environment: TILE_RT_BUILD (default
# /tmp/tile-rt), LIMIT (seconds per kernel, default 25), OUT (default /tmp).
set -u
[[ $# -ge 1 ]] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1
shift
build=${TILE_RT_BUILD:-/tmp/tile-rt}
out=${OUT:-/tmp}
limit=${LIMIT:-25}
if [[ ! -x $build/bin/tile-run ]]; then
  cmake -S runtime -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTILE_NLOHMANN_JSON_INCLUDE_DIR="$PWD/bench/carry/include" >/dev/null &&
    ninja -C "$build" tile-run >/dev/null || { echo "runtime build failed"; exit 1; }
fi
status=0
log=$(mktemp)
for json in "$dir"/*_matmul0.json; do
  name=$(basename "$json" _matmul0.json)
  start=$(date +%s%N)
  timeout "$limit" "$build/bin/tile-run" verify "$json" --reference cublas >"$log" 2>&1
  rc=$?
  end=$(date +%s%N)
  [[ $rc -eq 0 ]] || status=1
  echo "$name rc=$rc $(( (end - start) / 1000000 ))ms $(tail -n 1 "$log")" |
    tee -a "$out/verify-timeout.txt"
done
if [[ $# -gt 0 ]]; then
  kernels=()
  for name in "$@"; do kernels+=("$dir/${name}_matmul0.json"); done
  "$build/bin/tile-run" bench "${kernels[@]}" 2>&1 | tee "$out/verify-timeout-bench.txt" | tail -n $(( $# + 2 ))
fi
exit $status
