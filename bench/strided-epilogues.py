#!/usr/bin/env python3
"""Writes matmuls whose fused epilogue reads strided operands (subviews of
bigger buffers): a bias per column with an offset, a scale per row whose
elements are a stride apart, a residual whose rows are wider than C's;
static or dynamic offsets and strides (each operand drawn), plain or
batched (per-batch operands, or one shared by every matrix), f32, bf16
and f16 inputs. Shapes are drawn log-uniformly per dimension from a seed;
one .mlir file on stdout. tile-opt fuses each epilogue into the kernel;
tile-run verify checks it against a float64 reference (and picks the
dynamic fields: one 16-byte step past the densest, or --layout).

usage: strided-epilogues.py --seed N --count N [--max N]"""
import argparse
import math
import random

# (input, C) element types; the epilogue operands take C's.
TYPES = [("f32", "f32"), ("bf16", "f32"), ("bf16", "bf16"), ("f16", "f16")]
FORMS = ["col", "row", "full", "all"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--max", type=int, default=2048)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    dim = lambda: max(1, int(round(math.exp(rng.uniform(0, math.log(args.max))))))
    print(f"// bench/strided-epilogues.py --seed {args.seed} --count {args.count}"
          f" --max {args.max}")
    for i in range(args.count):
        m, n, k = dim(), dim(), dim()
        ins, out = TYPES[i % len(TYPES)] if i < len(TYPES) else rng.choice(TYPES)
        form = FORMS[i % len(FORMS)] if i < len(FORMS) else rng.choice(FORMS)
        batch = rng.choice([0, 0, 0, rng.randint(1, 4)])
        if batch:
            m, n, k = (min(x, 512) for x in (m, n, k))
        dims = "b, m, n" if batch else "m, n"
        operands = []  # (name, type, map)

        def layout(shape, strides, offset):
            """A strided memref type: each field static or dynamic."""
            dyn = rng.random() < 0.5
            fields = ["?" if dyn and s != 1 else str(s) for s in strides]
            off = "?" if dyn else str(offset)
            return (f"memref<{'x'.join(map(str, shape))}x{out}, "
                    f"strided<[{', '.join(fields)}], offset: {off}>>")

        def vector(length, stride, name, own):
            per_batch = batch and rng.random() < 0.6
            offset = rng.randint(1, 9)
            if per_batch:
                gap = rng.randint(0, 5)
                shape = [batch, length]
                strides = [(length - 1) * stride + 1 + gap, stride]
                mapping = f"(b, {own})"
            else:
                shape, strides, mapping = [length], [stride], f"({own})"
            operands.append((name, layout(shape, strides, offset), mapping))

        if form in ("col", "all"):
            vector(n, 1, "bias", "n")
        if form in ("row", "all"):
            vector(m, rng.randint(1, 4), "scale", "m")
        if form in ("full", "all"):
            per_batch = batch and rng.random() < 0.6
            row = n + rng.randint(0, 24)
            offset = rng.randint(0, 40)
            if per_batch:
                shape = [batch, m, n]
                strides = [m * row + rng.randint(0, 7), row, 1]
                mapping = "(b, m, n)"
            else:
                shape, strides, mapping = [m, n], [row, 1], "(m, n)"
            operands.append(("res", layout(shape, strides, offset), mapping))

        def dense(rows, cols, elem):
            shape = f"{batch}x{rows}x{cols}" if batch else f"{rows}x{cols}"
            return f"memref<{shape}x{elem}>"
        ta, tb, tc = dense(m, k, ins), dense(k, n, ins), dense(m, n, out)
        name = f"sepi{i:03d}"
        params = ", ".join(f"%{o[0]}: {o[1]}" for o in operands)
        print(f"\nfunc.func @{name}(%a: {ta}, %b: {tb}, %c: {tc}, {params}) {{")
        print(f"  %zero = arith.constant 0.0 : {out}")
        print(f"  linalg.fill ins(%zero : {out}) outs(%c : {tc})")
        op = "linalg.batch_matmul" if batch else "linalg.matmul"
        print(f"  {op} ins(%a, %b : {ta}, {tb}) outs(%c : {tc})")
        maps = ", ".join(f"affine_map<({dims}) -> {o[2]}>" for o in operands)
        maps += f", affine_map<({dims}) -> ({dims})>"
        iterators = ", ".join(['"parallel"'] * (3 if batch else 2))
        print(f"  linalg.generic {{indexing_maps = [{maps}], "
              f"iterator_types = [{iterators}]}}")
        print(f"      ins({', '.join('%' + o[0] for o in operands)} : "
              f"{', '.join(o[1] for o in operands)}) outs(%c : {tc}) {{")
        block_args = ", ".join(f"%x_{o[0]}: {out}" for o in operands)
        print(f"  ^bb0({block_args}, %o: {out}):")
        value = "%o"
        for step, (oname, _, _) in enumerate(operands):
            opname = "mulf" if oname == "scale" else "addf"
            print(f"    %s{step} = arith.{opname} {value}, %x_{oname} : {out}")
            value = f"%s{step}"
        print(f"    %r = arith.maximumf {value}, %zero : {out}")
        print(f"    linalg.yield %r : {out}")
        print("  }")
        print("  return")
        print("}")


if __name__ == "__main__":
    main()
