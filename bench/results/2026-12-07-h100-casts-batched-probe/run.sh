#!/usr/bin/env bash
# bench/results/2026-12-07-h100-casts-batched-probe: the device script as run
# (from bench/artifacts/stage/run.sh). One short device call: tensor-form cast kernels verified, then (time
# allowing) the batched bf16 and transposed probes timed once, memcheck on
# one cast kernel, the repack copy probe.
set -uo pipefail
out=${OUT:?}
start=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
source bench/gpu/build-runtime.sh
build_runtime "$out/build.log" tile-run || exit 1
run=$tile_run
echo "built at $((SECONDS - start)) s"
"$run" verify bench/artifacts/casts bench/artifacts/casts-r > "$out/verify.txt" 2>&1
grep -E "FAIL|passed" "$out/verify.txt"
echo "verified at $((SECONDS - start)) s"
for f in bprobe fprobe; do
  (( SECONDS - start < 150 )) || break
  "$run" verify bench/artifacts/$f > "$out/$f-verify.txt" 2>&1
  grep -E "FAIL|passed" "$out/$f-verify.txt"
  timeout 60 "$run" bench --csv "$out/$f-1.csv" bench/artifacts/$f > "$out/$f-1.md" 2>/dev/null
  echo "== $f at $((SECONDS - start)) s"; cut -d, -f1,10,14,16 "$out/$f-1.csv"
done
if (( SECONDS - start < 190 )); then
  TILE_RT_BUILD=$build timeout 40 bench/gpu/sanitize.sh memcheck 30 bench/artifacts/casts-r/ec004_matmul0.json > "$out/casts-sanitize.txt" 2>&1
  grep -E "passed|FAIL|ERROR" "$out/casts-sanitize.txt" | tail -2
fi
if (( SECONDS - start < 215 )); then
  nvcc -O3 -arch=sm_90 -o /tmp/rk bench/probe/repack-kernel.cu -lcuda && timeout 25 /tmp/rk > "$out/repack.txt" 2>&1
  cat "$out/repack.txt"
fi
echo "all done at $((SECONDS - start)) s"
