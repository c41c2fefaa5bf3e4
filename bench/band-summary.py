#!/usr/bin/env python3
"""Per size band: geomean of our speed over cuBLAS's, and predicted against
measured time per kernel, from a tile-run bench JSON.

  bench/band-summary.py RESULTS.json [--predicted DIR/predicted.tsv]
      [--markdown FILE]

Bands by 2*M*N*K flop: < 1e7, 1e7-1e9, 1e9-1e10, >= 1e10 (random-shapes.py's).
The ratio is cuBLAS time / ours (above 1: faster than cuBLAS). With
--predicted (tile-tune predict's lines: KERNEL M N K PREDICTED_MS), each
kernel's predicted time is set next to its measured one, and the share of
kernels within 20% is printed. Needs only the Python standard library (it
runs on the GPU machine too).
"""
import argparse
import json
import math

BANDS = [(0, 1e7, "< 1e7"), (1e7, 1e9, "1e7-1e9"), (1e9, 1e10, "1e9-1e10"),
         (1e10, float("inf"), ">= 1e10")]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("results")
    p.add_argument("--predicted")
    p.add_argument("--markdown")
    args = p.parse_args()
    with open(args.results) as f:
        runs = [r for r in json.load(f)["results"] if r.get("ok") and r.get("ms")]
    predicted = {}
    if args.predicted:
        with open(args.predicted) as f:
            for line in f:
                fields = line.split()
                if len(fields) == 5:
                    predicted[fields[0]] = float(fields[4])
    lines = ["| kernel | M | N | K | flop band | config | ms | cuBLAS ms | ratio | "
             "predicted ms | predicted / measured |",
             "|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|"]
    bands = {label: [] for _, _, label in BANDS}
    close = total = 0
    # A batched kernel's flop count every matrix (its band is the whole
    # launch's, as bench/random-shapes.py draws them).
    def flops(r):
        return 2.0 * r.get("batch", 1) * r["m"] * r["n"] * r["k"]
    for r in sorted(runs, key=flops):
        flop = flops(r)
        label = next(l for lo, hi, l in BANDS if lo <= flop < hi)
        ratio = r.get("ratio") or (r["cublas_ms"] / r["ms"] if r.get("cublas_ms") else None)
        if ratio:
            bands[label].append(ratio)
        pred = predicted.get(r["kernel"].removesuffix(".json"))
        if pred is None:
            pred = predicted.get(r["kernel"])
        share = ""
        if pred is not None:
            total += 1
            close += 0.8 <= pred / r["ms"] <= 1.2
            share = f"{pred / r['ms']:.2f}"
        lines.append(f"| {r['kernel']} | {r['m']} | {r['n']} | {r['k']} | {label} | "
                     f"{r.get('config', '')} | {r['ms']:.4f} | "
                     f"{r.get('cublas_ms', float('nan')):.4f} | "
                     f"{ratio if ratio else float('nan'):.2f} | "
                     f"{'' if pred is None else f'{pred:.4f}'} | {share} |")
    summary = ["", "| flop band | kernels | geomean vs cuBLAS | min | below 0.8x |",
               "|---|---:|---:|---:|---:|"]
    for _, _, label in BANDS:
        v = bands[label]
        summary.append(f"| {label} | {len(v)} | {geomean(v):.3f} | "
                       f"{min(v) if v else float('nan'):.2f} | {sum(x < 0.8 for x in v)} |")
    everything = [x for v in bands.values() for x in v]
    summary.append(f"| all | {len(everything)} | {geomean(everything):.3f} | "
                   f"{min(everything) if everything else float('nan'):.2f} | "
                   f"{sum(x < 0.8 for x in everything)} |")
    if total:
        summary.append("")
        summary.append(f"predicted within 20% of measured: {close} of {total} kernels")
    text = "\n".join(lines + summary) + "\n"
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
