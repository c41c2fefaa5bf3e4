#!/usr/bin/env bash
# Device script (bench/b-pad/README.md): nn picks and the nt candidates (unpadded /
# padded). Verify the picks, memcheck 3, bench all once, the picks twice
# more, verify the padded candidates while time allows.
set -uo pipefail
out=${OUT:?}
start=$SECONDS
source bench/gpu/build-runtime.sh
gpu_line "$out/gpu.txt"
build_runtime "$out/build.log" tile-run || exit 1
s=bench/artifacts/stage
(cd $s && tar xzf plain.tgz && tar xzf padb.tgz)
mkdir -p $s/picks && cp $s/plain/*_nn_* $s/plain/*_nt_c0_* $s/padb/*_nt_c0p_* $s/picks/
echo "== built, extracted at $((SECONDS - start)) s"
timeout 45 "$tile_run" verify --reference cublas $s/picks > "$out/verify-picks.txt" 2>&1
echo "picks: $(grep -c '^PASS' $out/verify-picks.txt) PASS, $(grep -c FAIL $out/verify-picks.txt) FAIL"; grep FAIL $out/verify-picks.txt | head -3
TILE_RT_BUILD=$build timeout 40 bench/gpu/sanitize.sh memcheck 12 $s/padb/r010_nt_c0p_matmul0.json $s/padb/r002_nt_c0p_matmul0.json $s/padb/p1000_nt_c0p_matmul0.json > "$out/sanitize.txt" 2>&1
grep -E "passed|FAIL|ERROR" "$out/sanitize.txt" | tail -3
echo "== verified at $((SECONDS - start)) s"
for d in plain padb; do
  timeout 55 "$tile_run" bench --warmup 5 --iters 20 --csv "$out/$d-1.csv" $s/$d > "$out/$d-1.md" 2>/dev/null
done
echo "== round 1 at $((SECONDS - start)) s"
for r in 2 3; do
  (( SECONDS - start > 170 )) && break
  timeout 40 "$tile_run" bench --warmup 5 --iters 20 --csv "$out/picks-$r.csv" $s/picks > "$out/picks-$r.md" 2>/dev/null
  echo "== picks round $r at $((SECONDS - start)) s"
done
(cd "$out" && tar czf all.tgz *.csv *.md *.txt)
left=$((230 - (SECONDS - start)))
if (( left > 10 )); then
  timeout $left "$tile_run" verify --reference cublas $s/padb > "$out/verify-padb.txt" 2>&1
  echo "padb: $(grep -c '^PASS' $out/verify-padb.txt) PASS, $(grep -c FAIL $out/verify-padb.txt) FAIL"; grep FAIL $out/verify-padb.txt | head -3
fi
(cd "$out" && tar czf all.tgz *.csv *.md *.txt && rm -f *.csv *.md verify-*.txt sanitize.txt)
echo "all done at $((SECONDS - start)) s"
