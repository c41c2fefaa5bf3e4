#!/usr/bin/env bash
# Times the validation set (bench/validate-compile.sh: seed 12002, the
# default pipeline) on the GPU machine and prints, per flop band, the
# geomean against cuBLAS, and per kernel the model's predicted time against
# the measured one.
#
#   bench/gpu/validate.sh [ARTIFACT_DIR] [OUT_DIR]
#
# Run from the repository root with ARTIFACT_DIR (default
# bench/artifacts/validate, with its predicted.tsv) carried. Through
# bench/gpu/run-bench.sh: builds the runtime, verifies every kernel against
# a float64 reference (host, or cuBLAS DGEMM for large problems), times it
# and cuBLAS SGEMM in the same run (event medians of 30 launches after 10
# warm-ups, L2 rotated). OUT_DIR (default $OUT when set, else /tmp/validate)
# gets run-bench.sh's files and summary.md (bench/band-summary.py), whose
# band table is printed last.
set -uo pipefail
artifacts=${1:-bench/artifacts/validate}
out=${2:-${OUT:-/tmp/validate}}
[[ -d $artifacts ]] || { echo "validate: no $artifacts (run bench/validate-compile.sh here and carry it)" >&2; exit 2; }
start=$(date +%s)
bench/gpu/run-bench.sh "$artifacts" "$out" --iters 30 >/dev/null
status=$?
echo "validate: $(ls "$artifacts"/*.json | wc -l) kernels, $(( $(date +%s) - start )) s, results in $out" >&2
json=$(ls -t "$out"/[0-9]*-*.json 2>/dev/null | head -n 1)
if [[ -z $json ]]; then
  echo "validate: no results" >&2
  exit 1
fi
predicted=()
[[ -f $artifacts/predicted.tsv ]] && predicted=(--predicted "$artifacts/predicted.tsv")
if command -v python3 >/dev/null; then
  python3 bench/band-summary.py "$json" "${predicted[@]}" --markdown "$out/summary.md" |
    sed -n '/^| flop band/,$p'
else
  echo "validate: no python3 here; run bench/band-summary.py $json ${predicted[*]} on the results" >&2
fi
exit $status
