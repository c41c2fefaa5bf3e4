#!/usr/bin/env bash
set -u
# The checks of bench/results/2026-12-05-h100-persistent-fix.md (run 4), on the
# GPU machine from the repository root: no CALL in the SASS of the persistent
# kernels, the diagnosis variants verified 5 times each, the random persistent
# sets verified, memcheck on two kernels. Artifacts compiled with
# bench/compile.sh into bench/artifacts/{diag4,prand2,prand16}.
source bench/gpu/build-runtime.sh
build_runtime "$build.log" tile-run || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
echo "== SASS subroutine calls per cubin (expect none)"
checked=0
for f in bench/artifacts/diag4/*.cubin bench/artifacts/prand2/*.cubin bench/artifacts/prand16/*.cubin; do
  sass=$(cuobjdump -sass "$f") || { echo "cuobjdump failed on $f"; continue; }
  checked=$((checked + 1))
  n=$(grep -c "CALL" <<<"$sass")
  [ "$n" != 0 ] && echo "$(basename "$f") CALL x$n"
done
echo "$checked cubins checked"
echo "== diag4, 5 runs each"
for m in bench/artifacts/diag4/*.json; do
  n=$(basename $m .json); pass=0; fail=0; details=""
  for r in 1 2 3 4 5; do
    out=$(timeout 60 "$tile_run" verify "$m" 2>&1); s=$?
    if [ $s -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); [ $fail -le 1 ] && details="$(echo "$out" | grep -A3 FAIL | tail -3 | tr '\n' ' ')"; fi
  done
  echo "$n pass=$pass fail=$fail $details"
done
echo "== prand2 + prand16"
TILE_RT_BUILD=$build bench/gpu/verify-each.sh bench/artifacts/prand2 120 2>&1 | grep -v PASS
TILE_RT_BUILD=$build bench/gpu/verify-each.sh bench/artifacts/prand16 120 2>&1 | grep -v PASS
echo "== memcheck"
for m in bench/artifacts/diag4/d_p_matmul0.json bench/artifacts/prand16/rqh005_b2_matmul0.json; do timeout 120 compute-sanitizer --tool memcheck "$tile_run" verify $m 2>&1 | grep -E "PASS|FAIL|ERROR SUMMARY"; done
