#!/usr/bin/env bash
# Runs `tile-run verify` on each manifest under compute-sanitizer on the GPU
# machine, one process per kernel under a time limit.
#
#   bench/gpu/sanitize.sh TOOL SECONDS MANIFEST...
#
# TOOL is memcheck, racecheck, synccheck or initcheck. Run from the
# repository root, after verify-each.sh or run-bench.sh built tile-run
# (TILE_RT_BUILD, default /tmp/tile-rt). Prints one line per kernel: the
# sanitizer's error summary and whether verify passed under it (CLEAN only
# when both hold), and a last line "N passed, N failed"; exit status 1 when
# any failed.
set -uo pipefail
[[ $# -ge 3 ]] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
tool=$1 limit=$2
shift 2
build=${TILE_RT_BUILD:-/tmp/tile-rt}
sanitizer=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
[[ -x $build/bin/tile-run ]] || { echo "sanitize: build tile-run first" >&2; exit 1; }
passed=0 failed=0
for manifest in "$@"; do
  output=$(timeout "$limit" "$sanitizer" --tool "$tool" --error-exitcode 99 \
    "$build/bin/tile-run" verify "$manifest" 2>&1)
  status=$?
  summary=$(printf '%s\n' "$output" | grep -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ [a-z]+( [a-z]+)?' | tail -n 1)
  verdict=$(printf '%s\n' "$output" | grep -oE '\b(PASS|FAIL)\b' | tail -n 1)
  if [[ $status -eq 0 && $verdict == PASS ]]; then
    passed=$((passed + 1))
    echo "CLEAN $tool $(basename "$manifest"): $summary, verify $verdict"
  else
    failed=$((failed + 1))
    [[ $status -eq 124 ]] && summary="TIMEOUT (over $limit s)"
    echo "DIRTY $tool $(basename "$manifest") (exit $status): ${summary:-no summary}, verify ${verdict:-none}"
    printf '%s\n' "$output" | grep -E '=========  ?(Invalid|Race|Barrier|Error|Uninit)' | head -n 3
  fi
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
