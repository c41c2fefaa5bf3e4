#!/usr/bin/env bash
# Checks the tile_opt Python module on the GPU machine: builds the runtime's
# shared library (no MLIR), runs the module's CPU tests when the stand-in
# driver was built (GoogleTest present), then runs every kernel of an
# artifact folder on PyTorch tensors with examples/python/matmul_torch.py,
# checked against torch.matmul.
#
#   bench/gpu/python-check.sh ARTIFACT_DIR [SECONDS] [matmul_torch.py options...]
#
# Run from the repository root. ARTIFACT_DIR holds manifests compiled where
# MLIR is, e.g. bench/compile.sh bench/python-shapes.txt bench/artifacts/py
# (carried over with bench/carry/ as docs/benchmarking.md says). The runtime
# builds into TILE_RT_BUILD (default /tmp/tile-rt) like run-bench.sh. Needs
# python3 with PyTorch built for CUDA. Each kernel runs in its own process
# under a time limit (default 120 s). Prints one line per kernel and a last
# line "N passed, N failed" (the module tests count as one failure when
# they fail); exit status 1 when any failed, 2 when the runtime does not
# build or PyTorch is missing.
set -uo pipefail
[[ $# -ge 1 ]] || { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
artifacts=$1
limit=${2:-120}
shift $(( $# >= 2 ? 2 : 1 ))
build=${TILE_RT_BUILD:-/tmp/tile-rt}
python=${PYTHON:-python3}

if [[ ! -f $build/build.ninja ]]; then
  json_include=""
  [[ -d bench/carry/include/nlohmann ]] && json_include="$PWD/bench/carry/include"
  cmake -S runtime -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTILE_NLOHMANN_JSON_INCLUDE_DIR="$json_include" >/dev/null ||
    { echo "python-check: configuring the runtime failed" >&2; exit 2; }
fi
targets=(tile_runtime)
# The stand-in driver exists only where GoogleTest was found.
ninja -C "$build" -t targets all 2>/dev/null | grep -q '^TileFakeCudaDriver:' &&
  targets+=(TileFakeCudaDriver)
ninja -C "$build" "${targets[@]}" >/dev/null ||
  { echo "python-check: building the runtime failed" >&2; exit 2; }
export TILE_RUNTIME_LIBRARY=$build/libtile_runtime.so
echo "runtime library: $TILE_RUNTIME_LIBRARY"

passed=0 failed=0
fake=$(find "$build" -name libTileFakeCudaDriver.so | head -n 1)
if [[ -n $fake ]]; then
  if PYTHONPATH=python TILE_FAKE_CUDA_DRIVER=$fake \
     "$python" -m unittest discover -s python/tests >/tmp/tile-python-unittest.log 2>&1; then
    echo "module tests (no GPU): $(grep '^Ran ' /tmp/tile-python-unittest.log), OK"
  else
    echo "module tests (no GPU): FAILED (/tmp/tile-python-unittest.log):"
    tail -n 20 /tmp/tile-python-unittest.log
    failed=$((failed + 1))
  fi
else
  echo "module tests (no GPU): skipped (no stand-in driver: GoogleTest missing)"
fi

"$python" -c "import torch, sys; print('PyTorch', torch.__version__, 'CUDA', torch.version.cuda); sys.exit(0 if torch.cuda.is_available() else 1)" ||
  { echo "python-check: PyTorch with CUDA is missing for $python" >&2; exit 2; }

for manifest in $(ls "$artifacts"/*.json | sort -V); do
  output=$(timeout "$limit" "$python" examples/python/matmul_torch.py "$@" "$manifest" 2>&1)
  status=$?
  line=$(printf '%s\n' "$output" | grep -v ' passed, ' | tail -n 1)
  if [[ $status -eq 0 ]]; then
    passed=$((passed + 1))
    echo "$line"
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
