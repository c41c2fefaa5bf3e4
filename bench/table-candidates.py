#!/usr/bin/env python3
"""Compile lines for the tuning table's own entries, to measure them again.

    bench/table-candidates.py SHAPES [--table TABLE] [--stages N]...

For every shape of SHAPES (bench/compile.sh format) that TABLE (default
tuning/h200-f32.json) has an entry for, prints the entry's config as a
bench/compile.sh line NAME_t (with the table off, so the line is the config
alone), and with each --stages N once more at that stage count (NAME_tsN).
Added to a tile-tune candidates list, the table's current choice is timed in
the same run as the candidates, so `tile-tune select` compares like with like.
"""
import argparse
import json


def main():
    p = argparse.ArgumentParser()
    p.add_argument("shapes")
    p.add_argument("--table", default="tuning/h200-f32.json")
    p.add_argument("--stages", type=int, action="append", default=[])
    a = p.parse_args()
    shapes = {}
    with open(a.shapes) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 5 or fields[0].startswith("#"):
                continue
            shapes[tuple(int(x) for x in fields[1:4])] = (fields[0], fields[4])
    with open(a.table) as f:
        entries = json.load(f)["entries"]
    for e in entries:
        key = (e["m"], e["n"], e["k"])
        if key not in shapes:
            continue
        name, init = shapes[key]
        b, w, t = e["block"], e["warp"], e["thread"]
        options = (f"block={b[0]},{b[1]},{b[2]} warp={w[0]},{w[1]} "
                   f"thread={t[0]},{t[1]} swizzle={e.get('swizzle', 8)} "
                   f"smem={e.get('smem', 'pad4')} "
                   f"prefetch={'true' if e.get('prefetch', True) else 'false'}")
        if e.get("occupancy", 0):
            options += f" occupancy={e['occupancy']}"
        if e.get("split_k", 1) > 1:
            options += f" split-k={e['split_k']}"
        for suffix, stages in [("t", e.get("stages", 2))] + [
                (f"ts{s}", s) for s in a.stages]:
            print(f"{name}_{suffix} {key[0]} {key[1]} {key[2]} {init} "
                  f"{options} stages={stages} tuning-table=none")


if __name__ == "__main__":
    main()
