#!/usr/bin/env bash
# Strided operands on the GPU machine: verifies every kernel compiled from
# bench/strided.txt, runs a sample under compute-sanitizer's memcheck, runs
# a sample from PyTorch (tensors with the manifests' strides, through the
# tile_opt module, which passes each matrix's address minus its offset),
# and times the dense/strided pairs (p*, q*) against cuBLAS (the same
# leading dimensions and pointers), printing them as a table last. (Timing
# all 86 kernels as well takes more than the device's 600 s per call.)
#
#   bench/gpu/strided.sh ARTIFACT_DIR
#
# Run from the repository root. The artifacts are compiled on the
# development machine (MLIR is not here):
#   bench/compile.sh bench/strided.txt bench/artifacts/strided
# and the tree is sent with bench/artifacts/strided and bench/carry/include
# (nlohmann-json, see run-bench.sh). Environment: TILE_RT_BUILD (default
# /tmp/tile-rt), OUT (a folder for the bench CSV). Exit status 1 when a
# kernel fails to verify or is dirty under memcheck.
set -uo pipefail
[[ $# -eq 1 ]] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
artifacts=$1
build=${TILE_RT_BUILD:-/tmp/tile-rt}
out=${OUT:-/tmp}
status=0

echo "== verify (every kernel, fresh random inputs, cuBLAS DGEMM reference)"
verify=$(bench/gpu/verify-each.sh "$artifacts" 120 --reference cublas 2>&1) || status=1
printf '%s\n' "$verify" | grep -v '  PASS  ' || true
printf '%s\n' "$verify" | tail -n 1

echo "== memcheck (a sample of small kernels: f32 with each layout, batched, bf16/f16)"
sample=()
for name in $(ls "$artifacts" | sed -n 's/^\(s[fbhg]0[0-9][0-9]_b[01]\)_matmul0.json$/\1/p' | sort -V | awk 'NR % 3 == 1'); do
  sample+=("$artifacts/${name}_matmul0.json")
done
memcheck=$(bench/gpu/sanitize.sh memcheck 120 "${sample[@]}" 2>&1) || status=1
printf '%s\n' "$memcheck" | tail -n $(( ${#sample[@]} + 1 ))

echo "== PyTorch (strided tensors through the tile_opt module)"
py=$(mktemp -d)
for name in sf004_b1 sh006_b1 pw2048; do
  cp "$artifacts/${name}_matmul0".* "$py/" 2>/dev/null
done
python=$(bench/gpu/python-check.sh "$py" 120 2>&1) || status=1
printf '%s\n' "$python" | tail -n 8

echo "== bench (the pairs; cuBLAS with the same leading dimensions)"
csv=$out/strided-bench.csv
"$build/bin/tile-run" bench $(ls "$artifacts"/[pq]*.json | sort -V) --csv "$csv" \
  >/dev/null 2>"$csv.log" || { status=1; tail -n 20 "$csv.log"; }

echo
echo "verify: $(printf '%s\n' "$verify" | tail -n 1)"
python3 - "$csv" <<'PY'
import csv, math, sys
rows = {r["kernel"].removesuffix("_matmul0"): r for r in csv.DictReader(open(sys.argv[1]))}
print("| kernel | MxNxK | types | config | ms | vs dense | cuBLAS ms | vs cuBLAS |")
print("|---|---|---|---|---|---|---|---|")
dense = {"ps4096": "pd4096", "pu4096": "pd4096", "pw2048": "pd2048",
         "qs4096": "qd4096", "qu4096": "qd4096", "qslin": "qdlin"}
for name, r in rows.items():
    if not name.startswith(("p", "q")):
        continue
    base = rows.get(dense.get(name, ""))
    vs = float(base["ms"]) / float(r["ms"]) if base and float(r["ms"]) > 0 else None
    print("| {} | {}x{}x{} | {}->{} | {} | {:.3f} | {} | {:.3f} | {:.2f}x |".format(
        name, r["m"], r["n"], r["k"], r["element_type"], r["result_type"],
        r.get("config", ""), float(r["ms"]), "{:.2f}x".format(vs) if vs else "-",
        float(r["cublas_ms"]), float(r["ratio"])))
PY
exit $status
