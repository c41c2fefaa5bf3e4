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

   bench/cluster-random.py SEED COUNT [persistent] [1x2] [layouts]

With `1x2`, 1x2 clusters (two blocks on horizontally adjacent tiles, A's
slab multicast): N is then the random even number of tile columns (of 256
or 128 as the tile taken) less a remainder, M log-uniform. With `layouts`,
each shape also takes a random storage of A and B (nn, nt, tn or tt: the
K-major slab of a B stored N x K, or of an A stored M x K, is shared as
halves of its rows; an MN-major one by its 64-element chunks). Without
either, the lists of the 2x1 results files come out as they did.
"""
import math
import random
import sys

seed, count = int(sys.argv[1]), int(sys.argv[2])
flags = sys.argv[3:]
persistent = "persistent" in flags
along_n = "1x2" in flags
layouts = "layouts" in flags
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
    if along_n:
        # The tile first: N a whole number of pairs of its tile columns.
        m, k = extent(), extent()
        choice = rng.choice(["model"] + tiles)
        width = 256 if choice == tiles[0] else 128
        n = 2 * width * pairs - rng.randint(0, width - 1)
        if choice == tiles[0] and n % 2:
            n += 1  # (still inside the last pair of tile columns)
    else:
        m = 256 * pairs - rng.randint(0, 127)
        n, k = extent(), extent()
    t = rng.choice(["bf16", "f16"])
    out = rng.choice(["f32", t])
    init = rng.choice(["fill", "acc"])
    batch = rng.choice([1, 1, 1, 3])
    if not along_n:
        choice = rng.choice(["model", tiles[1]] + ([tiles[0]] if n % 2 == 0 else []))
    opts = [f"in={t}", f"out={out}"] + ([] if choice == "model" else [choice])
    if layouts:
        opts.append(f"layout={rng.choice(['nn', 'nt', 'tn', 'tt'])}")
    opts.append(f"repack=true cluster={'1x2' if along_n else '2x1'}")
    if persistent:
        opts.append(f"persistent=true persistent-blocks={rng.choice([8, 5])}")
    if batch > 1:
        opts.append(f"batch={batch}")
    prefix = ("n" if along_n else "") + ("cp" if persistent else "cr")
    print(f"{prefix}{i:03d} {m} {n} {k} {init} " + " ".join(opts))
