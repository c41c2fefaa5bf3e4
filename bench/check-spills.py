#!/usr/bin/env python3
"""Compiles random matmuls with the default pipeline and reports spills.

"A config the compiler picks never spills": draws shapes from a recorded seed
(bench/random-shapes.py), compiles each with tile-opt's default pipeline (the
cost model picks the config; ptxas runs), and reads the manifest's
"resources" (ptxas -v: registers, spill stores and loads, stack bytes). Any
kernel with spills or a stack, and any compile that fails, is reported; the
exit status is 1 if there was one.

  bench/check-spills.py --seed 1 --count 30 [--in bf16,f16] [--aligned]
      [--out DIR] [--jobs N] [--markdown FILE] [--options "..."]
  bench/check-spills.py --seed 1 --total 1000 --in f32 ...
  bench/check-spills.py --seed 1 --count 25 --in f32 --layout nt \
      --options tf32=true          (TF32: B stored N x K)
  bench/check-spills.py --seed 1 --total 300 --in f32 --layout tt \
      --batch-max 8                (batched, A and B transposed)

--count is per size band and element type (random-shapes.py's bands), so
--count 30 with both types compiles 240 shapes; --total N draws N shapes per
element type without band balancing (every extent log-uniform in 1..8192).
f32 matmuls are fma kernels with an f32 C. Needs build/bin/tile-opt
and ptxas (CUDA_HOME, /usr/local/cuda or PATH); no GPU.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def layout_maps(layout, batched):
    """The indexing maps of a matmul whose A (layout[0] == 't': stored
    K x M) or B (layout[1] == 't': stored N x K) is transposed; "" for nn."""
    if layout == "nn":
        return ""
    d, b = ("b, m, n, k", "b, ") if batched else ("m, n, k", "")
    a_map = f"({b}k, m)" if layout[0] == "t" else f"({b}m, k)"
    b_map = f"({b}n, k)" if layout[1] == "t" else f"({b}k, n)"
    return (f"indexing_maps = [affine_map<({d}) -> {a_map}>, "
            f"affine_map<({d}) -> {b_map}>, "
            f"affine_map<({d}) -> ({b}m, n)>]")


def mlir_for(name, m, n, k, init, in_type, out_type, batch=1, layout="nn"):
    """The compile.sh inputs: memrefs (C += A*B) or tensors with a fill; a
    linalg.batch_matmul of `batch` matrices above 1; with `layout` nt, B
    stored N x K (the nn.Linear weight), with tn A stored K x M, tt both
    (a linalg.matmul or batch_matmul with indexing maps)."""
    bs = f"{batch}x" if batch > 1 else ""
    op = "linalg.batch_matmul" if batch > 1 else "linalg.matmul"
    a_shape = f"{k}x{m}" if layout[0] == "t" else f"{m}x{k}"
    b_shape = f"{n}x{k}" if layout[1] == "t" else f"{k}x{n}"
    if layout != "nn":
        op += " " + layout_maps(layout, batch > 1)
    a, b, c = (f"{bs}{a_shape}x{in_type}", f"{bs}{b_shape}x{in_type}",
               f"{bs}{m}x{n}x{out_type}")
    if init == "acc":
        return (f"func.func @{name}(%A: memref<{a}>, %B: memref<{b}>, %C: memref<{c}>) {{\n"
                f"  {op} ins(%A, %B : memref<{a}>, memref<{b}>) outs(%C : memref<{c}>)\n"
                f"  return\n}}\n")
    return (f"func.func @{name}(%A: tensor<{a}>, %B: tensor<{b}>) -> tensor<{c}> {{\n"
            f"  %zero = arith.constant 0.0 : {out_type}\n"
            f"  %empty = tensor.empty() : tensor<{c}>\n"
            f"  %C = linalg.fill ins(%zero : {out_type}) outs(%empty : tensor<{c}>) -> tensor<{c}>\n"
            f"  %R = {op} ins(%A, %B : tensor<{a}>, tensor<{b}>) outs(%C : tensor<{c}>) -> tensor<{c}>\n"
            f"  return %R : tensor<{c}>\n}}\n")


def draw(seed, count, in_type, aligned=False, total=0, batch_max=0):
    """random-shapes.py's lines for one element type (C: f32 or the input
    type, alternating; f32 for f32); batched ones with `batch_max`."""
    size = ["--total", str(total)] if total else ["--count", str(count)]
    if batch_max:
        size += ["--batch-max", str(batch_max)]
    prefix = "s" if in_type == "f32" else in_type[0] + "s"
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "random-shapes.py"),
         "--seed", str(seed), *size, "--prefix", prefix,
         "--in", in_type, "--out", "f32"],
        check=True, capture_output=True, text=True).stdout
    shapes = []
    for i, line in enumerate(l for l in out.splitlines() if l and l[0] != "#"):
        name, m, n, k, init = line.split()[:5]
        batch = next((int(o[len("batch="):]) for o in line.split()[5:]
                      if o.startswith("batch=")), 1)
        out_type = "f32" if i % 2 == 0 else in_type
        n, k = int(n), int(k)
        if aligned:
            # N and K up to multiples of 8: rows of 16 bytes, the TMA.
            n, k = (n + 7) // 8 * 8, (k + 7) // 8 * 8
        shapes.append((name, int(m), n, k, init, in_type, out_type, batch))
    return shapes


def compile_one(tile_opt, out, shape, options, layout="nn"):
    name, m, n, k, init, in_type, out_type, batch = shape
    src = os.path.join(out, name + ".mlir")
    with open(src, "w") as f:
        f.write(mlir_for(name, m, n, k, init, in_type, out_type, batch,
                         layout))
    cmd = [tile_opt, src, "-o", "/dev/null",
           f"--tile-matmul-to-ptx=output-dir={out} {options}".strip()]
    result = subprocess.run(cmd, capture_output=True, text=True)
    manifest = os.path.join(out, name + "_matmul0.json")
    if result.returncode != 0 or not os.path.exists(manifest):
        return shape, None, (result.stderr.strip().splitlines() or ["?"])[-1]
    with open(manifest) as f:
        data = json.load(f)
    return shape, data, None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--count", type=int, default=30,
                   help="shapes per size band and element type")
    p.add_argument("--total", type=int, default=0,
                   help="shapes per element type, without band balancing")
    p.add_argument("--in", dest="types", default="bf16,f16")
    p.add_argument("--aligned", action="store_true",
                   help="round N and K up to multiples of 8 (TMA copies)")
    p.add_argument("--out", help="artifact folder (default: a temporary one)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--tile-opt", default=os.path.join(ROOT, "build", "bin", "tile-opt"))
    p.add_argument("--options", default="",
                   help="extra --tile-matmul-to-ptx options for every shape")
    p.add_argument("--markdown", help="also write the results as Markdown")
    p.add_argument("--batch-max", type=int, default=0,
                   help="batched matmuls: a batch log-uniform in [2, BATCH_MAX] "
                        "per shape (random-shapes.py's --batch-max)")
    p.add_argument("--layout", choices=["nn", "nt", "tn", "tt"], default="nn",
                   help="nt: B stored N x K (the nn.Linear weight), tn: A "
                        "stored K x M, tt: both (matmuls with indexing maps; "
                        "with --in f32 --options tf32=true and B stored "
                        "N x K: TF32 kernels)")
    p.add_argument("--transpose-b", action="store_true",
                   help="the same as --layout nt")
    args = p.parse_args()
    if args.transpose_b:
        if args.layout not in ("nn", "nt"):
            sys.exit("check-spills: --transpose-b is --layout nt")
        args.layout = "nt"
    if not os.access(args.tile_opt, os.X_OK):
        sys.exit(f"check-spills: no tile-opt at {args.tile_opt} (build first)")
    out = args.out or tempfile.mkdtemp(prefix="check-spills-")
    os.makedirs(out, exist_ok=True)
    shapes = []
    for in_type in args.types.split(","):
        shapes += draw(args.seed, args.count, in_type, args.aligned, args.total,
                       args.batch_max)
    start = time.time()
    rows, failures, bad = [], [], []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for shape, data, error in pool.map(
                lambda s: compile_one(args.tile_opt, out, s, args.options,
                                      args.layout), shapes):
            if data is None:
                failures.append((shape, error))
                continue
            res, cfg = data["resources"], data["config"]
            row = (shape, cfg, res)
            rows.append(row)
            if res["spill_stores"] != 0 or res["spill_loads"] != 0 or res["stack_bytes"] != 0:
                bad.append(row)
    elapsed = time.time() - start

    def short(cfg):
        if cfg.get("strategy") == "fma":
            text = (f"{cfg['block'][0]}x{cfg['block'][1]}x{cfg['block'][2]}/"
                    f"{cfg['warp'][0]}x{cfg['warp'][1]}/{cfg['thread'][0]}x{cfg['thread'][1]}/"
                    f"s{cfg['stages']}")
            if cfg.get("split_k", 1) > 1:
                text += f"/k{cfg['split_k']}"
            if cfg.get("occupancy", 0) > 0:
                text += f"/o{cfg['occupancy']}"
            return text
        text = (f"{cfg['block'][0]}x{cfg['block'][1]}x{cfg['block'][2]}/"
                f"{cfg['warp'][0]}x{cfg['warp'][1]}/m64n{cfg['thread'][1]}/s{cfg['stages']}/"
                f"{cfg['copy']}/{'ws' if cfg['specialize'] else 'nows'}/g{cfg['swizzle']}")
        if cfg.get("occupancy", 0) > 1:
            text += f"/o{cfg['occupancy']}"
        return text

    size = (f"{args.total} per type" if args.total
            else f"{args.count} per band and type")
    lines = [f"# check-spills: seed {args.seed}, {len(shapes)} shapes "
             f"({size}: {args.types}), "
             f"options '{args.options}'",
             "",
             f"command: bench/check-spills.py --seed {args.seed} "
             + (f"--total {args.total}" if args.total else f"--count {args.count}") +
             f" --in {args.types}" + (" --aligned" if args.aligned else "") +
             (f" --layout {args.layout}" if args.layout != "nn" else "") +
             (f" --batch-max {args.batch_max}" if args.batch_max else "") +
             (f" --options '{args.options}'" if args.options else ""),
             "",
             "| kernel | batch | M | N | K | C | types | config | registers | spill st/ld B | stack B |",
             "|---|---:|---:|---:|---:|---|---|---|---:|---:|---:|"]
    for shape, cfg, res in sorted(rows, key=lambda r: r[0][0]):
        name, m, n, k, init, in_type, out_type, batch = shape
        # f32 inputs on wgmma are TF32.
        if in_type == "f32" and cfg.get("strategy") == "wgmma":
            in_type = "tf32"
        lines.append(f"| {name} | {batch} | {m} | {n} | {k} | {init} | {in_type}->{out_type} | "
                     f"{short(cfg)} | {res['registers']} | "
                     f"{res['spill_stores']}/{res['spill_loads']} | {res['stack_bytes']} |")
    lines += ["", f"compiled {len(rows)} of {len(shapes)} kernels in {elapsed:.0f} s; "
              f"{len(bad)} with spills or stack, {len(failures)} failed to compile"]
    for shape, error in failures:
        lines.append(f"- FAILED {shape[0]} {shape[1]}x{shape[2]}x{shape[3]}: {error}")
    for shape, cfg, res in bad:
        lines.append(f"- SPILLS {shape[0]} {shape[1]}x{shape[2]}x{shape[3]} {short(cfg)}: "
                     f"{res['spill_stores']} B stores, {res['spill_loads']} B loads, "
                     f"{res['stack_bytes']} B stack")
    text = "\n".join(lines) + "\n"
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    print(text if args.markdown is None else "\n".join(lines[-(len(failures) + len(bad) + 1):]))
    if not args.out:
        shutil.rmtree(out, ignore_errors=True)
    sys.exit(1 if bad or failures else 0)


if __name__ == "__main__":
    main()
