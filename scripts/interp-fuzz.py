#!/usr/bin/env python3
"""Random configs and shapes through tile-opt's tiling pipeline and tile-interp.

  scripts/interp-fuzz.py [--seed N] [--count N] [--build DIR]

Each case draws a structure of the tuning table (block, warp, thread tiles)
or a smaller one, a slice depth, stages (1-5), prefetch, the A tile's
padding, the swizzle group, split-K, a thread-tile option, and a shape of up
to 300x300x160 in the accumulate or the fill form; configs tile-configure
rejects are skipped. Prints every failure with the command that reproduces
it and exits 1 if there was one. Not part of the tests: 500 cases take about
two minutes on two cores.
"""

import argparse
import os
import random
import subprocess
import sys

STRUCTURES = [  # (block M, N), (warp M, N), (thread M, N)
    ((128, 128), (32, 64), (8, 8)), ((128, 256), (32, 128), (8, 16)),
    ((128, 256), (64, 64), (8, 16)), ((64, 128), (32, 64), (8, 8)),
    ((128, 64), (32, 64), (8, 8)), ((128, 32), (32, 32), (8, 4)),
    ((32, 32), (8, 32), (4, 2)), ((16, 128), (16, 64), (8, 4)),
    ((32, 64), (16, 64), (4, 8)), ((64, 64), (32, 32), (4, 8)),
    ((128, 128), (16, 32), (4, 4)), ((64, 32), (32, 16), (4, 4)),
    ((32, 32), (16, 16), (2, 4)), ((64, 64), (64, 32), (8, 8)),
    ((128, 128), (64, 64), (8, 16)),
]


def problem(m, n, k, fill):
    if fill:
        return f"""func.func @f(%A: tensor<{m}x{k}xf32>, %B: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %c = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %C = linalg.fill ins(%c : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %R = linalg.matmul ins(%A, %B : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%C : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %R : tensor<{m}x{n}xf32>
}}
"""
    return f"""func.func @f(%A: memref<{m}x{k}xf32>, %B: memref<{k}x{n}xf32>, %C: memref<{m}x{n}xf32>) {{
  linalg.matmul ins(%A, %B : memref<{m}x{k}xf32>, memref<{k}x{n}xf32>) outs(%C : memref<{m}x{n}xf32>)
  return
}}
"""


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--build", default=os.path.join(root, "build"))
    args = parser.parse_args()
    tile_opt = os.path.join(args.build, "bin", "tile-opt")
    tile_interp = os.path.join(args.build, "bin", "tile-interp")
    rnd = random.Random(args.seed)
    ran = rejected = failed = 0
    for case in range(args.count):
        (bm, bn), (wm, wn), (tm, tn) = rnd.choice(STRUCTURES)
        m, n, k = rnd.randint(1, 300), rnd.randint(1, 300), rnd.randint(1, 160)
        fill = rnd.random() < 0.4
        options = " ".join([
            "tuning-table=none", f"block={bm},{bn},{rnd.choice([4, 8, 16, 32])}",
            f"warp={wm},{wn}", f"thread={tm},{tn}",
            f"stages={rnd.choice([1, 2, 3, 4, 5])}",
            f"prefetch={rnd.choice(['true', 'false'])}",
            f"smem={rnd.choice(['none', 'pad1', 'pad4', 'pad8'])}",
            f"swizzle={rnd.choice([1, 2, 3, 8])}",
            f"split-k={rnd.choice([1, 1, 1, 2, 3, 5])}",
            rnd.choice(["", "", "fma-order=rows", "vector-c=true",
                        "index-bitwidth=64"])]).strip()
        source = problem(m, n, k, fill)
        compiled = subprocess.run(
            [tile_opt, "-", f"--tile-matmul-tiling={options}"], input=source,
            capture_output=True, text=True)
        if compiled.returncode != 0:
            rejected += 1
            continue
        ran += 1
        result = subprocess.run([tile_interp], input=compiled.stdout,
                                capture_output=True, text=True)
        if result.returncode == 0:
            continue
        failed += 1
        form = "fill" if fill else "accumulate"
        print(f"case {case}: {m}x{n}x{k} ({form})\n"
              f"  tile-opt in.mlir --tile-matmul-tiling=\"{options}\" | tile-interp\n"
              f"  {(result.stdout or result.stderr).strip()}")
    print(f"interp-fuzz: {ran} kernels run, {failed} failed, "
          f"{rejected} configs rejected by tile-configure")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
