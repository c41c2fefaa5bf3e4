#!/usr/bin/env bash
# Where the warps of a kernel wait, instruction by instruction: Nsight
# Compute's warp-state sampling for one launch of each kernel and of the
# cuBLAS kernel on the first artifact's shape, exported as the SASS source
# page (one CSV row per instruction with its stall samples by reason).
#
#   bench/gpu/stall-sites.sh OUT_DIR ARTIFACT.json...
#
# Run from the repository root on the GPU machine. Writes
# OUT_DIR/<kernel>.sass.csv and OUT_DIR/cublas.sass.csv; summarize them
# with bench/stall-sites.py.
set -uo pipefail
[[ $# -ge 2 ]] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
source bench/gpu/build-runtime.sh
build_runtime "$build.log" tile-run || exit 1
command -v ncu >/dev/null || { echo "stall-sites: no ncu" >&2; exit 1; }

sample() { # name kernel-filter manifest [tile-run options...]
  local name=$1 filter=$2 manifest=$3
  shift 3
  local rep=/tmp/stall-$name
  ncu --clock-control none --kernel-name "$filter" --launch-skip 3 \
    --launch-count 1 --section SourceCounters --section WarpStateStats \
    --import-source no -f -o "$rep" "$tile_run" bench "$@" \
    --warmup 2 --iters 20 "$manifest" >"$out/$name.ncu.log" 2>&1 ||
    { echo "stall-sites: ncu failed for $name" >&2; tail -5 "$out/$name.ncu.log" >&2; return; }
  ncu --import "$rep.ncu-rep" --page source --print-source sass --csv \
    >"$out/$name.sass.csv" 2>>"$out/$name.ncu.log" ||
    echo "stall-sites: export failed for $name" >&2
  echo "$name: $(wc -l <"$out/$name.sass.csv") rows"
}
for manifest in "$@"; do
  kernel=$(basename "$manifest" .json)
  sample "$kernel" "$kernel" "$manifest" --no-cublas
done
sample cublas regex:gemm "$1"
