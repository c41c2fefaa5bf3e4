#!/usr/bin/env python3
"""Plots `tile-run bench --json` results as PNG files.

    scripts/plot-results.py [--out DIR] [--prefix NAME] RESULTS.json...
    scripts/plot-results.py [--out DIR] --ablation ABLATION.json [--reference KERNEL]

From RESULTS (one or more runs, taken together):
  NAME-ratio.png     each shape's time against cuBLAS on the same data
                     (cuBLAS time / ours: above 1 is faster than cuBLAS),
                     sorted by FLOPs, coloured by size band
  NAME-bands.png     the same ratios grouped by size band (FLOPs = 2 m n k),
                     with each band's geometric mean
  NAME-roofline.png  a roofline of the H200: HBM at 4.8 TB/s, 67 TFLOP/s for
                     FP32 on the CUDA cores, 989 TFLOP/s for dense bf16/f16 on
                     the tensor cores; each shape's kernel and cuBLAS at the
                     shape's arithmetic intensity (FLOPs per byte of
                     compulsory traffic: A and B read once, C written once)
From ABLATION (a run of variants of one shape, bench/ablation.txt):
  NAME-ablation.png  TFLOP/s of each variant as bars, the reference first,
                     each labelled with its speed relative to the reference,
                     and cuBLAS as a line

NAME is --prefix, or the first RESULTS (ABLATION) file's name without .json.
The numbers behind each plot are printed too; a plot without data (no
cuBLAS ratios) is skipped with a message. Needs matplotlib (Debian:
python3-matplotlib; scripts/install-deps.sh installs it). Exit status: 0
when the plots were written, 1 for bad input, 2 without matplotlib.
"""

import argparse
import json
import math
import os
import sys

# The H200 (SXM): dense peaks and HBM3e bandwidth.
PEAK_FP32 = 67e12  # FP32 FMA on the CUDA cores (no tensor cores)
PEAK_BF16 = 989e12  # dense bf16/f16 on the tensor cores
HBM_BYTES_PER_SECOND = 4.8e12

ELEMENT_BYTES = {"f32": 4, "bf16": 2, "f16": 2}

# Size bands by FLOPs (2 m n k): upper bounds and names.
BANDS = [
    (1e8, "< 0.1 GFLOP"),
    (1e10, "0.1-10 GFLOP"),
    (1e11, "10-100 GFLOP"),
    (math.inf, ">= 100 GFLOP"),
]
BAND_COLOURS = ["#9bb7d4", "#5b8cc0", "#2d5f96", "#173a63"]


class InputError(Exception):
    pass


def load_results(path):
    """The usable results of one tile-run bench JSON file."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise InputError("cannot read %s: %s" % (path, e.strerror))
    except ValueError as e:
        raise InputError("%s is not JSON: %s" % (path, e))
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise InputError("%s has no 'results' list (not tile-run bench --json "
                         "output)" % path)
    results = []
    for i, r in enumerate(data["results"]):
        if not isinstance(r, dict):
            raise InputError("%s: result %d is not an object" % (path, i))
        missing = [key for key in ("kernel", "m", "n", "k") if key not in r]
        if missing:
            raise InputError("%s: result %d lacks %s" %
                             (path, i, ", ".join(missing)))
        if not all(isinstance(r[key], int) and r[key] > 0
                   for key in ("m", "n", "k")):
            raise InputError("%s: %s: m, n and k must be positive integers" %
                             (path, r["kernel"]))
        # Failed kernels and kernels without a time are left out.
        if not r.get("ok", True) or not positive(r.get("tflops")):
            continue
        element = r.get("element_type") or "f32"
        if element not in ELEMENT_BYTES:
            raise InputError("%s: %s: unknown element_type '%s'" %
                             (path, r["kernel"], element))
        result_type = r.get("result_type") or element
        if result_type not in ELEMENT_BYTES:
            raise InputError("%s: %s: unknown result_type '%s'" %
                             (path, r["kernel"], result_type))
        results.append(dict(r, element_type=element, result_type=result_type))
    return results


def positive(value):
    return isinstance(value, (int, float)) and value > 0 and math.isfinite(value)


def flops(r):
    # A batched kernel (tile-run's "batch") computes every matrix.
    return 2.0 * r.get("batch", 1) * r["m"] * r["n"] * r["k"]


def intensity(r):
    """FLOPs per byte of compulsory traffic: A, B read once, C written once."""
    a = ELEMENT_BYTES[r["element_type"]]
    c = ELEMENT_BYTES[r["result_type"]]
    moved = a * (r["m"] * r["k"] + r["k"] * r["n"]) + c * r["m"] * r["n"]
    return flops(r) / (moved * r.get("batch", 1))


def peak(r):
    return PEAK_FP32 if r["element_type"] == "f32" else PEAK_BF16


def band_of(r):
    for i, (bound, _) in enumerate(BANDS):
        if flops(r) < bound:
            return i
    return len(BANDS) - 1


def label(r):
    text = "%dx%dx%d" % (r["m"], r["n"], r["k"])
    if r.get("batch", 1) != 1:
        text = "%d x %s" % (r["batch"], text)
    if r["element_type"] != "f32":
        text += " " + r["element_type"]
    return text


def unique_labels(rows):
    """label(r) of each row; where two rows share one (variants of a shape,
    e.g. a forced copy path next to the compiler's choice), each of those
    gets its kernel's short name too."""
    plain = [label(r) for r in rows]
    return [text + " (%s)" % short_name(r["kernel"]) if plain.count(text) > 1
            else text for text, r in zip(plain, rows)]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def ratio_ticks(plt, axis, ratios):
    """Plain numbers on a log2 axis of ratios."""
    ticks = [t for t in (0.25, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 2, 2.5,
                         3, 4)
             if min(ratios) / 1.2 <= t <= max(ratios) * 1.2]
    axis.set_ticks(ticks)
    axis.set_ticklabels(["%g" % t for t in ticks])
    axis.set_minor_locator(plt.NullLocator())


def ratio_plot(plt, results, path):
    rows = sorted((r for r in results if positive(r.get("ratio"))),
                  key=lambda r: (flops(r), label(r)))
    if not rows:
        print("ratio: no result has a cuBLAS ratio; %s not written" % path)
        return False
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.28 * len(rows) + 1.6)))
    y = list(range(len(rows)))
    ax.barh(y, [r["ratio"] for r in rows],
            color=[BAND_COLOURS[band_of(r)] for r in rows])
    ax.axvline(1.0, color="#c0392b", linewidth=1)
    ax.set_yticks(y)
    names = unique_labels(rows)
    ax.set_yticklabels(names, fontsize=8)
    ax.set_xscale("log", base=2)
    ratio_ticks(plt, ax.xaxis, [r["ratio"] for r in rows])
    ax.set_xlabel("speed relative to cuBLAS (cuBLAS time / ours; > 1: faster)")
    ax.set_title("tile-opt kernels against cuBLAS, per shape")
    for yy, r in zip(y, rows):
        ax.text(r["ratio"], yy, " %.2f" % r["ratio"], va="center", fontsize=7)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in BAND_COLOURS]
    ax.legend(handles, [name for _, name in BANDS], fontsize=7,
              loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    for name, r in zip(names, rows):
        print("ratio %s: %.2f" % (name, r["ratio"]))
    return True


def bands_plot(plt, results, path):
    rows = [r for r in results if positive(r.get("ratio"))]
    if not rows:
        print("bands: no result has a cuBLAS ratio; %s not written" % path)
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    names, means = [], []
    for i, (_, name) in enumerate(BANDS):
        ratios = [r["ratio"] for r in rows if band_of(r) == i]
        if not ratios:
            continue
        x = len(names)
        names.append(name)
        mean = geomean(ratios)
        means.append(mean)
        ax.scatter([x] * len(ratios), ratios, color=BAND_COLOURS[i],
                   alpha=0.8, zorder=3)
        ax.hlines(mean, x - 0.3, x + 0.3, color="#222", linewidth=2, zorder=4)
        ax.text(x + 0.32, mean, "%.2f" % mean, va="center", fontsize=8)
        print("band %s: %d shape%s, ratio to cuBLAS geometric mean %.2f, "
              "min %.2f, max %.2f" % (name, len(ratios),
                                      "" if len(ratios) == 1 else "s", mean,
                                      min(ratios), max(ratios)))
    ax.axhline(1.0, color="#c0392b", linewidth=1)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_yscale("log", base=2)
    ratio_ticks(plt, ax.yaxis, [r["ratio"] for r in rows])
    ax.set_xlim(-0.6, len(names) - 0.2)
    ax.set_ylabel("speed relative to cuBLAS (> 1: faster)")
    ax.set_xlabel("size band (FLOPs = 2 m n k); bar: geometric mean")
    ax.set_title("tile-opt kernels against cuBLAS, per size band")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def roofline_plot(plt, results, path):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    xs = [intensity(r) for r in results]
    lo, hi = min(xs) / 2, max(xs) * 2
    # The roofs: bandwidth, and each compute peak where it is reached.
    ridge32 = PEAK_FP32 / HBM_BYTES_PER_SECOND
    ridge16 = PEAK_BF16 / HBM_BYTES_PER_SECOND
    right = max(hi, ridge16 * 2)
    ax.plot([lo, ridge16], [lo * HBM_BYTES_PER_SECOND / 1e12, PEAK_BF16 / 1e12],
            color="#555", linewidth=1.2, label="HBM 4.8 TB/s")
    ax.plot([ridge32, right], [PEAK_FP32 / 1e12] * 2, color="#2d5f96",
            linewidth=1.2, label="FP32 CUDA cores 67 TFLOP/s")
    ax.plot([ridge16, right], [PEAK_BF16 / 1e12] * 2, color="#8e44ad",
            linewidth=1.2, label="bf16/f16 tensor cores 989 TFLOP/s (dense)")
    ax.scatter(xs, [r["tflops"] for r in results], color="#e67e22", zorder=3,
               label="tile-opt", s=22)
    with_cublas = [r for r in results if positive(r.get("cublas_tflops"))]
    ax.scatter([intensity(r) for r in with_cublas],
               [r["cublas_tflops"] for r in with_cublas], color="#2c3e50",
               marker="x", zorder=4, label="cuBLAS", s=22)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, right)
    ax.set_xlabel("arithmetic intensity (FLOP per byte: A, B read once, "
                  "C written once)")
    ax.set_ylabel("TFLOP/s")
    ax.set_title("Roofline of the H200: tile-opt kernels and cuBLAS")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    rows = sorted(results, key=lambda r: (intensity(r), label(r)))
    for name, r in zip(unique_labels(rows), rows):
        bound = min(peak(r), intensity(r) * HBM_BYTES_PER_SECOND)
        cublas = (" (cuBLAS %.2f)" % r["cublas_tflops"]
                  if positive(r.get("cublas_tflops")) else "")
        print("roofline %s: %.1f FLOP/byte, %.2f TFLOP/s%s, roof %.1f TFLOP/s "
              "(%s)" % (name, intensity(r), r["tflops"], cublas,
                        bound / 1e12,
                        "compute" if bound == peak(r) else "memory"))
    return True


def short_name(kernel):
    name = kernel
    if name.startswith("abl_"):
        name = name[len("abl_"):]
    for suffix in ("_matmul0",):
        if name.endswith(suffix):
            name = name[:-len(suffix)]
    return name


def find_reference(results, name):
    """The ablation's reference: the kernel `name` (with or without abl_ and
    _matmul0), else the one named abl_all, else the first."""
    if name is not None:
        for r in results:
            if name in (r["kernel"], short_name(r["kernel"])):
                return r
        raise InputError("ablation: no kernel named '%s'" % name)
    for r in results:
        if short_name(r["kernel"]) == "all":
            return r
    return results[0]


def ablation_plot(plt, results, path, ref):
    others = sorted((r for r in results if r is not ref),
                    key=lambda r: -r["tflops"])
    rows = [ref] + others
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.4 * len(rows) + 1.4)))
    y = list(range(len(rows)))[::-1]
    ax.barh(y, [r["tflops"] for r in rows],
            color=["#e67e22"] + ["#5b8cc0"] * len(others))
    ax.set_yticks(y)
    ax.set_yticklabels([short_name(r["kernel"]) for r in rows], fontsize=8)
    for yy, r in zip(y, rows):
        ax.text(r["tflops"], yy, " %.2fx" % (r["tflops"] / ref["tflops"]),
                va="center", fontsize=8)
    cublas = [r["cublas_tflops"] for r in rows if positive(r.get("cublas_tflops"))]
    if cublas:
        median = sorted(cublas)[len(cublas) // 2]
        ax.axvline(median, color="#c0392b", linewidth=1,
                   label="cuBLAS %.1f TFLOP/s" % median)
        ax.legend(fontsize=8, loc="lower right")
    ax.set_xlim(0, max(r["tflops"] for r in rows) * 1.15)
    ax.set_xlabel("TFLOP/s (label: relative to the reference, %s)" %
                  short_name(ref["kernel"]))
    ax.set_title("Ablation at %s: each technique switched off" % label(ref))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    for r in rows:
        print("ablation %s: %.2f TFLOP/s, %.2fx the reference" %
              (short_name(r["kernel"]), r["tflops"], r["tflops"] / ref["tflops"]))
    return True


def stem(path):
    name = os.path.basename(path)
    return name[:-len(".json")] if name.endswith(".json") else name


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="*", help="tile-run bench --json files")
    parser.add_argument("--ablation", help="tile-run bench --json file of an "
                        "ablation run")
    parser.add_argument("--reference", help="the ablation's reference kernel "
                        "(default: the one named abl_all, else the first)")
    parser.add_argument("--out", default=".", help="folder for the PNG files "
                        "(created if missing; default: .)")
    parser.add_argument("--prefix", help="file name prefix of the RESULTS plots")
    args = parser.parse_args()
    if not args.results and not args.ablation:
        parser.error("give RESULTS files, --ablation, or both")

    # The input first: bad input is reported with or without matplotlib.
    try:
        results = []
        for path in args.results:
            results += load_results(path)
        if args.results and not results:
            raise InputError("no usable result (ok, with a time) in %s" %
                             ", ".join(args.results))
        ablation = load_results(args.ablation) if args.ablation else []
        if args.ablation and not ablation:
            raise InputError("no usable result (ok, with a time) in %s" %
                             args.ablation)
        reference = find_reference(ablation, args.reference) if ablation else None
    except InputError as e:
        print("plot-results: %s" % e, file=sys.stderr)
        return 1

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print("plot-results: matplotlib is missing (%s): install "
              "python3-matplotlib, e.g. with scripts/install-deps.sh" % e,
              file=sys.stderr)
        return 2

    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        print("plot-results: cannot create %s: %s" % (args.out, e.strerror),
              file=sys.stderr)
        return 1
    written = []
    try:
        if results:
            prefix = os.path.join(args.out, args.prefix or stem(args.results[0]))
            print("plot-results: %d results from %s" %
                  (len(results), ", ".join(map(os.path.basename, args.results))))
            for kind, plot in (("ratio", ratio_plot), ("bands", bands_plot),
                               ("roofline", roofline_plot)):
                path = "%s-%s.png" % (prefix, kind)
                if plot(plt, results, path):
                    written.append(path)
        if ablation:
            path = os.path.join(args.out, stem(args.ablation) + "-ablation.png")
            ablation_plot(plt, ablation, path, reference)
            written.append(path)
    except OSError as e:
        print("plot-results: cannot write %s: %s" % (e.filename, e.strerror),
              file=sys.stderr)
        return 1
    for path in written:
        print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
