#!/usr/bin/env bash
# Compiles the exploration set: the fit set's larger shapes (seed 12001, as
# bench/fit-compile.sh draws them) with many configs each, to see which
# config families win where the model's top few do not (then
# bench/gpu/fit-sweep.sh ARTIFACT_DIR OUT on the GPU machine).
#
#   bench/explore-compile.sh [OUT_DIR] [MIN_FLOP] [TOP]
#
# Shapes of the 300 with 2*M*N*K >= MIN_FLOP (default 2e8); per shape the
# cost model's TOP (default 30) best-ranked configs plus tile-tune's
# baselines and occupancy variants (tile-tune candidates without
# --ranked-only). OUT_DIR (default bench/artifacts/explore) gets the
# artifacts (carried to the GPU machine as an archive: 1936 kernels are
# 60 MB of cubins and manifests, 7 MB in tar.xz, more with their PTX), and
# shapes.txt, candidates.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-bench/artifacts/explore}
min_flop=${2:-2e8}
top=${3:-30}
[[ -x build/bin/tile-tune && -x build/bin/tile-opt ]] ||
  { echo "explore-compile: build tile-opt and tile-tune first" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
python3 bench/random-shapes.py --seed 12001 --total 300 --prefix fit |
  awk -v min="$min_flop" '/^#/ || 2 * $2 * $3 * $4 >= min + 0' >"$out/shapes.txt"
build/bin/tile-tune candidates --top "$top" "$out/shapes.txt" >"$out/candidates.txt"
start=$(date +%s)
nice -n 10 bench/compile.sh "$out/candidates.txt" "$out"
status=$?
rm -f "$out"/*.mlir
echo "explore-compile: $(ls "$out"/*.json | wc -l) kernels of" \
  "$(grep -vc '^#' "$out/candidates.txt") candidates in $out," \
  "$(du -sh "$out" | cut -f1), $(( $(date +%s) - start )) s" >&2
exit $status
