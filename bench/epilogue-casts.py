#!/usr/bin/env python3
"""Writes matmuls in the tensor form torch-mlir emits whose epilogue ends in
a cast of the f32 result to bf16 or f16 (the inputs' type): C filled with a
constant the type holds, then, each op writing a new tensor.empty, a bias
per column or row (f32, or the 16-bit type widened), then ReLU, GELU (tanh
form), a scale by a 16-bit residual or nothing, then the cast (alone, or
in the last op). Plain or batched (per-batch bias), B row-major or stored
N x K. Shapes are drawn log-uniformly per dimension from a seed; one .mlir
file on stdout. tile-canonicalize-contractions makes each chain store the
16-bit type and tile-fuse-epilogues fuses it; tile-run verify and
tile-interp check the kernel against a float64 reference of the same
program (C kept in f32 until stored, rounded once).

usage: epilogue-casts.py --seed N --count N [--max N]"""
import argparse
import math
import random


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--max", type=int, default=2048)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    dim = lambda: max(1, int(round(math.exp(rng.uniform(0, math.log(args.max))))))
    print(f"// bench/epilogue-casts.py --seed {args.seed} --count {args.count}"
          f" --max {args.max}")
    for i in range(args.count):
        m, n, k = dim(), dim(), dim()
        t = rng.choice(["bf16", "f16"])
        batch = rng.choice([0, 0, rng.randint(1, 6)])
        if batch:
            m, n, k = (min(x, 512) for x in (m, n, k))
        nt = rng.random() < 0.4
        start = rng.choice(["0.0", "0.0", "1.0", "-2.0", "0.5"])
        bias = rng.choice(["col", "row", "none"])
        bias_type = rng.choice(["f32", t])
        act = rng.choice(["relu", "gelu", "scale", "none"])
        fold_cast = rng.random() < 0.5  # the cast in the last op
        b = f"{batch}x" if batch else ""
        bl = "b, " if batch else ""
        par = ", ".join(['"parallel"'] * (3 if batch else 2))
        idm = f"affine_map<({bl}m, n) -> ({bl}m, n)>"
        sa, sb = f"{b}{m}x{k}x{t}", (f"{b}{n}x{k}x{t}" if nt else f"{b}{k}x{n}x{t}")
        s32, s16 = f"{b}{m}x{n}xf32", f"{b}{m}x{n}x{t}"
        args_ = [f"%x: tensor<{sa}>", f"%w: tensor<{sb}>"]
        body = []
        if bias != "none":
            length = n if bias == "col" else m
            shape = f"{batch}x{length}" if batch else f"{length}"
            args_.append(f"%bias: tensor<{shape}x{bias_type}>")
        if act == "scale":
            args_.append(f"%s: tensor<{s16}>")
        name = f"ec{i:03d}"
        print(f"// {name}: {batch or 1} x {m}x{n}x{k} {t}{' B stored N x K' if nt else ''},"
              f" C from {start}, bias {bias} ({bias_type}), {act}, cast"
              f" {'in the last op' if fold_cast and (bias != 'none' or act != 'none') else 'alone'}")
        print(f"func.func @{name}({', '.join(args_)}) -> tensor<{s16}> {{")
        print(f"  %v = arith.constant {start} : f32")
        print(f"  %zero = arith.constant 0.0 : f32")
        print(f"  %e = tensor.empty() : tensor<{s32}>")
        print(f"  %c = linalg.fill ins(%v : f32) outs(%e : tensor<{s32}>) -> tensor<{s32}>")
        op = "linalg.batch_matmul" if batch else "linalg.matmul"
        maps = ""
        if nt:
            maps = (f"indexing_maps = [affine_map<({bl}m, n, k) -> ({bl}m, k)>, "
                    f"affine_map<({bl}m, n, k) -> ({bl}n, k)>, "
                    f"affine_map<({bl}m, n, k) -> ({bl}m, n)>] ")
        print(f"  %r0 = {op} {maps}ins(%x, %w : tensor<{sa}>, tensor<{sb}>) "
              f"outs(%c : tensor<{s32}>) -> tensor<{s32}>")
        ops = []  # (extra inputs [(value, type, map)], body lines on %o -> %y)
        if bias != "none":
            own = "n" if bias == "col" else "m"
            bmap = f"affine_map<({bl}m, n) -> ({bl}{own})>"
            shape = f"{batch}x{n if bias == 'col' else m}" if batch else f"{n if bias == 'col' else m}"
            widen = [] if bias_type == "f32" else [f"%bw = arith.extf %in1 : {t} to f32"]
            bv = "%in1" if bias_type == "f32" else "%bw"
            ops.append(([("%bias", f"tensor<{shape}x{bias_type}>", bmap, bias_type)],
                        widen + [f"%y = arith.addf %o, {bv} : f32"]))
        if act == "relu":
            ops.append(([], ["%y = arith.maximumf %o, %zero : f32"]))
        elif act == "gelu":
            ops.append(([], [
                "%half = arith.constant 0.5 : f32", "%one = arith.constant 1.0 : f32",
                "%k0 = arith.constant 0.7978845608 : f32", "%k1 = arith.constant 0.044715 : f32",
                "%o2 = arith.mulf %o, %o : f32", "%o3 = arith.mulf %o2, %o : f32",
                "%a = arith.mulf %o3, %k1 : f32", "%inner = arith.addf %o, %a : f32",
                "%arg = arith.mulf %inner, %k0 : f32", "%th = math.tanh %arg : f32",
                "%onep = arith.addf %th, %one : f32", "%hv = arith.mulf %o, %half : f32",
                "%y = arith.mulf %hv, %onep : f32"]))
        elif act == "scale":
            ops.append(([("%s", f"tensor<{s16}>", idm, t)],
                        [f"%sw = arith.extf %in1 : {t} to f32", "%y = arith.mulf %sw, %o : f32"]))
        if not (fold_cast and ops):
            ops.append(([], []))  # the cast alone
        last = len(ops) - 1
        value = "%r0"
        for j, (extra, lines) in enumerate(ops):
            cast = j == last
            out_t = t if cast else "f32"
            out_s = s16 if cast else s32
            print(f"  %e{j + 1} = tensor.empty() : tensor<{out_s}>")
            ins = [(value, f"tensor<{s32}>", idm, "f32")] + extra
            maps = ", ".join(x[2] for x in ins) + ", " + idm
            operands = ", ".join(x[0] for x in ins)
            types = ", ".join(x[1] for x in ins)
            print(f"  %r{j + 1} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{par}]}} "
                  f"ins({operands} : {types}) outs(%e{j + 1} : tensor<{out_s}>) {{")
            bargs = ", ".join([f"%o: f32"] + [f"%in{q + 1}: {x[3]}" for q, x in enumerate(extra)]
                              + [f"%_: {out_t}"])
            print(f"  ^bb0({bargs}):")
            for line in lines:
                print(f"    {line}")
            result = "%y" if lines else "%o"
            if cast:
                print(f"    %t = arith.truncf {result} : f32 to {t}")
                result = "%t"
            print(f"    linalg.yield {result} : {out_t}")
            print(f"  }} -> tensor<{out_s}>")
            value = f"%r{j + 1}"
        print(f"  return {value} : tensor<{s16}>")
        print("}")


if __name__ == "__main__":
    main()
