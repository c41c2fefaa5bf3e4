#!/usr/bin/env python3
"""Summarizes bench/gpu/stall-sites.sh output: where a kernel's warps wait.

    bench/stall-sites.py KERNEL.sass.csv [--top N] [--loop]

Prints the stall samples per reason over the whole kernel (or, with --loop,
over its main loop: the instructions between the longest backward branch and
its target), and the N instructions with the most samples, each with its
three largest reasons.
"""
import argparse
import csv
import re
import sys


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    names = rows[header]
    out = []
    for r in rows[header + 1:]:
        if len(r) < len(names):
            continue
        out.append(dict(zip(names, r)))
    return names, out


def num(s):
    try:
        return float(s)
    except ValueError:
        return 0.0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("csv")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--loop", action="store_true")
    a = p.parse_args()
    names, rows = read(a.csv)
    reasons = [n for n in names if n.startswith("stall_") and "Not Issued" not in n]
    if a.loop:
        addr = [int(r["Address"], 16) for r in rows]
        best = (0, 0, 0)
        for i, r in enumerate(rows):
            m = re.search(r"BRA\s+(?:`?\(?\.?)?(0x[0-9a-f]+)", r["Source"])
            if not m:
                continue
            target = int(m.group(1), 16)
            # Branch targets may be offsets from the kernel start.
            for t in (target, target + addr[0]):
                if t in addr:
                    j = addr.index(t)
                    if j <= i and i - j > best[0]:
                        best = (i - j, j, i)
        if best[0]:
            rows = rows[best[1]:best[2] + 1]
    total = sum(num(r["Warp Stall Sampling (All Samples)"]) for r in rows)
    sums = {n: sum(num(r[n]) for r in rows) for n in reasons}
    ops = {}
    for r in rows:
        op = r["Source"].split()
        op = [t for t in op if not t.startswith("@")]
        key = op[0].split(".")[0] if op else "?"
        ops[key] = ops.get(key, 0) + num(r["Instructions Executed"])
    print(f"{a.csv}: {len(rows)} instructions, {total:.0f} samples")
    print("samples by reason: " + ", ".join(
        f"{n[6:]} {v / total:.1%}" for n, v in sorted(sums.items(), key=lambda x: -x[1]) if v / total >= 0.005))
    print(f"top {a.top} instructions:")
    for r in sorted(rows, key=lambda r: -num(r["Warp Stall Sampling (All Samples)"]))[:a.top]:
        s = num(r["Warp Stall Sampling (All Samples)"])
        top3 = sorted(reasons, key=lambda n: -num(r[n]))[:3]
        why = ", ".join(f"{n[6:]} {num(r[n]):.0f}" for n in top3 if num(r[n]) > 0)
        print(f"  {r['Address'][-5:]} {s / total:6.2%}  {r['Source'].strip()[:60]:60s} {why}")


if __name__ == "__main__":
    sys.exit(main())
