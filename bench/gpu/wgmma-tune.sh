#!/usr/bin/env bash
# The tensor-core tuning run on the GPU machine: every kernel of a folder of
# candidates (`tile-tune candidates` lines compiled by bench/compile.sh, each
# shape's cost-model pick beside them as NAME_m) timed against cuBLAS in one
# `tile-run bench` run, then the two fastest kernels of every shape and
# every NAME_m kernel verified against float64 (cuBLAS DGEMM reference).
# `tile-tune select` takes the fastest verified kernel per shape.
#
#   bench/gpu/wgmma-tune.sh DIR OUT NAME
#
# Writes OUT/NAME.json and OUT/NAME.csv (tile-run bench), OUT/NAME-bench.txt
# (its table) and OUT/NAME-verify.txt (the verify lines: select's --report).
set -uo pipefail
[[ $# -eq 3 ]] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 out=$2 name=$3
build=${TILE_RT_BUILD:-/tmp/tile-rt}
mkdir -p "$out"
status=0
"$build/bin/tile-run" bench "$dir" --iters 20 --json "$out/$name.json" \
  --csv "$out/$name.csv" >"$out/$name-bench.txt" 2>"$out/$name-bench.log" ||
  status=1
# The two fastest per shape (kernel names NAME_cN / NAME_m), and every _m.
picked=$(python3 - "$out/$name.json" <<'PY'
import json, re, sys
runs = json.load(open(sys.argv[1]))["results"]
shapes = {}
for r in runs:
    if not r.get("ok"):
        continue
    shape = re.sub(r"_(c\d+|m)_matmul\d+$", "", r["kernel"])
    shapes.setdefault(shape, []).append(r)
for shape, rs in shapes.items():
    rs.sort(key=lambda r: r["ms"])
    chosen = {r["manifest"] for r in rs[:2]}
    chosen |= {r["manifest"] for r in rs if re.search(r"_m_matmul\d+$", r["kernel"])}
    print("\n".join(sorted(chosen)))
PY
)
# shellcheck disable=SC2086
"$build/bin/tile-run" verify --reference cublas $picked \
  >"$out/$name-verify.txt" 2>>"$out/$name-bench.log" || status=1
grep -c PASS "$out/$name-verify.txt"
grep -v PASS "$out/$name-verify.txt" | head
exit $status
