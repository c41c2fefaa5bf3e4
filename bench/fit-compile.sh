#!/usr/bin/env bash
# Compiles the fit set for `tile-tune fit` (here, where MLIR is; then
# bench/gpu/fit-sweep.sh on the GPU machine).
#
#   bench/fit-compile.sh [OUT_DIR] [COUNT] [TOP]
#
# Draws COUNT shapes (default 300) from seed 12001, every extent log-uniform
# in 1..8192 (bench/random-shapes.py --total; the validation set is seed
# 12002, bench/validate-compile.sh), and compiles the cost model's TOP
# (default 3) best-ranked configs of each (tile-tune candidates --top TOP
# --ranked-only: one per block and thread tile, no baselines) into OUT_DIR
# (default bench/artifacts/fit), niced. The shape and candidate lists are
# kept in OUT_DIR as shapes.txt and candidates.txt (not .json: tile-run
# reads every .json of the folder as a manifest). A kernel whose compile
# fails is reported and left out; the others are still compiled.
# Environment (bench/explore-compile.sh sets both): MIN_FLOP keeps only the
# shapes with 2*M*N*K >= MIN_FLOP (default 0: all); RANKED_ONLY=0 adds
# tile-tune's baselines and occupancy variants to the ranked configs.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-bench/artifacts/fit}
count=${2:-300}
top=${3:-3}
seed=12001
[[ -x build/bin/tile-tune && -x build/bin/tile-opt ]] ||
  { echo "fit-compile: build tile-opt and tile-tune first" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
min_flop=${MIN_FLOP:-0}
ranked=(--ranked-only)
[[ ${RANKED_ONLY:-1} == 0 ]] && ranked=()
python3 bench/random-shapes.py --seed "$seed" --total "$count" --prefix fit |
  awk -v min="$min_flop" '/^#/ || 2 * $2 * $3 * $4 >= min + 0' \
  >"$out/shapes.txt"
build/bin/tile-tune candidates --top "$top" "${ranked[@]}" "$out/shapes.txt" \
  >"$out/candidates.txt"
start=$(date +%s)
nice -n 10 bench/compile.sh "$out/candidates.txt" "$out"
status=$?
rm -f "$out"/*.mlir
echo "fit-compile: $(ls "$out"/*.json | wc -l) kernels of" \
  "$(grep -vc '^#' "$out/candidates.txt") candidates in $out," \
  "$(du -sh "$out" | cut -f1), $(( $(date +%s) - start )) s" >&2
exit $status
