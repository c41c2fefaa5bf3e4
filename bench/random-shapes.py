#!/usr/bin/env python3
"""Random matmul shapes for bench/compile.sh, drawn from a recorded seed.

Each dimension is log-uniform in [1, MAX] (M and N in [MIN, MAX]); shapes are kept until every
size band (by 2*M*N*K flop: < 1e7, 1e7-1e9, 1e9-1e10, >= 1e10) has COUNT of
them (or --total shapes were drawn without band balancing). Odd and
unaligned extents come out naturally (most draws are not multiples of 8).

  bench/random-shapes.py --seed 7 --count 10 --prefix r --in bf16 [--out f32]
      [--init acc|fill|both] [--max 8192] [--options "stages=3"]
  bench/random-shapes.py --seed 7 --total 1000 ...   (no band balancing)
  bench/random-shapes.py --seed 7 --total 20 --max 2048 --k-min 4096
      --k-max 32768 ...   (deep K on a small grid: where split-K pays)
  bench/random-shapes.py --seed 7 --count 5 --max 2048 --batch-max 256
      --random-layout ... (batched matmuls: a batch log-uniform in
      [2, BATCH_MAX], counted in the flop of the bands; a random layout
      nn, nt, tn or tt per shape)
  bench/random-shapes.py --seed 7 --count 5 --init acc --random-strides ...
      (strided operands: per operand a row padding and an offset, each 0,
      a multiple of 8 up to 64, or 1 to 40, for compile.sh's pad= and
      offset=; needs --init acc)

prints lines NAME M N K INIT [options] for bench/compile.sh.
"""
import argparse
import math
import random

BANDS = [(0, 1e7), (1e7, 1e9), (1e9, 1e10), (1e10, float("inf"))]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--count", type=int, default=10, help="shapes per band")
    p.add_argument("--total", type=int, default=0,
                   help="draw this many shapes, whatever their bands "
                        "(instead of --count per band)")
    p.add_argument("--prefix", default="r")
    p.add_argument("--in", dest="in_type", default="f32")
    p.add_argument("--out", dest="out_type", default="f32")
    p.add_argument("--init", default="both", choices=["acc", "fill", "both"])
    p.add_argument("--max", type=int, default=8192)
    p.add_argument("--min", type=int, default=1,
                   help="M and N are log-uniform in [MIN, MAX] (default 1)")
    p.add_argument("--k-min", type=int, default=1,
                   help="K is log-uniform in [K_MIN, K_MAX] (default [1, MAX])")
    p.add_argument("--k-max", type=int, default=0)
    p.add_argument("--options", default="")
    p.add_argument("--batch-max", type=int, default=0,
                   help="draw a batch log-uniform in [2, BATCH_MAX] per "
                        "shape (default: no batch)")
    p.add_argument("--random-layout", action="store_true",
                   help="a random layout=nn|nt|tn|tt per shape")
    p.add_argument("--random-strides", action="store_true",
                   help="random pad=PA,PB,PC and offset=OA,OB,OC per shape "
                        "(strided memrefs; needs --init acc)")
    args = p.parse_args()
    if args.random_strides and args.init != "acc":
        p.error("--random-strides needs --init acc (memref operands)")
    if args.batch_max == 1 or args.batch_max < 0:
        p.error("--batch-max must be at least 2")
    k_max = args.k_max or args.max
    if not 1 <= args.k_min <= k_max:
        p.error("need 1 <= --k-min <= --k-max")
    if not 1 <= args.min <= args.max:
        p.error("need 1 <= --min <= --max")
    rng = random.Random(args.seed)
    counts = [0] * len(BANDS)
    index = 0
    size = f"--total {args.total}" if args.total else f"--count {args.count}"
    print(f"# bench/random-shapes.py --seed {args.seed} {size} "
          f"--prefix {args.prefix} --in {args.in_type} --out {args.out_type} "
          f"--init {args.init} --max {args.max}"
          + (f" --min {args.min}" if args.min != 1 else "")
          + (f" --k-min {args.k_min} --k-max {k_max}"
             if (args.k_min, k_max) != (1, args.max) else "")
          + (f" --options '{args.options}'" if args.options else "")
          + (f" --batch-max {args.batch_max}" if args.batch_max else "")
          + (" --random-layout" if args.random_layout else "")
          + (" --random-strides" if args.random_strides else ""))

    def count():  # 0, a multiple of 8 up to 64, or 1 to 40
        kind = rng.random()
        if kind < 0.25:
            return 0
        if kind < 0.6:
            return 8 * rng.randint(1, 8)
        return rng.randint(1, 40)

    def more():
        return index < args.total if args.total else min(counts) < args.count

    while more():
        m, n = (max(args.min, int(math.exp(rng.uniform(
            math.log(args.min), math.log(args.max))))) for _ in range(2))
        k = max(args.k_min, min(k_max, int(math.exp(
            rng.uniform(math.log(args.k_min), math.log(k_max))))))
        batch = 1
        if args.batch_max:
            batch = max(2, int(math.exp(rng.uniform(math.log(2),
                                                    math.log(args.batch_max)))))
        layout = (rng.choice(["nn", "nt", "tn", "tt"])
                  if args.random_layout else "nn")
        flop = 2.0 * m * n * k * batch
        band = next(i for i, (lo, hi) in enumerate(BANDS) if lo <= flop < hi)
        if not args.total and counts[band] >= args.count:
            continue
        counts[band] += 1
        init = args.init if args.init != "both" else rng.choice(["acc", "fill"])
        types = ""
        if args.in_type != "f32" or args.out_type != "f32":
            types = f" in={args.in_type} out={args.out_type}"
        extra = (f" batch={batch}" if batch != 1 else "") + (
            f" layout={layout}" if layout != "nn" else "")
        if args.random_strides:
            pads = ",".join(str(count()) for _ in range(3))
            offsets = ",".join(str(count()) for _ in range(3))
            extra += f" pad={pads} offset={offsets}"
        print(f"{args.prefix}{index:03d}_b{band} {m} {n} {k} {init}{types}"
              + extra + (f" {args.options}" if args.options else ""))
        index += 1


if __name__ == "__main__":
    main()
