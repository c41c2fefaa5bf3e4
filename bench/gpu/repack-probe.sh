#!/usr/bin/env bash
# Rows off 16 bytes (f32) and off the TMA's 128-byte lines (bf16/f16): the
# kernel on the operands in place against the same shape on padded rows.
#   bench/gpu/repack-probe.sh PAD_DIR LINES_DIR OUT
# PAD_DIR: bench/compile.sh of a list of NAME_i (in place), NAME_b (B's rows
# padded to 4 elements: pad=0,PB,0) and NAME_ab (A's and B's) lines;
# LINES_DIR: bf16/f16 shapes, the model's config in place and repack=true.
# Times every kernel against cuBLAS in one tile-run bench run per folder,
# verifies every kernel (float64 reference by cuBLAS DGEMM), and times the
# copy that pads an operand's rows (bench/probe/repack-copy.cu) for every
# padded operand of PAD_DIR. Writes OUT/{pad,lines}.{json,csv,txt},
# OUT/*-verify.txt and OUT/repack-copy.txt.
set -uo pipefail
[[ $# -eq 3 ]] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
pad=$1 lines=$2 out=$3
build=${TILE_RT_BUILD:-/tmp/tile-rt}
mkdir -p "$out"
status=0
for set in pad lines; do
  dir=$pad; [[ $set == lines ]] && dir=$lines
  "$build/bin/tile-run" bench "$dir" --iters 20 --json "$out/$set.json" \
    --csv "$out/$set.csv" >"$out/$set.txt" 2>"$out/$set.log" || status=1
  "$build/bin/tile-run" verify --reference cublas "$dir" \
    >"$out/$set-verify.txt" 2>>"$out/$set.log" || status=1
  echo "$set: $(grep -c PASS "$out/$set-verify.txt") PASS"
  grep -v PASS "$out/$set-verify.txt" | head -5
done
nvcc -O2 -o /tmp/repack-copy bench/probe/repack-copy.cu || status=1
# Every padded operand's stored matrix: A (M x K) of NAME_ab, B (K x N).
sizes=$(python3 - "$pad" <<'PY'
import json, glob, os, sys
seen = set()
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*_ab_matmul0.json"))):
    p = json.load(open(f))["problem"]
    m, n, k = p["m"], p["n"], p["k"]
    for rows, cols in ((m, k), (k, n)):
        if cols % 4 and (rows, cols) not in seen:
            seen.add((rows, cols))
            print(rows, cols)
PY
)
# shellcheck disable=SC2086
/tmp/repack-copy $sizes >"$out/repack-copy.txt" || status=1
wc -l <"$out/repack-copy.txt"
exit $status
