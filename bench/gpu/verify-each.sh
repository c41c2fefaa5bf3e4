#!/usr/bin/env bash
# Verifies every manifest of an artifact folder on the GPU machine, one
# tile-run process per kernel under a time limit, so that a kernel that
# hangs (a barrier that never completes) is reported as TIMEOUT and the
# others still run.
#
#   bench/gpu/verify-each.sh ARTIFACT_DIR [SECONDS] [tile-run verify options...]
#
# Run from the repository root. Builds the runtime like run-bench.sh
# (TILE_RT_BUILD, default /tmp/tile-rt) when tile-run is not built yet.
# Prints one line per kernel (tile-run's, or TIMEOUT / FAILED with the exit
# status) and a last line "N passed, N failed"; exit status 1 when any
# failed.
set -uo pipefail
[[ $# -ge 1 ]] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
artifacts=$1
limit=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
build=${TILE_RT_BUILD:-/tmp/tile-rt}
if [[ ! -x $build/bin/tile-run ]]; then
  source bench/gpu/build-runtime.sh
  build_runtime "$build.log" tile-run || exit 1
fi
passed=0 failed=0
for manifest in $(ls "$artifacts"/*.json | sort -V); do
  output=$(timeout "$limit" "$build/bin/tile-run" verify "$@" "$manifest" 2>&1)
  status=$?
  if [[ $status -eq 0 ]]; then
    passed=$((passed + 1))
    printf '%s\n' "$output" | grep -v '^seed \|^GPU \|^driver \|^\[' | grep -v 'passed, ' | tail -n 1
  else
    failed=$((failed + 1))
    if [[ $status -eq 124 ]]; then
      echo "TIMEOUT $(basename "$manifest") (over ${limit} s)"
    else
      echo "FAILED $(basename "$manifest") (exit $status): $(printf '%s' "$output" | tail -n 3 | tr '\n' ' ')"
    fi
  fi
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
