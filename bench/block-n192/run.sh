#!/usr/bin/env bash
# Device script (bench/block-n192/README.md): the tensor-core model's picks
# with 128x192 and 64x192 blocks (after) against its picks without them
# (before), same shapes. Verify every after kernel, bench both twice.
set -uo pipefail
out=${OUT:?}
start=$SECONDS
if [[ -z ${tile_run:-} ]]; then
  source bench/gpu/build-runtime.sh
  gpu_line "$out/gpu.txt"
  build_runtime "$out/build.log" tile-run || exit 1
fi
s=bench/artifacts/stage
(cd $s && tar xzf n192.tgz)
timeout 60 "$tile_run" verify --reference cublas $s/after > "$out/n192-verify.txt" 2>&1
echo "n192: $(grep -c '^PASS' $out/n192-verify.txt) PASS, $(grep -c FAIL $out/n192-verify.txt) FAIL"; grep FAIL $out/n192-verify.txt | head -3
for r in 1 2; do
  for d in before after; do
    timeout 40 "$tile_run" bench --warmup 5 --iters 20 --csv "$out/n192-$d-$r.csv" $s/$d > "$out/n192-$d-$r.md" 2>/dev/null
  done
  echo "== n192 round $r at $((SECONDS - start)) s"
done
(cd "$out" && tar czf n192.tgz n192-*)
