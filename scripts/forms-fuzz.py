#!/usr/bin/env python3
"""Random IR forms of a matmul through tile-opt and tile-interp.

  scripts/forms-fuzz.py [--seed N] [--count N] [--build DIR] [--out DIR]

Each case is a module in one of the forms front ends emit: linalg.generic
contractions with the loops permuted (a batch dimension anywhere), transposes
by indexing maps or by linalg.transpose, batch_matmul, memref.subview
operands, the tensor form (fill, matmul, elementwise ops into tensor.empty),
0-4 epilogue ops in random order (biases, relu, scaling, divf, subf both
ways, residuals, negf, GELU, alpha*x + beta*D, a final truncf), f32 or
bf16/f16 inputs, extents from 1 to about 200. Each goes through
--tile-matmul-tiling and tile-interp (every element against a float64
reference), and the kernels' attributes (tile.matmul, tile.epilogue, the
launch's arguments) are checked against the source evaluated with numpy:
tile-interp builds its reference from those attributes, so it alone cannot
see a lost transpose or a swapped operand. Refused forms are counted, not
failures. Prints each failure with its file and exits 1 if there was one.
Needs numpy (Debian: python3-numpy; run it with /usr/bin/python3). Not part
of the tests.
"""
import argparse, os, random, re, subprocess, sys, json
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "bin")
PRIMES = [1, 2, 3, 5, 7, 11, 13, 17, 23, 31, 37, 41, 53, 61, 67, 97, 101, 127, 131, 197]


def rshape(rnd, hi=200):
    r = rnd.random()
    if r < 0.3:
        return rnd.choice([p for p in PRIMES if p <= hi])
    if r < 0.5:
        return rnd.choice([8, 16, 24, 32, 40, 64, 72, 96, 128])
    return rnd.randint(1, hi)


def fshape(dims, et):
    return "x".join(str(d) for d in dims) + "x" + et


class Gen:
    def __init__(self, rnd):
        self.rnd = rnd
        self.args = []       # (name, type str, logical np-shape, dtype)
        self.lines = []
        self.n = 0

    def tmp(self, p="v"):
        self.n += 1
        return f"%{p}{self.n}"

    def arg(self, name, ty, shape):
        self.args.append((name, ty, shape))
        return "%" + name


def mtype(form, dims, et, layout=None):
    base = "tensor" if form == "tensor" else "memref"
    s = f"{base}<{fshape(dims, et)}"
    if layout:
        s += ", " + layout
    return s + ">"


def draw(rnd, mode=None):
    """Returns dict: src, model (semantics), desc."""
    g = Gen(rnd)
    et = rnd.choice(["f32", "f32", "f32", "bf16", "f16"])
    form = rnd.choice(["memref", "tensor"])
    batched = rnd.random() < 0.25
    B = rnd.randint(1, 4) if batched else None
    big = 200 if et == "f32" else 160
    while True:
        m, n, k = rshape(rnd, big), rshape(rnd, big), rshape(rnd, big)
        if m * n * k * (B or 1) <= (1_500_000 if et == "f32" else 800_000):
            break
    ta, tb = rnd.random() < 0.4, rnd.random() < 0.4
    op_kind = rnd.choice(["generic", "generic", "named"])  # generic contraction or named with maps
    subview = form == "memref" and rnd.random() < 0.35 and not batched
    model = dict(et=et, form=form, B=B, m=m, n=n, k=k, ta=ta, tb=tb, op=op_kind,
                 subview=subview, epi=[], cinit=None, cast=None)
    bd = [B] if batched else []
    Ad = bd + ([k, m] if ta else [m, k])
    Bd = bd + ([n, k] if tb else [k, n])
    Cd = bd + [m, n]
    body = []
    views = {}

    def operand(name, dims, elt):
        if not subview:
            ty = mtype(form, dims, elt)
            return g.arg(name, ty, dims), ty
        # a bigger buffer and a subview at an offset, with a row stride
        o0, o1 = rnd.randint(0, 5), rnd.randint(0, 7)
        s0 = rnd.choice([1, 1, 2, 3])
        s1 = rnd.choice([1, 1, 1, 1, 2])
        R0 = o0 + (dims[0] - 1) * s0 + 1 + rnd.randint(0, 3)
        R1 = o1 + (dims[1] - 1) * s1 + 1 + rnd.randint(0, 9)
        bty = mtype(form, [R0, R1], elt)
        buf = g.arg(name + "buf", bty, [R0, R1])
        lay = f"strided<[{R1 * s0}, {s1}], offset: {o0 * R1 + o1}>"
        ty = mtype(form, dims, elt, lay)
        v = "%" + name
        body.append(f"  {v} = memref.subview {buf}[{o0}, {o1}] [{dims[0]}, {dims[1]}] [{s0}, {s1}] : {bty} to {ty}")
        views[name] = dict(buf=name + "buf", off=(o0, o1), strides=(s0, s1), layout=lay)
        return v, ty

    A, Aty = operand("A", Ad, et)
    Bv, Bty = operand("B", Bd, et)
    model["xpose"] = None
    if form == "tensor" and op_kind == "named" and rnd.random() < 0.6:
        model["xpose"] = True
        perm = "[0, 2, 1]" if batched else "[1, 0]"
        def xp(v, ty, dims):
            nd = dims[:-2] + [dims[-1], dims[-2]]
            nty = mtype("tensor", nd, et)
            ee = g.tmp("e"); r = g.tmp("tp")
            body.append(f"  {ee} = tensor.empty() : {nty}")
            body.append(f"  {r} = linalg.transpose ins({v} : {ty}) outs({ee} : {nty}) permutation = {perm}")
            return r, nty, nd
        # a stored-transposed operand is transposed once; sometimes a plain one twice
        if ta:
            A, Aty, _ = xp(A, Aty, Ad)
        elif rnd.random() < 0.3:
            t1, t1ty, d1 = xp(A, Aty, Ad); A, Aty, _ = xp(t1, t1ty, d1)
        if tb:
            Bv, Bty, _ = xp(Bv, Bty, Bd)
        elif rnd.random() < 0.3:
            t1, t1ty, d1 = xp(Bv, Bty, Bd); Bv, Bty, _ = xp(t1, t1ty, d1)
    # C
    fill = form == "tensor" or rnd.random() < 0.4
    cet = "f32"
    if form == "memref" and et != "f32" and rnd.random() < 0.25:
        cet = et  # 16-bit C in memref form (linalg semantics round per op!)
    if form == "memref":
        C, Cty = operand("C", Cd, cet)
    else:
        Cty = mtype("tensor", Cd, "f32")
    if fill:
        fv = rnd.choice([0.0, 0.0, 0.25, -2.0, 1.5, 0.1])
        model["cinit"] = ("fill", fv)
        body.append(f"  %fv = arith.constant {fv!r} : {cet}")
        if form == "tensor":
            body.append(f"  %e0 = tensor.empty() : {Cty}")
            body.append(f"  %C = linalg.fill ins(%fv : {cet}) outs(%e0 : {Cty}) -> {Cty}")
            C = "%C"
        else:
            body.append(f"  linalg.fill ins(%fv : {cet}) outs({C} : {Cty})")
    else:
        model["cinit"] = ("acc",)
    model["cet"] = cet
    res = " -> " + Cty if form == "tensor" else ""
    resname = "%M = " if form == "tensor" else ""
    # the contraction
    names = (["b"] if batched else []) + ["m", "n", "k"]
    if op_kind == "generic":
        order = names[:]
        rnd.shuffle(order)
        model["loop_order"] = order
        dl = ", ".join(order)
        amap = ("b, " if batched else "") + ("k, m" if ta else "m, k")
        bmap = ("b, " if batched else "") + ("n, k" if tb else "k, n")
        cmap = ("b, " if batched else "") + "m, n"
        its = ", ".join('"reduction"' if d == "k" else '"parallel"' for d in order)
        x, y = ("%x", "%y")
        lines = [f"  ^bb0(%x: {et}, %y: {et}, %acc: {cet}):"]
        if et != "f32":
            lines += [f"    %x32 = arith.extf %x : {et} to f32", f"    %y32 = arith.extf %y : {et} to f32"]
            x, y = "%x32", "%y32"
        if rnd.random() < 0.5:
            x, y = y, x
        lines.append(f"    %p = arith.mulf {x}, {y} : f32")
        acc = "%acc"
        if cet != "f32":
            lines.append(f"    %accw = arith.extf %acc : {cet} to f32")
            acc = "%accw"
        lines.append(f"    %s = arith.addf {acc}, %p : f32" if rnd.random() < 0.5 else f"    %s = arith.addf %p, {acc} : f32")
        out = "%s"
        if cet != "f32":
            lines.append(f"    %st = arith.truncf %s : f32 to {cet}")
            out = "%st"
        lines.append(f"    linalg.yield {out} : {cet}")
        body.append(f"  {resname}linalg.generic {{indexing_maps = [affine_map<({dl}) -> ({amap})>, affine_map<({dl}) -> ({bmap})>, affine_map<({dl}) -> ({cmap})>], iterator_types = [{its}]}} ins({A}, {Bv} : {Aty}, {Bty}) outs({C} : {Cty}) {{")
        body += lines
        body.append("  }" + res)
    else:
        opn = "linalg.batch_matmul" if batched else "linalg.matmul"
        maps = ""
        if (ta or tb or rnd.random() < 0.2) and not model["xpose"]:
            p = "b, " if batched else ""
            dl = p + "m, n, k"
            amap = p + ("k, m" if ta else "m, k")
            bmap = p + ("n, k" if tb else "k, n")
            maps = f"indexing_maps = [affine_map<({dl}) -> ({amap})>, affine_map<({dl}) -> ({bmap})>, affine_map<({dl}) -> ({p}m, n)>] "
        body.append(f"  {resname}{opn} {maps}ins({A}, {Bv} : {Aty}, {Bty}) outs({C} : {Cty}){res}")
    cur = "%M" if form == "tensor" else C
    # epilogue chain
    nops = rnd.choice([0, 1, 1, 2, 2, 3, 4])
    ecount = 0
    cst_id = [0]

    def const(v):
        cst_id[0] += 1
        nm = f"%k{cst_id[0]}"
        body.append(f"  {nm} = arith.constant {v!r} : f32")
        return nm
    if batched:
        idm = "(b, i, j) -> (b, i, j)"
        dl = "(b, i, j)"
        its = '"parallel", "parallel", "parallel"'
    else:
        idm = "(i, j) -> (i, j)"
        dl = "(i, j)"
        its = '"parallel", "parallel"'
    for e in range(nops):
        kind = rnd.choice(["bias_col", "bias_row", "relu", "scale", "residual", "sub_col", "div", "gelu", "neg", "axpby", "named_add", "named_sub"])
        ecount += 1
        ins = []  # (value, type, map)
        # (A named op on a 16-bit C would be of mixed types: a residual
        # written as a generic instead, and modelled as one.)
        if kind in ("named_add", "named_sub") and cet != "f32":
            kind = "residual"
        ent = dict(kind=kind)
        if kind in ("named_add", "named_sub"):
            nm = f"E{e}"
            dims = Cd
            ty = mtype(form, dims, "f32")
            xv = g.arg(nm, ty, dims)
            sw = rnd.random() < 0.5
            opn = "linalg.add" if kind == "named_add" else "linalg.sub"
            model["epi"].append(dict(kind="residual" if kind == "named_add" else "sub_col", arg=nm, per=True, swap=sw, named=True))
            if form == "memref":
                (a, at), (b, bt) = ((xv, ty), (C, Cty)) if sw else ((C, Cty), (xv, ty))
                body.append(f"  {opn} ins({a}, {b} : {at}, {bt}) outs({C} : {Cty})")
            else:
                ee = g.tmp("e")
                body.append(f"  {ee} = tensor.empty() : {Cty}")
                a, b = (xv, cur) if sw else (cur, xv)
                r = g.tmp("r")
                body.append(f"  {r} = {opn} ins({a}, {b} : {Cty}, {Cty}) outs({ee} : {Cty}) -> {Cty}")
                cur = r
            continue
        if kind in ("bias_col", "bias_row", "sub_col", "residual", "axpby"):
            if kind in ("bias_col", "sub_col"):
                per = batched and rnd.random() < 0.5
                dims = ([B] if per else []) + [n]
                mp = f"{dl} -> ({'b, ' if per else ''}j)"
            elif kind == "bias_row":
                per = batched and rnd.random() < 0.5
                dims = ([B] if per else []) + [m]
                mp = f"{dl} -> ({'b, ' if per else ''}i)"
            else:
                per = batched and rnd.random() < 0.7
                dims = ([B] if per else []) + [m, n]
                mp = f"{dl} -> ({'b, ' if per else ''}i, j)"
            xet = "f32" if rnd.random() < 0.8 else rnd.choice(["bf16", "f16"])
            nm = f"E{e}"
            ty = mtype(form, dims, xet)
            ins.append((g.arg(nm, ty, dims), ty, mp, xet))
            ent.update(arg=nm, per=per, xet=xet)
        ent["swap"] = rnd.random() < 0.5
        ent["relu_op"] = rnd.choice(["maximumf", "maxnumf"])
        ent["c"] = rnd.choice([0.5, 1.5, -0.75, 3.0, 0.125])
        ent["c2"] = rnd.choice([-0.25, 2.0, 0.5])
        model["epi"].append(ent)
        # body
        bl = []
        o = "%o"
        xs = ["%x"] if ins else []
        if ins and ins[0][3] != "f32":
            bl.append(f"    %xw = arith.extf %x : {ins[0][3]} to f32")
            xs = ["%xw"]
        sw = ent["swap"]
        if kind in ("bias_col", "bias_row", "residual"):
            a, b = (xs[0], o) if sw else (o, xs[0])
            bl.append(f"    %r = arith.addf {a}, {b} : f32")
        elif kind == "sub_col":
            a, b = (xs[0], o) if sw else (o, xs[0])
            bl.append(f"    %r = arith.subf {a}, {b} : f32")
        elif kind == "relu":
            z = const(0.0)
            a, b = (z, o) if sw else (o, z)
            bl.append(f"    %r = arith.{ent['relu_op']} {a}, {b} : f32")
        elif kind == "scale":
            c = const(ent["c"])
            a, b = (c, o) if sw else (o, c)
            bl.append(f"    %r = arith.mulf {a}, {b} : f32")
        elif kind == "div":
            c = const(ent["c"])
            bl.append(f"    %r = arith.divf {o}, {c} : f32")
        elif kind == "neg":
            bl.append(f"    %r = arith.negf {o} : f32")
        elif kind == "axpby":
            c = const(ent["c"]); c2 = const(ent["c2"])
            bl.append(f"    %p1 = arith.mulf {o}, {c} : f32")
            bl.append(f"    %p2 = arith.mulf {c2}, {xs[0]} : f32")
            bl.append(f"    %r = arith.addf %p1, %p2 : f32")
        elif kind == "gelu":
            h = const(0.5); one = const(1.0); k0 = const(0.797884583); k1 = const(0.044715)
            bl += [f"    %x2 = arith.mulf {o}, {o} : f32", f"    %x3 = arith.mulf %x2, {o} : f32",
                   f"    %t0 = arith.mulf {k1}, %x3 : f32", f"    %t1 = arith.addf {o}, %t0 : f32",
                   f"    %t2 = arith.mulf {k0}, %t1 : f32", f"    %t3 = math.tanh %t2 : f32",
                   f"    %t4 = arith.addf {one}, %t3 : f32", f"    %t5 = arith.mulf {h}, {o} : f32",
                   f"    %r = arith.mulf %t5, %t4 : f32"]
        if form == "memref":
            # in place on C (o is C's element)
            pre = []
            if cet != "f32":
                pre = [f"    %o = arith.extf %ow : {cet} to f32"]
                post = [f"    %rt = arith.truncf %r : f32 to {cet}", f"    linalg.yield %rt : {cet}"]
                oarg = f"%ow: {cet}"
            else:
                post = ["    linalg.yield %r : f32"]
                oarg = "%o: f32"
            maps = ", ".join(f"affine_map<{mp}>" for (_, _, mp, _) in ins) + (", " if ins else "") + f"affine_map<{idm}>"
            insc = f"ins({', '.join(v for v, _, _, _ in ins)} : {', '.join(t for _, t, _, _ in ins)}) " if ins else ""
            bbargs = ", ".join([f"%x: {ins[0][3]}"] if ins else [] + []) + (", " if ins else "") + oarg
            body.append(f"  linalg.generic {{indexing_maps = [{maps}], iterator_types = [{its}]}} {insc}outs({C} : {Cty}) {{")
            body.append(f"  ^bb0({bbargs}):")
            body += pre + bl + post
            body.append("  }")
        else:
            # torch-mlir style: new tensor.empty, matmul result an input (random position)
            e = g.tmp("e")
            body.append(f"  {e} = tensor.empty() : {Cty}")
            allins = [(cur, Cty, idm, "f32", "%o")] + [(v, t, mp, xe, "%x") for v, t, mp, xe in ins]
            if rnd.random() < 0.5:
                allins.reverse()
            maps = ", ".join(f"affine_map<{mp}>" for _, _, mp, _, _ in allins) + f", affine_map<{idm}>"
            bbargs = ", ".join(f"{bn}: {xe}" for _, _, _, xe, bn in allins) + ", %_: f32"
            r = g.tmp("r")
            body.append(f"  {r} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{its}]}} ins({', '.join(v for v, _, _, _, _ in allins)} : {', '.join(t for _, t, _, _, _ in allins)}) outs({e} : {Cty}) {{")
            body.append(f"  ^bb0({bbargs}):")
            body += bl + ["    linalg.yield %r : f32"]
            body.append("  } -> " + Cty)
            cur = r
    rty = Cty
    if form == "tensor" and et != "f32" and rnd.random() < 0.5:
        # final cast to the input type
        castty = et
        rty = mtype("tensor", Cd, castty)
        e = g.tmp("e")
        body.append(f"  {e} = tensor.empty() : {rty}")
        r = g.tmp("r")
        body.append(f"  {r} = linalg.generic {{indexing_maps = [affine_map<{idm}>, affine_map<{idm}>], iterator_types = [{its}]}} ins({cur} : {Cty}) outs({e} : {rty}) {{")
        body.append(f"  ^bb0(%o: f32, %_: {castty}):")
        body.append(f"    %t = arith.truncf %o : f32 to {castty}")
        body.append(f"    linalg.yield %t : {castty}")
        body.append("  } -> " + rty)
        cur = r
        model["cast"] = castty
    sig = ", ".join(f"%{nm}: {ty}" for nm, ty, _ in g.args)
    if form == "tensor":
        src = f"func.func @f({sig}) -> {rty} {{\n" + "\n".join(body) + f"\n  return {cur} : {rty}\n}}\n"
    else:
        src = f"func.func @f({sig}) {{\n" + "\n".join(body) + "\n  return\n}\n"
    model["args"] = [(nm, sh) for nm, _, sh in g.args]
    model["views"] = views
    desc = (f"{form} {op_kind} {et}->{cet} {'B=%d ' % B if batched else ''}{m}x{n}x{k} ta={int(ta)} tb={int(tb)} "
            f"{'subview ' if subview else ''}{'xpose ' if model.get('xpose') else ''}{model['cinit'][0]} epi={[e['kind'] for e in model['epi']]} cast={model['cast']}")
    return dict(src=src, model=model, desc=desc)


# ------------------------------------------------------------------ checks
BAD = re.compile(r"Stack dump|LLVM ERROR|Assertion|PLEASE submit|Segmentation|UNREACHABLE|terminate called")


def parse_attr_dict(s, key):
    i = s.find(key + " = {")
    if i < 0:
        return None
    j = i + len(key) + 3
    depth = 0
    for q in range(j, len(s)):
        if s[q] == "{":
            depth += 1
        elif s[q] == "}":
            depth -= 1
            if depth == 0:
                return s[j:q + 1]
    return None


def semantic(model, out):
    """Compare the kernel's metadata with the source semantics. Returns list of problems."""
    probs = []
    kern = re.findall(r"gpu\.func @(\w+)\((.*?)\) kernel attributes \{(.*)\} \{\n", out)
    if len(kern) != 1:
        return [f"expected 1 kernel, found {len(kern)}"]
    kname, params, attrs = kern[0]
    tm = parse_attr_dict(attrs, "tile.matmul")
    te = parse_attr_dict(attrs, "tile.epilogue")
    if tm is None:
        return ["no tile.matmul"]
    def g(key, default=None):
        mm = re.search(r"\b" + key + r" = ([^,}]+)", tm)
        return mm.group(1).strip() if mm else default
    ta = g("transpose_a") == "true"
    tb = g("transpose_b") == "true"
    if ta != model["ta"] or tb != model["tb"]:
        probs.append(f"transpose flags ta={ta} tb={tb}, want {model['ta']} {model['tb']}")
    for key in "mnk":
        v = int(g(key).split(":")[0])
        if v != model[key]:
            probs.append(f"{key}={v} want {model[key]}")
    ci = g("c_init", "").strip('"')
    if ci == "fill":
        cf = float(g("c_fill").split(":")[0])
        if model["cinit"][0] != "fill":
            probs.append(f"c_init fill {cf} but source accumulates")
        elif abs(cf - model["cinit"][1]) > 1e-2 * (1 + abs(cf)):
            probs.append(f"c_fill {cf} want {model['cinit'][1]}")
    elif ci == "accumulate" and model["cinit"][0] == "fill":
        hf = re.findall(r"linalg\.fill ins\((%[\w\.]+)", out.split("gpu.module")[0])
        if not hf:
            probs.append("c_init accumulate, source fills C, no host fill")
    bat = g("batch")
    if (int(bat.split(":")[0]) if bat else None) != model["B"] and not (model["B"] == 1 and bat is None):
        probs.append(f"batch={bat} want {model['B']}")
    # launch args -> source args
    host = out.split("gpu.module")[0]
    lf = re.search(r"gpu\.launch_func\s+@\S+ .*?args\((.*)\)\n", host)
    if not lf:
        return probs + ["no launch_func"]
    largs = re.findall(r"(%[\w\.]+) : ", lf.group(1))
    defs = {}
    for mm in re.finditer(r"(%[\w\.]+) = (memref\.\w+|bufferization\.\w+) (%[\w\.]+)", host):
        defs[mm.group(1)] = mm.group(3)
    for mm in re.finditer(r"(%[\w\.]+)(?::\d+)? = memref\.alloc", host):
        defs.setdefault(mm.group(1), None)
    fn = re.search(r"func\.func @f\((.*?)\)", host).group(1)
    argnames = [a.split(":")[0].strip() for a in re.findall(r"%arg\d+: ", fn)]
    def root(v):
        seen = 0
        while v in defs and defs[v] is not None and seen < 20:
            v = defs[v]; seen += 1
        return v
    srcargs = [nm for nm, _ in model["args"]]
    def which(v):
        r = root(v)
        mm = re.match(r"%arg(\d+)$", r)
        if mm:
            nm = srcargs[int(mm.group(1))]
            return nm[:-3] if nm.endswith("buf") else nm
        return "alloc:" + r
    roles = [which(v) for v in largs]
    if roles[0] != "A" or roles[1] != "B":
        probs.append(f"launch args A,B map to {roles[:2]}")
    if model["form"] == "memref" and roles[2] != "C":
        probs.append(f"launch C maps to {roles[2]}")
    # kinds and steps
    rng = np.random.default_rng(1)
    m, n, k, Bn = model["m"], model["n"], model["k"], model["B"] or 1
    data = {}
    for nm, sh in model["args"]:
        data[nm] = rng.uniform(-1, 1, size=sh)
    def logical(nm):
        if nm in model["views"]:
            v = model["views"][nm]
            buf = data[v["buf"]]
            (o0, o1), (s0, s1) = v["off"], v["strides"]
            return None, (buf, o0, o1, s0, s1)
        return data[nm], None
    def get(nm, dims):
        arr, sv = logical(nm)
        if sv is None:
            return arr
        buf, o0, o1, s0, s1 = sv
        return buf[o0:o0 + (dims[0] - 1) * s0 + 1:s0, o1:o1 + (dims[1] - 1) * s1 + 1:s1]
    bd = [model["B"]] if model["B"] else []
    A = get("A", bd + ([k, m] if model["ta"] else [m, k]))
    Bm = get("B", bd + ([n, k] if model["tb"] else [k, n]))
    A3 = A.reshape(Bn, *A.shape[-2:]); B3 = Bm.reshape(Bn, *Bm.shape[-2:])
    if model["ta"]: A3 = A3.transpose(0, 2, 1)
    if model["tb"]: B3 = B3.transpose(0, 2, 1)
    prod = A3 @ B3
    if model["cinit"][0] == "fill":
        C0 = np.full((Bn, m, n), model["cinit"][1])
    else:
        C0 = get("C", bd + [m, n]).reshape(Bn, m, n)
    acc = prod + C0
    # expected from source
    def bc(ent):
        x = data[ent["arg"]]
        if ent.get("named"):
            return x.reshape(Bn, m, n)
        if ent["kind"] in ("bias_col", "sub_col"):
            return (x.reshape(Bn, 1, n) if ent["per"] else x.reshape(1, 1, n))
        if ent["kind"] == "bias_row":
            return (x.reshape(Bn, m, 1) if ent["per"] else x.reshape(1, m, 1))
        return x.reshape(Bn, m, n) if ent["per"] else x.reshape(1, m, n)
    want = acc.copy()
    for ent in model["epi"]:
        kd = ent["kind"]
        if kd in ("bias_col", "bias_row", "residual"):
            want = want + bc(ent)
        elif kd == "sub_col":
            want = (bc(ent) - want) if ent["swap"] else (want - bc(ent))
        elif kd == "relu":
            want = np.maximum(want, 0)
        elif kd == "scale":
            want = want * ent["c"]
        elif kd == "div":
            want = want / ent["c"]
        elif kd == "neg":
            want = -want
        elif kd == "axpby":
            want = want * ent["c"] + ent["c2"] * bc(ent)
        elif kd == "gelu":
            want = 0.5 * want * (1 + np.tanh(0.797884583 * (want + 0.044715 * want ** 3)))
    # got from metadata
    if model["epi"] and te is None:
        probs.append("epilogue expected but kernel has none")
        return probs
    got = acc.copy()
    if te is not None:
        kinds = re.findall(r'"(\w+)"', re.search(r"operands = \[(.*?)\]", te).group(1))
        steps = re.findall(r'"([^"]+)"', re.search(r"steps = \[(.*?)\]", te).group(1))
        pb = re.search(r"per_batch = \[(.*?)\]", te)
        perb = [x.strip() == "true" for x in pb.group(1).split(",")] if pb else [False] * len(kinds)
        ps = []
        for j, kd in enumerate(kinds):
            nm = roles[3 + j]
            if nm.startswith("alloc"):
                probs.append(f"epilogue operand {j} from {nm}")
                return probs
            x = data[nm]
            shape = {"col": (1, n), "row": (m, 1), "full": (m, n)}[kd]
            if perb[j]:
                x = x.reshape(Bn, *shape)
            else:
                x = x.reshape(1, *shape)
            ps.append(x)
        vals = []
        def av(a):
            if a == "acc": return acc
            if a[0] == "p" and a[1:].isdigit(): return ps[int(a[1:])]
            if a[0] == "s" and a[1:].isdigit(): return vals[int(a[1:])]
            return float(a)
        for st in steps:
            t = st.split()
            op, xs = t[0], [av(a) for a in t[1:]]
            f = {"addf": lambda a, b: a + b, "subf": lambda a, b: a - b, "mulf": lambda a, b: a * b,
                 "divf": lambda a, b: a / b, "maximumf": np.maximum, "minimumf": np.minimum,
                 "maxnumf": np.fmax, "minnumf": np.fmin, "negf": lambda a: -a, "tanh": np.tanh}[op]
            vals.append(np.broadcast_to(f(*xs), acc.shape))
        got = vals[-1] if vals else acc
    err = np.max(np.abs(got - want)) if want.size else 0
    if not np.isfinite(err) or err > 1e-5 * (1 + np.max(np.abs(want))):
        probs.append(f"metadata semantics differ from source: max abs diff {err:.3g}; steps={te}")
    return probs


def run_case(case, workdir, timeout=120):
    os.makedirs(workdir, exist_ok=True)
    src = os.path.join(workdir, "in.mlir")
    open(src, "w").write(case["src"])
    try:
        c = subprocess.run([f"{BIN}/tile-opt", src, "--tile-matmul-tiling"], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", "tile-opt timeout"
    if BAD.search(c.stderr) or c.returncode < 0:
        return "crash", c.stderr[-3000:]
    if c.returncode != 0:
        if "error:" not in c.stderr:
            return "unclear-diag", c.stderr[-2000:]
        return "refused", c.stderr[-2000:]
    out = c.stdout
    host = out.split("gpu.module")[0]
    left = [l for l in host.splitlines() if re.search(r"linalg\.(?!fill)", l)]
    if left and "warning" not in c.stderr:
        return "silent-skip", "\n".join(left[:5])
    if "gpu.launch_func" not in out:
        if "warning" in c.stderr:
            return "refused-warn", c.stderr[-2000:]
        return "silent-skip", "no kernel"
    open(os.path.join(workdir, "out.mlir"), "w").write(out)
    try:
        r = subprocess.run([f"{BIN}/tile-interp", "-"], input=out, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", "tile-interp timeout"
    if BAD.search(r.stderr) or r.returncode < 0:
        return "crash", "interp: " + r.stderr[-3000:]
    if r.returncode != 0:
        return "interp-fail", (r.stdout + r.stderr)[-2000:]
    if case.get("model") is not None:
        try:
            probs = semantic(case["model"], out)
        except Exception as ex:
            probs = [f"semantic checker exception {ex!r}"]
        if probs:
            return "semantic", "; ".join(probs) + ("\nwarnings: " + c.stderr[-1500:] if c.stderr else "")
    return ("pass-warn" if c.stderr.strip() else "pass"), c.stderr[-1000:] + r.stdout.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--out", default="/tmp/forms-fuzz")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="the build folder whose bin/ has tile-opt and tile-interp")
    ap.add_argument("--keep-pass", action="store_true")
    a = ap.parse_args()
    global BIN
    BIN = os.path.join(a.build, "bin")
    stats = {}
    for i in range(a.count):
        rnd = random.Random(a.seed * 100003 + i)
        case = draw(rnd)
        wd = os.path.join(a.out, f"s{a.seed}-{i}")
        res, msg = run_case(case, wd)
        stats[res] = stats.get(res, 0) + 1
        print(f"[{i}] {res}: {case['desc']}", flush=True)
        if res not in ("pass",):
            print("   " + msg.strip().replace("\n", "\n   ")[:1500], flush=True)
        elif not a.keep_pass:
            import shutil; shutil.rmtree(wd, ignore_errors=True)
    print("STATS", json.dumps(stats))
    # A refusal with an error at an op is an answer; the rest are bugs.
    failures = {"crash", "interp-fail", "semantic", "silent-skip", "timeout",
                "unclear-diag"}
    return 1 if failures & set(stats) else 0


if __name__ == "__main__":
    sys.exit(main())
