#!/usr/bin/env bash
# Transposed operands on the GPU machine: verifies every kernel compiled
# from bench/forms-shapes.txt (or bench/forms-wgmma-ta-shapes.txt), runs a
# sample under compute-sanitizer's memcheck, and times the bench pairs
# (each transposed kernel against the row-major kernel of the same shape,
# both against cuBLAS with the same transposes), printing a short table
# last.
#
#   bench/gpu/forms.sh ARTIFACT_DIR
#
# Run from the repository root. The artifacts are compiled on the
# development machine (MLIR is not here):
#   bench/compile.sh bench/forms-shapes.txt bench/artifacts/forms
# and the tree is sent with the artifact folder and bench/carry/include
# (nlohmann-json, see run-bench.sh). Environment: TILE_RT_BUILD (default
# /tmp/tile-rt), CUDA_HOME. Exit status 1 when a kernel fails to verify or
# is dirty under memcheck.
set -uo pipefail
[[ $# -eq 1 ]] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
artifacts=$1
build=${TILE_RT_BUILD:-/tmp/tile-rt}
status=0

echo "== verify (every kernel, fresh random inputs, float64 reference)"
verify=$(bench/gpu/verify-each.sh "$artifacts" 60 2>&1) || status=1
printf '%s\n' "$verify"

echo "== memcheck (a sample: edges, cp.async, split-K, registers, TMA)"
sample=()
for name in v_nt_37x41x23 v_tn_257x263x129 v_tt_cp v_nt_sk v_tn_cp \
            w_nt_7x13x33 w_nt_300x520x200 w_nt_1000 w_nt_1024regs \
            w_nt_257x263x129 w_tn_2x3x5 w_tn_300x520x200 w_tt_257x263x129 \
            w_tn_1024regs w_tt_1024regs w_tn_sk w_tn_b4 w_tt_b3 \
            r_tn_91x294x187 r_tt_854x892x610; do
  [[ -f $artifacts/${name}_matmul0.json ]] && sample+=("$artifacts/${name}_matmul0.json")
done
memcheck=$(bench/gpu/sanitize.sh memcheck 120 "${sample[@]}" 2>&1) || status=1
printf '%s\n' "$memcheck"

echo "== bench (the b_* pairs; cuBLAS with the same transposes)"
pairs=$(ls "$artifacts"/b_*_matmul0.json | sort -V)
csv=$(mktemp)
"$build/bin/tile-run" bench $pairs --csv "$csv" >/dev/null 2>"$csv.log" ||
  { status=1; tail -n 20 "$csv.log"; }

echo
echo "verify: $(printf '%s\n' "$verify" | tail -n 1); memcheck: $(printf '%s\n' "$memcheck" | tail -n 1)"
python3 - "$csv" <<'PY'
import csv, sys
rows = {r["kernel"].removesuffix("_matmul0"): r for r in csv.DictReader(open(sys.argv[1]))}
print("| kernel | MxNxK | types | ms | vs nn kernel | cuBLAS ms | vs cuBLAS | cuBLAS call |")
print("|---|---|---|---|---|---|---|---|")
for name, r in rows.items():
    _, layout, rest = name.split("_", 2)
    base = rows.get("b_nn_" + rest)
    vs = float(base["ms"]) / float(r["ms"]) if base and layout != "nn" and float(r["ms"]) > 0 else None
    print("| {} | {}x{}x{} | {}->{} | {:.3f} | {} | {:.3f} | {:.2f}x | {} |".format(
        name, r["m"], r["n"], r["k"], r["element_type"], r["result_type"], float(r["ms"]),
        "{:.2f}x".format(vs) if vs else "-", float(r["cublas_ms"]), float(r["ratio"]),
        r["cublas_call"]))
PY
exit $status
