#!/usr/bin/env python3
"""Random shapes for 2x1-cluster wgmma kernels, as a bench/compile.sh list.

   bench/cluster-random.py SEED COUNT [persistent] > list.txt

Each shape gets the cost model's config (the best-ranked one that takes a
cluster) or one of two block tiles of 128 rows (128x128, or 128x256 where N
is even: its 128-accumulator warpgroups spill with an odd N's single-element
C stores, as without a cluster), M a random even number of 128-row tiles
less a random remainder (a 2x1 cluster needs an even number of tile rows),
N and K log-uniform in 1..8192 (rows off 16 bytes take repack=true), C f32
or the input type, fill or accumulate, and a batch now and then; with
`persistent`, persistent kernels on 8 or 5 blocks (4 or 2 clusters: the grid
rounds down to whole clusters), so that each cluster walks several pairs of
tiles.
"""
import math
import random
import sys

seed, count = int(sys.argv[1]), int(sys.argv[2])
persistent = len(sys.argv) > 3 and sys.argv[3] == "persistent"
rng = random.Random(seed)
tiles = [
    "block=128,256,64 warp=64,256 thread=64,256 stages=4",
    "block=128,128,64 warp=64,128 thread=64,128 stages=5",
]
print(f"# bench/cluster-random.py {' '.join(sys.argv[1:])}")
for i in range(count):
    def extent():
        return max(1, int(round(math.exp(rng.uniform(0, math.log(8192))))))
    pairs = rng.randint(1, 24)
    m = 256 * pairs - rng.randint(0, 127)
    n, k = extent(), extent()
    t = rng.choice(["bf16", "f16"])
    out = rng.choice(["f32", t])
    init = rng.choice(["fill", "acc"])
    batch = rng.choice([1, 1, 1, 3])
    choice = rng.choice(["model", tiles[1]] + ([tiles[0]] if n % 2 == 0 else []))
    opts = [f"in={t}", f"out={out}"] + ([] if choice == "model" else [choice])
    opts.append("repack=true cluster=2x1")
    if persistent:
        opts.append(f"persistent=true persistent-blocks={rng.choice([8, 5])}")
    if batch > 1:
        opts.append(f"batch={batch}")
    print(f"{'cp' if persistent else 'cr'}{i:03d} {m} {n} {k} {init} " + " ".join(opts))
