#!/usr/bin/env bash
# Compiles the validation set with the default pipeline (here; then
# bench/gpu/validate.sh on the GPU machine).
#
#   [SEED=N] [EXTRA='tile-matmul-to-ptx options'] bench/validate-compile.sh [OUT_DIR] [COUNT]
#
# Draws COUNT shapes per size band (default 25: 100 shapes; bands by flop,
# < 1e7, 1e7-1e9, 1e9-1e10, >= 1e10) from seed 12002 (the fit set is seed
# 12001), every extent log-uniform in 1..8192, and compiles each with the
# default pipeline (built-in tuning table and cost model) into OUT_DIR
# (default bench/artifacts/validate), niced. OUT_DIR/predicted.tsv holds
# the model's predicted time per kernel (tile-tune predict), which
# validate.sh sets next to the measured one. SEED draws another set (a
# second held-out sample); EXTRA is appended to every shape line (e.g.
# tuning-table=FILE, to compile the same set under another calibration).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-bench/artifacts/validate}
count=${2:-25}
seed=${SEED:-12002}
[[ -x build/bin/tile-tune && -x build/bin/tile-opt ]] ||
  { echo "validate-compile: build tile-opt and tile-tune first" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
python3 bench/random-shapes.py --seed "$seed" --count "$count" --prefix val |
  sed "/^[a-z]/s|\$| ${EXTRA:-}|" >"$out/shapes.txt"
nice -n 10 bench/compile.sh "$out/shapes.txt" "$out"
status=$?
rm -f "$out"/*.mlir
build/bin/tile-tune predict "$out" >"$out/predicted.tsv" || status=1
echo "validate-compile: $(ls "$out"/*.json | wc -l) kernels in $out," \
  "$(du -sh "$out" | cut -f1)" >&2
exit $status
