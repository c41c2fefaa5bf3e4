#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the lit tests under
# test/ (passes, pipeline, PTX, diagnostics and their list, a bounded fuzzing
# run, plugin, downstream build, GPU runs) and the GoogleTest unit tests
# (compiler and runtime), in one lit run; then the same suite on a second
# build with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/;
# the plugin, downstream and GPU tests are left out there, see test/lit.cfg.py).
# The last line is the sum over both runs: "N passed, N failed".
#
#   scripts/test.sh [extra lit options, e.g. --filter=Transforms]
#
# TILE_SANITIZE=0 skips the sanitizer build and its run (quicker, for local
# iterations; CI runs both).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILE_BUILD_DIR:-$root/build}
lit=/usr/lib/llvm-22/bin/lit

passed=0 failed=0 skipped=0

# lit's summary lines: "  Passed   : 123 (97.62%)".
count() {
  grep -E "^ *$1 *: *[0-9]+" "$2" | sed -E 's/^[^:]*: *([0-9]+).*/\1/' |
    awk '{ total += $1 } END { print total + 0 }'
}

# run_suite NAME BUILD_DIR [lit options]: the lit and unit tests of a build.
run_suite() {
  local name=$1 dir=$2
  shift 2
  local log="$dir/test-results.log"
  echo "== $name: $dir"
  "$lit" -v "$@" "$dir/test" "$dir/test/Unit" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local p f s
  p=$(($(count "Passed" "$log") + $(count "Expectedly Failed" "$log")))
  f=$(($(count "Failed" "$log") + $(count "Unexpectedly Passed" "$log") +
       $(count "Timed Out" "$log")))
  s=$(($(count "Unsupported" "$log") + $(count "Skipped" "$log")))
  if [[ $status -ne 0 && $f -eq 0 ]]; then
    f=1 # lit itself failed (a configuration error): count it
  fi
  echo "$name: $p passed, $f failed, $s skipped"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

if TILE_SANITIZE=0 TILE_BUILD_DIR="$build" "$root/scripts/build.sh"; then
  run_suite "tests" "$build" "$@"
else
  echo "test: the build failed"
  failed=$((failed + 1))
fi

if [[ ${TILE_SANITIZE:-1} != 0 ]]; then
  asan_build=${TILE_SANITIZE_BUILD_DIR:-$root/build-asan}
  if TILE_SANITIZE=1 TILE_BUILD_DIR="$asan_build" "$root/scripts/build.sh"; then
    run_suite "tests with AddressSanitizer and UndefinedBehaviorSanitizer" \
      "$asan_build" "$@"
  else
    echo "test: the sanitizer build failed"
    failed=$((failed + 1))
  fi
fi

echo
echo "skipped (no GPU / no ptxas / unsupported here or in the sanitizer build): $skipped"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
