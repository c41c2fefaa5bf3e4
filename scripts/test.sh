#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the lit tests under
# test/ (passes, pipeline, PTX, diagnostics, plugin, downstream build, GPU
# runs) and the GoogleTest unit tests (compiler and runtime), in one lit run.
# The last line is the sum over all of them: "N passed, N failed".
#
#   scripts/test.sh [extra lit options, e.g. --filter=Transforms]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILE_BUILD_DIR:-$root/build}
lit=/usr/lib/llvm-22/bin/lit

if ! "$root/scripts/build.sh"; then
  echo "test: the build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

log="$build/test-results.log"
"$lit" -v "$@" "$build/test" "$build/test/Unit" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit's summary lines: "  Passed   : 123 (97.62%)".
count() {
  grep -E "^ *$1 *: *[0-9]+" "$log" | sed -E 's/^[^:]*: *([0-9]+).*/\1/' |
    awk '{ total += $1 } END { print total + 0 }'
}
passed=$(($(count "Passed") + $(count "Expectedly Failed")))
failed=$(($(count "Failed") + $(count "Unexpectedly Passed") + $(count "Timed Out")))
skipped=$(($(count "Unsupported") + $(count "Skipped")))
if [[ $status -ne 0 && $failed -eq 0 ]]; then
  failed=1 # lit itself failed (a configuration error): count it
fi
echo
echo "skipped (no GPU / no ptxas / unsupported here): $skipped"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
