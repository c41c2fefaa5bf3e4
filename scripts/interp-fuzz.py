#!/usr/bin/env python3
"""Random configs and shapes through tile-opt's tiling pipeline and tile-interp.

  scripts/interp-fuzz.py [--seed N] [--count N] [--build DIR] [--strategy S]

fma (the default): each case draws a structure of the tuning table (block,
warp, thread tiles) or a smaller one, a slice depth, stages (1-5), prefetch,
the A tile's padding, the swizzle group, split-K, a thread-tile option, and
a shape of up to 300x300x160 in the accumulate or the fill form.

wgmma: a block tile (M 64 to 256, N 64 to 256), a warpgroup tile and a wgmma
instruction N that fit it, stages (2-5), TMA (in place, or on the runtime's
repacked copies where the stored rows break its 16-byte rule) or register
copies, with or without a producer warpgroup, the swizzle group, bf16 or f16
inputs with f32 C or C of their type, A stored M x K or K x M and B K x N or
N x K, and a shape of up to 300x300x300 (M, N and K often multiples of 8, so
that the TMA can copy the stored rows in place), accumulate or fill.

Configs tile-opt rejects are skipped. Prints every failure with the command
that reproduces it and exits 1 if there was one. Not part of the tests: 500
fma cases take about two minutes on two cores, 100 wgmma ones about one.
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


def draw_fma(rnd):
    """An fma case: (options, source, description)."""
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
    form = "fill" if fill else "accumulate"
    return options, problem(m, n, k, fill), f"{m}x{n}x{k} ({form})"


def wgmma_problem(m, n, k, fill, element, result, ta=False, tb=False):
    a = f"{k}x{m}x{element}" if ta else f"{m}x{k}x{element}"
    b = f"{n}x{k}x{element}" if tb else f"{k}x{n}x{element}"
    c = f"{m}x{n}x{result}"
    if ta or tb:
        maps = ("indexing_maps = [affine_map<(m, n, k) -> "
                f"{'(k, m)' if ta else '(m, k)'}>, affine_map<(m, n, k) -> "
                f"{'(n, k)' if tb else '(k, n)'}>, "
                "affine_map<(m, n, k) -> (m, n)>] ")
    else:
        maps = ""
    if fill:
        return f"""func.func @f(%A: tensor<{a}>, %B: tensor<{b}>) -> tensor<{c}> {{
  %c = arith.constant 0.25 : {result}
  %e = tensor.empty() : tensor<{c}>
  %C = linalg.fill ins(%c : {result}) outs(%e : tensor<{c}>) -> tensor<{c}>
  %R = linalg.matmul {maps}ins(%A, %B : tensor<{a}>, tensor<{b}>) outs(%C : tensor<{c}>) -> tensor<{c}>
  return %R : tensor<{c}>
}}
"""
    return f"""func.func @f(%A: memref<{a}>, %B: memref<{b}>, %C: memref<{c}>) {{
  linalg.matmul {maps}ins(%A, %B : memref<{a}>, memref<{b}>) outs(%C : memref<{c}>)
  return
}}
"""


def draw_wgmma(rnd):
    """A wgmma case: (options, source, description)."""
    bm, bn = rnd.choice([64, 128, 192, 256]), rnd.choice([64, 128, 192, 256])
    wm = rnd.choice([w for w in (64, 128, 192, 256) if bm % w == 0])
    # At most 4 consumer warpgroups.
    wn = rnd.choice([w for w in (16, 32, 64, 128, 192, 256)
                     if bn % w == 0 and (bm // wm) * (bn // w) <= 4])
    tn = rnd.choice([t for t in (8, 16, 32, 64, 128, 192, 256)
                     if wn % t == 0])
    m, n, k = rnd.randint(1, 300), rnd.randint(1, 300), rnd.randint(1, 300)
    if rnd.random() < 0.6:  # rows the TMA can copy
        m, n, k = (m + 7) // 8 * 8, (n + 7) // 8 * 8, (k + 7) // 8 * 8
    ta, tb = rnd.random() < 0.5, rnd.random() < 0.5
    element = rnd.choice(["bf16", "f16"])
    result = rnd.choice(["f32", element])
    fill = rnd.random() < 0.4
    # The TMA (in place where the stored rows are on 16 bytes, else on
    # repacked copies) or register copies, which need a producer.
    copy = rnd.choice(["tma", "tma", "registers"])
    in_place = (m if ta else k) % 8 == 0 and (k if tb else n) % 8 == 0
    repack = copy == "tma" and (not in_place or rnd.random() < 0.2)
    specialize = "true" if copy == "registers" else rnd.choice(
        ["true", "true", "false"])
    options = " ".join([
        f"block={bm},{bn},64", f"warp={wm},{wn}", f"thread=64,{tn}",
        f"stages={rnd.choice([2, 3, 4, 5])}", f"copy={copy}",
        f"repack={'true' if repack else 'false'}",
        f"specialize={specialize}", f"swizzle={rnd.choice([1, 2, 8])}",
        "occupancy=1"])
    form = "fill" if fill else "accumulate"
    stored = f"A {'K x M' if ta else 'M x K'}, B {'N x K' if tb else 'K x N'}"
    return (options, wgmma_problem(m, n, k, fill, element, result, ta, tb),
            f"{m}x{n}x{k} {element} -> {result} ({form}; {stored})")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--strategy", choices=["fma", "wgmma"], default="fma")
    args = parser.parse_args()
    tile_opt = os.path.join(args.build, "bin", "tile-opt")
    tile_interp = os.path.join(args.build, "bin", "tile-interp")
    rnd = random.Random(args.seed)
    ran = rejected = failed = 0
    for case in range(args.count):
        if args.strategy == "wgmma":
            options, source, what = draw_wgmma(rnd)
        else:
            options, source, what = draw_fma(rnd)
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
        print(f"case {case}: {what}\n"
              f"  tile-opt in.mlir --tile-matmul-tiling=\"{options}\" | tile-interp\n"
              f"  {(result.stdout or result.stderr).strip()}")
    print(f"interp-fuzz: {ran} kernels run, {failed} failed, "
          f"{rejected} configs rejected by tile-opt")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
