#!/usr/bin/env bash
# Fused epilogues on the GPU machine (artifacts from
# bench/gpu/epilogues-compile.sh, carried in bench/artifacts/epilogues):
# verifies every fused kernel (5 epilogues x 12 shapes x f32/bf16) against
# the float64 reference with the same epilogue, runs compute-sanitizer
# memcheck on a sample, and times 4096^3 plain, bias + ReLU and bias + GELU
# kernels (f32 and bf16; C = 0 + A*B, and bias + ReLU on C += A*B too) in
# one tile-run bench run, cuBLAS (cuBLASLt's epilogue where it has one) in
# the same run.
#   bench/gpu/epilogues.sh
set -uo pipefail
art=bench/artifacts/epilogues
build=${TILE_RT_BUILD:-/tmp/tile-rt}
export TILE_RT_BUILD=$build
echo "== verify"
bench/gpu/verify-each.sh "$art/verify" 60 | tee /tmp/epilogues-verify.txt | tail -n 60
echo "== memcheck (sample)"
sample=$(ls "$art/verify"/*.json | grep -E '_(1x1x1|65x129x72|333x517x136)_matmul0\.json$' | head -n 8)
bench/gpu/sanitize.sh memcheck 120 $sample | tail -n 10
echo "== bench 4096^3 (plain vs bias + ReLU and bias + GELU fused; cuBLAS in the same run)"
"$build/bin/tile-run" bench "$art"/bench/*.json 2>&1 | tail -n 20
echo "== summary"
tail -n 1 /tmp/epilogues-verify.txt
