#!/usr/bin/env bash
# Device script: f32 nn/nt/tt pairs at 1000^3, 1021x1031x1033, 2048^3,
# 3000^3, 4096^3 (the model's configs) and forced nt variants with BK = 16
# and 32 (a transposed B's copy in sector runs); verify, 3 bench rounds.
set -uo pipefail
out=${OUT:?}
start=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
source bench/gpu/build-runtime.sh
build_runtime "$out/build.log" tile-run || exit 1
s=bench/artifacts/stage
"$tile_run" verify $s/probe > "$out/verify.txt" 2>&1
grep -E "FAIL|passed" "$out/verify.txt"
for r in 1 2 3; do
  timeout 100 "$tile_run" bench --csv "$out/probe-$r.csv" $s/probe > "$out/probe-$r.md" 2>/dev/null
  echo "== round $r at $((SECONDS - start)) s"
done
cut -d, -f1,10,14,16 "$out/probe-2.csv"
(cd "$out" && tar czf all.tgz *.csv *.md *.txt && rm -f *.csv *.md verify.txt)
echo "all done at $((SECONDS - start)) s"
