#!/usr/bin/env bash
# Split-K on the wgmma strategy, on the GPU machine (artifacts compiled by
#   bench/compile.sh bench/wgmma-splitk.txt bench/artifacts/splitk
#   bench/compile.sh bench/wgmma-splitk-random.txt bench/artifacts/splitk-random
# and carried): verifies every kernel against the float64 reference, runs
# compute-sanitizer memcheck on a sample of split-K kernels, and times the
# sweep (the compiler's choice, split-K off, forced splits) and the random
# set, cuBLAS in the same run. Writes the bench JSON to $OUT (or /tmp).
#   bench/gpu/splitk.sh
set -uo pipefail
art=bench/artifacts
out=${OUT:-/tmp}
build=${TILE_RT_BUILD:-/tmp/tile-rt}
export TILE_RT_BUILD=$build
echo "== verify"
bench/gpu/verify-each.sh "$art/splitk" 60 | tee "$out/splitk-verify.txt" | grep -v PASS
bench/gpu/verify-each.sh "$art/splitk-random" 60 | tee "$out/splitk-random-verify.txt" | grep -v PASS
echo "== memcheck (sample)"
sample=$(grep -l '"split_k": *[2-9]' "$art"/splitk-random/*.json | head -n 6)
bench/gpu/sanitize.sh memcheck 180 $sample | tail -n 8
echo "== bench: split-K sweep"
"$build/bin/tile-run" bench --json "$out/splitk-sweep.json" "$art"/splitk/*.json 2>&1 | tail -n 40
echo "== bench: random set"
"$build/bin/tile-run" bench --json "$out/splitk-random.json" "$art"/splitk-random/*.json 2>&1 | tail -n 100
echo "== summary"
tail -n 1 "$out/splitk-verify.txt" "$out/splitk-random-verify.txt"
