#!/usr/bin/env python3
"""Random shapes of whole 128-element tiles for the persistent-store rule.

The cost model makes a kernel persistent where it stores C through the TMA,
every tile is whole and the tiles take more than one wave
(modelTakesPersistent). Its held-out check needs shapes where that holds:
M and N are multiples of 128 (128 * a, a log-uniform in [1, 64]), K is
log-uniform in [64, 8192] (half of the draws rounded to a multiple of 64),
a third of the draws are batched (a batch log-uniform in [2, 64], M and N
at most 2048), inputs bf16 or f16 with an f32 or 16-bit C, a random layout
(nn, nt, tn, tt). C = 0 + A*B (the store needs C only written).

  bench/persistent-store-random.py --seed 20261270 --total 40 --prefix ps

prints lines NAME M N K fill [options] for bench/compile.sh.
"""
import argparse
import math
import random


def log_uniform(rng, lo, hi):
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--total", type=int, default=40)
    p.add_argument("--prefix", default="ps")
    args = p.parse_args()
    rng = random.Random(args.seed)
    for i in range(args.total):
        batched = rng.random() < 1 / 3
        top = 16 if batched else 64
        m = 128 * log_uniform(rng, 1, top)
        n = 128 * log_uniform(rng, 1, top)
        k = log_uniform(rng, 64, 8192)
        if rng.random() < 0.5:
            k = max(64, round(k / 64) * 64)
        t = rng.choice(["bf16", "f16"])
        out = rng.choice(["f32", t])
        layout = rng.choice(["nn", "nt", "tn", "tt"])
        extra = f" batch={log_uniform(rng, 2, 64)}" if batched else ""
        print(f"{args.prefix}{i:03d} {m} {n} {k} fill in={t} out={out} "
              f"layout={layout}{extra}")


if __name__ == "__main__":
    main()
