#!/usr/bin/env bash
# The main job: installs what is missing, builds, compiles the example
# matmul (examples/matmul.mlir, or the .mlir files given) to PTX/cubin with
# manifests in out/, prints the kernel report, and, where a GPU is present,
# runs each kernel with tile-run verify (random inputs, float64 reference).
#
#   scripts/run.sh [FILE.mlir...]
#
# Environment: TILE_OUT (output folder, default out/), TILE_OPTIONS (extra
# tile-matmul-to-ptx options, e.g. "block=128,128,8 stages=1").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILE_BUILD_DIR:-$root/build}
out=${TILE_OUT:-$root/out}

"$root/scripts/build.sh"
inputs=("$@")
[[ ${#inputs[@]} -gt 0 ]] || inputs=("$root/examples/matmul.mlir")

mkdir -p "$out"
for input in "${inputs[@]}"; do
  echo
  echo "== tile-opt $input --tile-matmul-to-ptx=\"output-dir=$out report=true ${TILE_OPTIONS:-}\""
  "$build/bin/tile-opt" "$input" -o "$out/$(basename "${input%.mlir}").lowered.mlir" \
    --tile-matmul-to-ptx="output-dir=$out report=true ${TILE_OPTIONS:-}"
done

echo
echo "== produced in $out"
ls -l "$out"
echo
"$build/bin/tile-run" info "$out"

echo
err=$(mktemp)
trap 'rm -f "$err"' EXIT
if "$build/bin/tile-run" verify "$out" 2>"$err"; then
  echo "run: every kernel verified on the GPU"
else
  status=$?
  if [[ $status -eq 3 ]]; then
    # tile-run's exit status for "no NVIDIA driver or GPU".
    echo "skipped: no GPU ($(head -n 1 "$err"))"
    echo "run: compiled only; on a machine with an NVIDIA GPU this step runs"
    echo "     tile-run verify $out"
  else
    cat "$err" >&2
    echo "run: verification FAILED" >&2
    exit $status
  fi
fi
