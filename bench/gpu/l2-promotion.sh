#!/usr/bin/env bash
# Times the same kernels with two L2 promotions in their tensor maps, on the
# GPU machine: DIR/p128 (as tile-opt writes them) and DIR/p256 (the same
# binaries, manifests edited to "256B"). tile-run verify on DIR/p128, then
# tile-run bench on both, two rounds each, alternating, cuBLAS in every
# run; prints per kernel the medians and the ratio 256B / 128B time.
#
#   bench/gpu/l2-promotion.sh DIR OUT
set -uo pipefail
[[ $# -eq 2 ]] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 out=$2
mkdir -p "$out"
run=${TILE_RT_BUILD:-/tmp/tile-rt}/bin/tile-run
"$run" verify --seed 20261242 "$dir"/p128/*.json > "$out/verify.txt" 2>&1
echo "verify: exit $? ($(grep -c ' PASS ' "$out/verify.txt") PASS, $(grep -c ' FAIL ' "$out/verify.txt") FAIL)"
for round in 1 2; do
  for p in p128 p256; do
    "$run" bench --csv "$out/$p-$round.csv" "$dir/$p"/*.json > "$out/$p-$round.txt" 2>&1
    echo "bench $p round $round: exit $?"
  done
done
python3 - "$out" <<'PY'
import csv, sys, os, math
out = sys.argv[1]
def load(name):
    rows = {}
    with open(os.path.join(out, name)) as f:
        for r in csv.DictReader(f):
            rows[r["kernel"]] = r
    return rows
runs = {(p, r): load("%s-%d.csv" % (p, r)) for p in ("p128", "p256") for r in (1, 2)}
keys = sorted(runs[("p128", 1)])
ms_key = [k for k in runs[("p128", 1)][keys[0]] if k.strip() in ("ms", "time_ms")][0]
cub_key = [k for k in runs[("p128", 1)][keys[0]] if k.strip() in ("cublas_ms",)]
print("| kernel | shape | config | 128B ms (r1, r2) | 256B ms (r1, r2) | 256B/128B | cuBLAS ms | ratio 128B | ratio 256B |")
print("|---|---|---|---|---|---:|---:|---:|---:|")
logs = []
for k in keys:
    a = [float(runs[("p128", r)][k][ms_key]) for r in (1, 2)]
    b = [float(runs[("p256", r)][k][ms_key]) for r in (1, 2)]
    row = runs[("p128", 1)][k]
    cub = float(row[cub_key[0]]) if cub_key and row[cub_key[0]] else float("nan")
    q = min(b) / min(a)
    logs.append(math.log(q))
    print("| %s | %s | %s | %.4f, %.4f | %.4f, %.4f | %.3f | %.4f | %.2f | %.2f |" % (
        k, ("%s x " % row["batch"] if row.get("batch") not in (None, "", "1") else "") +
        "%sx%sx%s" % (row["m"], row["n"], row["k"]), row.get("config", ""), a[0], a[1], b[0], b[1], q, cub,
        cub / min(a), cub / min(b)))
print("geomean 256B/128B (min of rounds): %.3f over %d kernels" % (math.exp(sum(logs) / len(logs)), len(logs)))
PY
