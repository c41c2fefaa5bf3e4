#!/usr/bin/env bash
# Fused epilogues against cuBLAS plus a separate elementwise kernel (NVRTC),
# or cuBLASLt's own epilogue where it has one, on the GPU machine:
#   bench/gpu/epilogues-nvrtc.sh OUT [BATCHED_DIR]
# Times bench/artifacts/epilogues/bench (bench/gpu/epilogues-compile.sh
# --bench-only: 4096^3 plain, bias + ReLU, bias + GELU, alpha*AB + beta*D,
# residual + ReLU; f32 and bf16) twice, then BATCHED_DIR (the batched
# epilogues of bench/batched-epilogues.mlir, compiled with
# output-dir=BATCHED_DIR) verified against float64 and timed. Writes
# OUT/epi-{1,2}.{csv,txt}, OUT/bepi.{csv,txt} and OUT/bepi-verify.txt.
set -uo pipefail
[[ $# -ge 1 ]] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
out=$1 batched=${2:-}
build=${TILE_RT_BUILD:-/tmp/tile-rt}
a=bench/artifacts/epilogues/bench
mkdir -p "$out"
status=0
for r in 1 2; do
  "$build/bin/tile-run" bench --csv "$out/epi-$r.csv" "$a"/*.json \
    >"$out/epi-$r.txt" 2>&1 || status=1
done
if [[ -n $batched ]]; then
  "$build/bin/tile-run" verify --reference cublas "$batched"/*.json \
    >"$out/bepi-verify.txt" 2>&1 || status=1
  "$build/bin/tile-run" bench --csv "$out/bepi.csv" "$batched"/*.json \
    >"$out/bepi.txt" 2>&1 || status=1
  grep -E "PASS|FAIL" "$out/bepi-verify.txt"
  cat "$out/bepi.txt"
fi
cat "$out/epi-2.txt"
exit $status
