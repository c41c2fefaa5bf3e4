#!/usr/bin/env bash
# Verifies and times a folder of kernel artifacts on the GPU machine.
#
#   bench/gpu/run-bench.sh ARTIFACT_DIR OUT_DIR [tile-run bench options...]
#
# Run from the repository root. Builds the runtime with cmake and ninja only
# (no MLIR needed), runs `tile-run verify` and then `tile-run bench` on every
# manifest in ARTIFACT_DIR, and writes to OUT_DIR:
#   <date>-<gpu>.md    the report (<gpu>: h200, h100, ... from nvidia-smi):
#                      date, command, GPU, driver, nvcc, the
#                      verify lines and the bench table
#   <date>-<gpu>.json  tile-run bench --json
#   <date>-<gpu>.csv   tile-run bench --csv
#   <date>-<gpu>.log   build, unit test and progress output
# The bench table is printed last. Options after OUT_DIR go to tile-run
# bench (e.g. --iters 100). The exit status is non-zero when the build,
# verify or bench failed.
#
# The runtime needs the header-only nlohmann-json, which the GPU machine
# does not have as a package. Before sending the tree there, copy it from the
# development machine (Debian's nlohmann-json3-dev) into the git-ignored
# folder bench/carry/include:
#   mkdir -p bench/carry/include && cp -r /usr/include/nlohmann bench/carry/include/
# When bench/carry/include/nlohmann exists, the build uses it
# (-DTILE_NLOHMANN_JSON_INCLUDE_DIR); otherwise it needs an installed
# nlohmann_json CMake package, and stops saying so when there is none.
#
# Environment: TILE_RT_BUILD (build folder, default /tmp/tile-rt),
# CUDA_HOME (where nvcc and cuBLAS are looked for, default /usr/local/cuda),
# TILE_VERIFY_ARGS (options for tile-run verify, e.g. "--reference cublas").
set -uo pipefail

usage() {
  sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[[ $# -ge 2 ]] || usage
artifacts=$1
out=$2
shift 2
bench_args=("$@")

if [[ ! -f runtime/CMakeLists.txt ]]; then
  echo "run-bench.sh: run me from the repository root" >&2
  exit 2
fi
if [[ ! -d $artifacts ]]; then
  echo "run-bench.sh: no artifact folder '$artifacts'" >&2
  exit 2
fi
mkdir -p "$out" || exit 2

command_line=$(printf '%q ' "$0" "$artifacts" "$out" "${bench_args[@]}")
command_line=${command_line% }
day=$(date -u +%Y-%m-%d)
stamp=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
# The files are named after the GPU they ran on (h200, h100, ... from
# nvidia-smi's first GPU; "gpu" when it cannot tell).
tag=gpu
if command -v nvidia-smi >/dev/null 2>&1; then
  name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  [[ $name =~ ([HhAaBbLl][0-9]+) ]] && tag=$(printf '%s' "${BASH_REMATCH[1]}" | tr 'A-Z' 'a-z')
fi
base="$out/$day-$tag"
report="$base.md"
log="$base.log"
build=${TILE_RT_BUILD:-/tmp/tile-rt}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
: >"$log"

# The runtime, its tools and tests (nlohmann-json: the carried copy when
# there is one, else an installed package).
echo "run-bench: building the runtime in $build" >&2
source bench/gpu/build-runtime.sh
build_runtime "$log" || exit 1

# The unit tests include GPU tests; GoogleTest may be missing here.
unit_tests="not built (GoogleTest not found)"
if [[ -x $build/unittests/TileRuntimeTests ]]; then
  echo "run-bench: running the runtime's unit tests" >&2
  if "$build/unittests/TileRuntimeTests" --gtest_brief=1 >>"$log" 2>&1; then
    unit_tests="passed"
  else
    unit_tests="FAILED (see $(basename "$log"))"
  fi
  counts=$(grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?[.,]' "$log" |
    sed -e 's/^\[ *\([A-Z]*\) *\] \([0-9]*\) tests\{0,1\}.*/\2 \1/' |
    tr 'A-Z' 'a-z' | paste -sd ',' - | sed 's/,/, /g')
  unit_tests="$unit_tests${counts:+ ($counts)}"
fi

gpu="unknown (nvidia-smi not found)"
driver="unknown"
if command -v nvidia-smi >/dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null |
    head -n 1)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader \
    2>/dev/null | head -n 1)
fi
nvcc="not found"
for candidate in "$(command -v nvcc 2>/dev/null)" "$cuda_home/bin/nvcc"; do
  if [[ -n $candidate && -x $candidate ]]; then
    nvcc=$("$candidate" --version | tail -n 2 | paste -sd ' ' -)
    break
  fi
done

echo "run-bench: tile-run verify $artifacts" >&2
# shellcheck disable=SC2086
verify_output=$("$tile_run" verify ${TILE_VERIFY_ARGS:-} "$artifacts" 2>>"$log")
verify_status=$?

echo "run-bench: tile-run bench $artifacts ${bench_args[*]}" >&2
bench_output=$("$tile_run" bench "$artifacts" --json "$base.json" \
  --csv "$base.csv" "${bench_args[@]}" 2> >(tee -a "$log" >&2))
bench_status=$?

# The table and its notes: everything from the first table line on.
table=$(printf '%s\n' "$bench_output" | sed -n '/^| kernel /,$p')
bench_header=$(printf '%s\n' "$bench_output" | sed '/^| kernel /,$d')

{
  echo "# tile-opt kernels on $gpu, $day"
  echo
  echo "- date: $stamp"
  echo "- command: \`$command_line\`"
  echo "- host: $(hostname)"
  echo "- GPU: $gpu"
  echo "- driver: $driver"
  echo "- nvcc: $nvcc"
  echo "- runtime unit tests: $unit_tests"
  echo "- files: $(basename "$base").json, $(basename "$base").csv," \
    "$(basename "$base").log"
  echo
  echo "## verify (exit status $verify_status)"
  echo
  echo '```'
  printf '%s\n' "$verify_output"
  echo '```'
  echo
  echo "## bench (exit status $bench_status)"
  echo
  echo '```'
  printf '%s\n' "$bench_header" | sed '/^$/d'
  echo '```'
  echo
  printf '%s\n' "$table"
} >"$report"

echo >&2
echo "run-bench: report in $report" >&2
printf '%s\n' "$verify_output" | tail -n 1 >&2
echo >&2
printf '%s\n' "$table"

if [[ $verify_status -ne 0 || $bench_status -ne 0 ]]; then
  exit 1
fi
exit 0
