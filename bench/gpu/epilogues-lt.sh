#!/usr/bin/env bash
# Verifies and times the fused-epilogue kernels of bench/artifacts/epilogues/bench
# against cuBLASLt (run from the repository root on the GPU machine; OUT set).
set -u
source bench/gpu/build-runtime.sh
build_runtime "$build.log" tile-run || exit 1
a=bench/artifacts/epilogues/bench
"$tile_run" verify --reference cublas $a/alpha_beta_*_matmul0.json $a/residual_relu_*_matmul0.json 2>&1 | grep -E "PASS|FAIL|passed"
for r in 1 2; do "$tile_run" bench --csv $OUT/epi-$r.csv $a/*.json 2>&1 | tail -n 14; done
