#!/usr/bin/env python3
"""Per shape of a tuning run: the cost model's own pick (NAME_m) against the
fastest measured candidate (NAME_cN), each the mean of the rounds' medians,
and both against cuBLAS; then each persistent candidate against the same
config launched one block per tile.

  bench/tune-summary.py RUN1.json|csv [RUN2.json|csv ...]

Kernel names as bench/gpu/wgmma-tune.sh runs them: SHAPE_cN_matmul0 and
SHAPE_m_matmul0. Prints Markdown tables.
"""
import csv
import json
import math
import re
import sys


def load(path):
    if path.endswith(".csv"):
        rows = list(csv.DictReader(open(path)))
        for r in rows:
            r["ok"] = r["ok"] == "1"
            for key in ("ms", "cublas_ms", "m", "n", "k"):
                r[key] = float(r[key]) if r[key] else float("nan")
    else:
        rows = json.load(open(path))["results"]
    return {r["kernel"]: r for r in rows if r.get("ok")}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = [load(p) for p in sys.argv[1:]]
    kernels = [k for k in runs[0] if all(k in run for run in runs)]
    mean = lambda k, key: sum(run[k][key] for run in runs) / len(runs)
    shapes = {}
    for k in kernels:
        shape = re.sub(r"_(c\d+|m)_matmul\d+$", "", k)
        shapes.setdefault(shape, []).append(k)
    print("| shape | MxNxK | types | model's pick | ms | vs cuBLAS | fastest candidate | ms | vs cuBLAS | model / fastest |")
    print("|---|---|---|---|---:|---:|---|---:|---:|---:|")
    shares = []
    for shape, ks in shapes.items():
        model = [k for k in ks if re.search(r"_m_matmul\d+$", k)]
        if not model:
            continue
        model = model[0]
        best = min(ks, key=lambda k: mean(k, "ms"))
        r = runs[0][model]
        share = mean(best, "ms") / mean(model, "ms")
        shares.append(share)
        print(f"| {shape} | {int(r['m'])}x{int(r['n'])}x{int(r['k'])} | "
              f"{r.get('element_type', 'f32')} -> {r.get('result_type', 'f32')} | "
              f"{r['config']} | {mean(model, 'ms'):.4f} | "
              f"{mean(model, 'cublas_ms') / mean(model, 'ms'):.2f} | "
              f"{runs[0][best]['config']} | {mean(best, 'ms'):.4f} | "
              f"{mean(best, 'cublas_ms') / mean(best, 'ms'):.2f} | {share:.3f} |")
    if shares:
        print(f"\nmodel / fastest: geomean {math.exp(sum(map(math.log, shares)) / len(shares)):.3f}, "
              f"min {min(shares):.3f}, {len(shares)} shapes, {len(runs)} rounds\n")
    print("| shape | config | one block per tile, ms | persistent, ms | persistent speed-up |")
    print("|---|---|---:|---:|---:|")
    for shape, ks in shapes.items():
        by_config = {runs[0][k]["config"]: k for k in ks}
        for config, k in sorted(by_config.items()):
            if "/p/" not in config and not config.endswith("/p"):
                continue
            base = config.replace("/p/", "/").removesuffix("/p")
            if base in by_config:
                b = by_config[base]
                print(f"| {shape} | {base} | {mean(b, 'ms'):.4f} | {mean(k, 'ms'):.4f} | "
                      f"{mean(b, 'ms') / mean(k, 'ms'):.3f} |")


if __name__ == "__main__":
    main()
