#!/usr/bin/env bash
# Device script: f32 transposed set (bench/transposed-random.txt, f_*),
# three compiles: tr-old (row by row), tr-new (A's and B's transposing
# copies in sector runs), tr-b (B's only: the committed rule). Verify
# tr-b, bench the three alternately, 3 rounds.
set -uo pipefail
out=${OUT:?}
start=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
source bench/gpu/build-runtime.sh
build_runtime "$out/build.log" tile-run || exit 1
s=bench/artifacts/stage
"$tile_run" verify $s/tr-b > "$out/verify.txt" 2>&1
grep -E "FAIL|passed" "$out/verify.txt"
for r in 1 2 3; do
  for d in tr-old tr-new tr-b; do
    timeout 100 "$tile_run" bench --csv "$out/$d-$r.csv" $s/$d > "$out/$d-$r.md" 2>/dev/null
  done
  echo "== round $r at $((SECONDS - start)) s"
done
TILE_RT_BUILD=$build timeout 60 bench/gpu/sanitize.sh memcheck 20 $s/tr-b/f_r009_b2_nt_matmul0.json $s/tr-b/f_r000_b1_nt_matmul0.json > "$out/sanitize.txt" 2>&1
grep -E "passed|FAIL|ERROR" "$out/sanitize.txt" | tail -3
(cd "$out" && tar czf all.tgz *.csv *.md *.txt && rm -f *.csv *.md verify.txt sanitize.txt)
echo "all done at $((SECONDS - start)) s"
