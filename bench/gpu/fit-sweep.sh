#!/usr/bin/env bash
# Times the fit set (bench/fit-compile.sh) on the GPU machine, for
# `tile-tune fit` back here.
#
#   bench/gpu/fit-sweep.sh [ARTIFACT_DIR] [OUT_DIR] [PART/PARTS]
#
# Run from the repository root with ARTIFACT_DIR (default
# bench/artifacts/fit) carried. Through bench/gpu/run-bench.sh: builds the
# runtime, verifies every kernel against a float64 reference (cuBLAS DGEMM on
# the GPU, so that the host reference does not take the time) and times it
# with cuBLAS SGEMM in the same run (event medians of 20 launches after 5
# warm-ups, L2 rotated). OUT_DIR (default $OUT when set, else /tmp/fit-sweep)
# gets run-bench.sh's .md, .json, .csv and .log. With PART/PARTS (e.g. 1/2)
# only that share of the shapes is run (every candidate of a shape in the
# same part), for runs that must stay under a time limit. Prints the band
# summary (bench/band-summary.py) last, when python3 is there.
set -uo pipefail
artifacts=${1:-bench/artifacts/fit}
out=${2:-${OUT:-/tmp/fit-sweep}}
part=${3:-1/1}
[[ -d $artifacts ]] || { echo "fit-sweep: no $artifacts (run bench/fit-compile.sh here and carry it)" >&2; exit 2; }
index=${part%/*} parts=${part#*/}
dir=$artifacts
if [[ $parts -gt 1 ]]; then
  dir=/tmp/fit-part
  rm -rf "$dir" && mkdir -p "$dir"
  # fitNNN_bB_cI_matmul0.*: shape NNN goes to part NNN % PARTS + 1.
  for manifest in "$artifacts"/*.json; do
    base=$(basename "$manifest" .json)
    number=${base#fit}
    number=$((10#${number%%_*}))
    if (( number % parts + 1 == index )); then
      cp "$artifacts/$base".* "$dir"/
    fi
  done
fi
start=$(date +%s)
TILE_VERIFY_ARGS="--reference cublas" \
  bench/gpu/run-bench.sh "$dir" "$out" --warmup 5 --iters 20 >/dev/null
status=$?
echo "fit-sweep: $(ls "$dir"/*.json | wc -l) kernels, $(( $(date +%s) - start )) s, results in $out" >&2
json=$(ls -t "$out"/[0-9]*-*.json 2>/dev/null | head -n 1)
if [[ -n $json ]] && command -v python3 >/dev/null; then
  python3 bench/band-summary.py "$json" | sed -n '/^| flop band/,$p'
fi
exit $status
