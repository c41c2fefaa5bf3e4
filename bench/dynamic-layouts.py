#!/usr/bin/env python3
"""Writes matmuls whose operands have dynamic offsets and strides
(memref<MxKxT, strided<[?, 1], offset: ?>>, and batched ones with a
dynamic batch stride; B stored N x K for some), shapes drawn log-uniformly
per dimension from a seed, as one .mlir file on stdout. tile-opt compiles
each to a kernel that takes the offsets and strides at launch; tile-run
picks them (--layout, or one 16-byte step past the densest).

usage: dynamic-layouts.py --seed N --count N [--max N] [--static]
  --static: the same matmuls with the dense layouts written as static
  strides (for timing the dynamic kernels against static ones)."""
import argparse
import math
import random

TYPES = [("f32", "f32"), ("bf16", "f32"), ("f16", "f32"), ("bf16", "bf16")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--max", type=int, default=4096)
    parser.add_argument("--static", action="store_true")
    parser.add_argument("--shape", help="MxNxK: one shape instead of random ones")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    dim = lambda: max(1, int(round(math.exp(rng.uniform(0, math.log(args.max))))))
    print(f"// bench/dynamic-layouts.py --seed {args.seed} --count {args.count}"
          f" --max {args.max}{' --static' if args.static else ''}"
          f"{' --shape ' + args.shape if args.shape else ''}")
    for i in range(args.count):
        if args.shape:
            m, n, k = (int(x) for x in args.shape.split("x"))
            ins, out = TYPES[i % len(TYPES)]
            batch, trans_b = 0, False
        else:
            m, n, k = dim(), dim(), dim()
            ins, out = rng.choice(TYPES)
            batch = rng.choice([0, 0, 0, rng.randint(1, 8)])
            trans_b = rng.random() < 0.3
        if ins == "f32" and out != "f32":
            out = "f32"
        def ty(rows, cols, elem, offset=True):
            shape = f"{rows}x{cols}"
            if batch:
                shape = f"{batch}x{shape}"
            if args.static:
                strides = [str(cols), "1"]
                if batch:
                    strides = [str(rows * cols)] + strides
                return f"memref<{shape}x{elem}, strided<[{', '.join(strides)}, 1]>>".replace(", 1, 1]", ", 1]")
            strides = "?, ?, 1" if batch else "?, 1"
            off = ", offset: ?" if offset else ""
            return f"memref<{shape}x{elem}, strided<[{strides}]{off}>>"
        ta = ty(m, k, ins)
        tb = ty(n, k, ins) if trans_b else ty(k, n, ins)
        tc = ty(m, n, out)
        name = f"dyn{i:03d}"
        op = "linalg.batch_matmul" if batch else "linalg.matmul"
        maps = ""
        if trans_b:
            if batch:
                maps = ("indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, "
                        "affine_map<(b, m, n, k) -> (b, n, k)>, "
                        "affine_map<(b, m, n, k) -> (b, m, n)>] ")
            else:
                maps = ("indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
                        "affine_map<(m, n, k) -> (n, k)>, "
                        "affine_map<(m, n, k) -> (m, n)>] ")
        print(f"func.func @{name}(%a: {ta}, %b: {tb}, %c: {tc}) {{")
        print(f"  {op} {maps}ins(%a, %b : {ta}, {tb}) outs(%c : {tc})")
        print("  return")
        print("}")


if __name__ == "__main__":
    main()
