#!/usr/bin/env python3
"""Summarizes tile-run bench JSON files into one markdown table per run.

    bench/summarize.py --final FINAL.json [--model MODEL.json] [--ablation ABL.json]
                       [--exclude REGEX]

FINAL: the default pipeline (tuning table + cost model); MODEL: the same
shapes compiled with tuning-table=none (cost model only); ABLATION: the
4096^3 ablation. Prints markdown on stdout.
"""
import argparse
import re
import json


def load(path):
    with open(path) as f:
        return json.load(f)


def shape(r):
    return "%dx%dx%d" % (r["m"], r["n"], r["k"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--final", required=True)
    parser.add_argument("--model")
    parser.add_argument("--ablation")
    parser.add_argument("--exclude", help="regex: FINAL kernels left out "
                        "of the table (e.g. examples, extra variants)")
    args = parser.parse_args()

    final = load(args.final)
    model = {}
    if args.model:
        for r in load(args.model)["results"]:
            model[(r.get("batch", 1), r["m"], r["n"], r["k"])] = r
    gpu = final["gpu"]
    print("GPU: %s, %d SMs, driver %s; cuBLAS %s (%s math); %d timed launches"
          " after %d warm-up, median." % (gpu["name"], gpu["sm_count"],
                                           gpu["driver_version"],
                                           final["cublas"]["version"],
                                           final["cublas"]["math_mode"],
                                           final["iters"], final["warmup"]))
    print()
    header = "| shape MxNxK | config (tuned default) | ms | TFLOP/s | cuBLAS TFLOP/s | vs cuBLAS |"
    rule = "|---|---|--:|--:|--:|--:|"
    if model:
        header += " cost model only: config | vs tuned |"
        rule += "---|--:|"
    print(header)
    print(rule)
    rows = [r for r in final["results"]
            if not (args.exclude and re.search(args.exclude, r["kernel"]))]
    for r in sorted(rows, key=lambda r: (r["m"] * r["n"] * r["k"])):
        line = "| %s | %s | %.4f | %.2f | %.2f | %.2f |" % (
            shape(r), r["config"], r["ms"], r["tflops"], r["cublas_tflops"],
            r["ratio"])
        if model:
            m = model.get((r.get("batch", 1), r["m"], r["n"], r["k"]))
            line += (" %s | %.2f |" % (m["config"], r["ms"] / m["ms"])
                     if m else " | |")
        print(line)
    if args.ablation:
        abl = load(args.ablation)["results"]
        base = next(r for r in abl if r["kernel"].startswith("abl_all"))
        print()
        print("| variant | config | ms | TFLOP/s | vs cuBLAS | vs all on |")
        print("|---|---|--:|--:|--:|--:|")
        for r in abl:
            print("| %s | %s | %.4f | %.2f | %.2f | %.2f |" % (
                r["kernel"].replace("_matmul0", ""), r["config"], r["ms"],
                r["tflops"], r["ratio"], base["ms"] / r["ms"]))


if __name__ == "__main__":
    main()
