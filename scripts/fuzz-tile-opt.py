#!/usr/bin/env python3
"""Drives tile-opt through generated and mutated inputs, looking for crashes.

Each input is an MLIR module and a tile-opt command line:

  matmul    random linalg.matmul modules: shapes with 0, 1, odd, large, huge
            and dynamic extents, bf16/f16 inputs with f32 or 16-bit C (the
            wgmma strategy), element types no strategy takes, memref and
            tensor forms, fills before the matmul, transposed operands,
            layouts, memory spaces, several matmuls and functions, with or
            without a #tile.config, valid or not
  config    #tile.config attributes of both strategies with random (often
            invalid) fields, on f32 and bf16/f16 matmuls
  options   random option strings for --tile-matmul-to-ptx and the single
            passes, in and out of pipeline order
  kernel    a well-formed module through the first passes of either
            strategy's chain (stopped at a random stage; the output is
            printed and parsed again, so each later pass must load the
            dialects it creates), its kernels' attributes (tile.matmul, tile.stage,
            tile.config, tile.dynamic_shared_bytes, tile.c_alignment, ...)
            or bodies (an op deleted or repeated, a constant changed, two
            values swapped) then edited, then the remaining passes, often
            with the NVVM lowering, tile-export and tile-report
  mutate    byte- and token-level mutations of the .mlir inputs under test/
            and examples/

Most inputs are well-formed, so that they reach the later passes; about a
third ("wild") bend every rule.

ptxas is never the one of the machine (CI has none): always "off", a path
that does not exist, or a fake ptxas the fuzzer writes (one that fails, one
that writes no cubin, one that reports garbage).

A run is a crash when tile-opt dies of a signal, exits with a status other
than 0 or 1, or prints what LLVM, the C++ runtime or a sanitizer prints when
something went wrong (a line that begins "PLEASE submit a bug report",
"Stack dump:", "LLVM ERROR:", "==N==ERROR: AddressSanitizer", "file:line:col:
runtime error:", ...; tile-opt's errors quote input lines, which may contain
the same words elsewhere); a hang when it runs past --timeout. Each crash and hang is saved (input, command,
output) under --work-dir/crashes. The last line is
"N inputs, N crashes, N timeouts"; the exit status is 1 if either is not 0.

  scripts/fuzz-tile-opt.py --tile-opt build/bin/tile-opt --seed 1 --count 300
"""

import argparse
import concurrent.futures
import hashlib
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What LLVM, the C++ runtime, glibc and the sanitizers print when something
# went wrong (a signal or an unexpected exit status counts by itself). Each
# pattern must match a whole line's beginning: tile-opt's errors quote the
# input's lines, and an input may contain these words.
CRASH_LINES = re.compile(
    r"^(?:PLEASE submit a bug report|Stack dump:|LLVM ERROR:|"
    r"==\d+==ERROR: (?:Address|Leak|UndefinedBehavior)Sanitizer|"
    r"SUMMARY: (?:Address|Leak|UndefinedBehavior)Sanitizer|"
    r"\S+:\d+:\d+: runtime error: |"
    r".*: Assertion `.*' failed\.$|UNREACHABLE executed|terminate called|"
    r"double free or corruption|free\(\): invalid|malloc\(\): |corrupted size|"
    r"corrupted double-linked)", re.M)

# --- values ------------------------------------------------------------------

EXTENTS = [0, 1, 1, 2, 3, 4, 5, 7, 8, 8, 9, 15, 16, 16, 17, 31, 32, 32, 33,
           63, 64, 64, 65, 96, 100, 127, 128, 128, 129, 255, 256, 257, 333,
           512, 1000, 1024, 2048, 4093, 4095, 4096, 4097, 8192, 65536,
           2097152, 2147483647, 2147483648, 4294967296, 9223372036854775807]
SMALL = [1, 2, 3, 4, 8, 16, 32, 64, 128]
INTS = [-(2 ** 63), -(2 ** 31), -1024, -129, -8, -1, 0, 1, 2, 3, 4, 5, 7, 8,
        16, 32, 33, 64, 96, 128, 256, 1024, 1025, 4096, 65535, 65536, 65537,
        2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 62, 2 ** 63 - 1]
ELEMENT_TYPES = ["f32"] * 12 + ["f16", "bf16", "f64", "i32", "i8", "i1",
                                "index", "complex<f32>"]


NICE_EXTENTS = [1, 2, 4, 7, 8, 16, 31, 32, 33, 64, 65, 100, 127, 128, 129,
                200, 256, 333, 512, 1000, 4095]


def pick_extent(rng, wild):
    if wild and rng.random() < 0.1:
        return "?"
    if not wild or rng.random() < 0.6:
        return rng.choice(NICE_EXTENTS)
    return rng.choice(EXTENTS)


def pick_int(rng):
    if rng.random() < 0.4:
        return rng.choice(SMALL)
    return rng.choice(INTS)


def small_or_int(rng, common):
    return rng.choice(common) if rng.random() < 0.6 else pick_int(rng)


# --- #tile.config -----------------------------------------------------------

def valid_tiles(rng):
    """Tile sizes that satisfy the consistency rules (warp of 32 lanes)."""
    tm, tn = rng.choice([(1, 1), (1, 2), (2, 2), (2, 4), (4, 4), (4, 8),
                         (8, 4), (8, 8), (8, 16), (16, 8), (4, 2), (2, 1)])
    lm = rng.choice([1, 2, 4, 8, 16, 32])
    ln = 32 // lm
    wm, wn = tm * lm, tn * ln
    bm = wm * rng.choice([1, 1, 2, 4, 8])
    bn = wn * rng.choice([1, 1, 2, 4])
    while bm * bn > 128 * 128 and rng.random() < 0.9:
        bm, bn = max(wm, bm // 2), max(wn, bn // 2)
    bk = rng.choice([1, 2, 4, 8, 8, 16, 32, 64])
    return [bm, bn, bk], [wm, wn], [tm, tn]


def random_wgmma_config(rng, wild):
    """A #tile.config of the wgmma strategy: block, warpgroup and mma tiles
    that fit together (64-row warpgroups, B in 64-column chunks), a ring of
    stages, the copy kind, specialization, repacking; or (wild) often not."""
    def odd(p):
        return wild and rng.random() < p
    bm = rng.choice([64, 128, 128, 256])
    bn = rng.choice([64, 128, 256, 256])
    wm = 64 if not odd(0.2) else rng.choice([128, 32, bm])
    wn = rng.choice([bn, bn // 2 if bn > 64 else bn])
    inst = rng.choice([n for n in (wn, 128, 64, 32, 16) if n <= wn and wn % n == 0])
    bk = 64 if not odd(0.3) else rng.choice([16, 32, 128, pick_int(rng)])
    fields = [("strategy", "wgmma"),
              ("block", "[{}, {}, {}]".format(bm, bn, bk)),
              ("warpgroup", "[{}, {}]".format(wm, wn)),
              ("mma", "[64, {}, {}]".format(inst, 16 if not odd(0.2) else rng.choice([8, 32])))]
    if rng.random() < 0.8:
        fields.append(("stages", str(rng.choice([1, 2, 3, 4, 7, 9, 14]) if not odd(0.3)
                                     else pick_int(rng))))
    if rng.random() < 0.6:
        fields.append(("copy", rng.choice(["tma", "tma", "registers", "cp_async"])
                       if not odd(0.2) else rng.choice(["dma", "\"tma\""])))
    if rng.random() < 0.6:
        fields.append(("specialize", rng.choice(["true", "false"])))
    if rng.random() < 0.4:
        fields.append(("repack", rng.choice(["true", "false"])))
    if rng.random() < 0.4:
        fields.append(("swizzle", str(rng.choice([1, 8, 16]) if not odd(0.3) else pick_int(rng))))
    if rng.random() < 0.4:
        fields.append(("smem", "swizzle128" if not odd(0.4) else rng.choice(["none", "pad(4)", "xor"])))
    if rng.random() < 0.3:
        fields.append(("occupancy", str(rng.choice([0, 1, 2, 4]) if not odd(0.3) else pick_int(rng))))
    if odd(0.1):
        fields.append(rng.choice([("warp", "[64, 64]"), ("thread", "[8, 8]"), ("split_k", "2"),
                                  ("prefetch", "true")]))
    if odd(0.3):
        rng.shuffle(fields)
    if odd(0.05):
        fields.append(rng.choice(fields))
    return "#tile.config<" + ", ".join(k + " = " + v for k, v in fields) + ">"


def random_config(rng, wild, wgmma=False):
    """A #tile.config: well-formed fields with sensible values, or (wild)
    often not. wgmma: mostly of the wgmma strategy (bf16/f16 inputs)."""
    def odd(p):
        return wild and rng.random() < p
    if rng.random() < (0.8 if wgmma else 0.05):
        return random_wgmma_config(rng, wild)
    if not odd(0.5):
        block, warp, thread = valid_tiles(rng)
    else:
        block = [small_or_int(rng, [8, 16, 32, 64, 128, 256]) for _ in range(3)]
        warp = [small_or_int(rng, [16, 32, 64]) for _ in range(2)]
        thread = [small_or_int(rng, [2, 4, 8]) for _ in range(2)]
        if odd(0.1):
            block = block[:rng.randint(0, 4)]
        if odd(0.1):
            warp = warp + [1]
    fields = [("block", "[" + ", ".join(map(str, block)) + "]"),
              ("warp", "[" + ", ".join(map(str, warp)) + "]"),
              ("thread", "[" + ", ".join(map(str, thread)) + "]")]
    if rng.random() < 0.6:
        fields.append(("stages", str(rng.choice([1, 2, 2, 3, 4, 8]) if not odd(0.4)
                                     else pick_int(rng))))
    if rng.random() < 0.4:
        fields.append(("swizzle", str(rng.choice([1, 2, 4, 8, 16]) if not odd(0.4)
                                      else pick_int(rng))))
    if rng.random() < 0.4:
        fields.append(("smem", rng.choice(["none", "pad(4)", "pad(0)", "pad(8)"]) if not odd(0.5)
                       else rng.choice(["xor", "pad(" + str(pick_int(rng)) + ")", "pad", "wide"])))
    if rng.random() < 0.4:
        fields.append(("prefetch", rng.choice(["true", "false"]) if not odd(0.3)
                       else rng.choice(["yes", "1"])))
    if rng.random() < 0.3:
        fields.append(("occupancy", str(rng.choice([0, 1, 2, 4]) if not odd(0.4)
                                        else pick_int(rng))))
    if rng.random() < 0.3:
        fields.append(("split_k", str(rng.choice([1, 2, 3, 4, 16]) if not odd(0.4)
                                      else pick_int(rng))))
    rng.shuffle(fields)
    if odd(0.05):
        fields.append(rng.choice(fields))  # a field twice
    if odd(0.03):
        fields.append(("tile", "3"))
    text = "#tile.config<" + ", ".join(k + " = " + v for k, v in fields) + ">"
    if odd(0.05):
        text = rng.choice(['"block=64,64,8"', "#tile.config", "#tile.config<>",
                           text.replace(" = ", " ", 1), text[:-1]])
    return text


# --- matmul modules ---------------------------------------------------------

def shaped(form, shape, elem, layout="", space=""):
    dims = "x".join(str(d) for d in shape)
    if form == "tensor":
        return "tensor<{}x{}>".format(dims, elem)
    extra = ""
    if layout:
        extra += ", " + layout
    if space:
        extra += ", " + space
    return "memref<{}x{}{}>".format(dims, elem, extra)


def random_function(rng, name, wild, half_share=0.3):
    """half_share: the share of matmuls with bf16/f16 inputs (wgmma)."""
    def odd(p):
        return wild and rng.random() < p
    form = "tensor" if rng.random() < 0.35 else "memref"
    count = rng.choice([1, 1, 1, 2, 3])
    args, body, values = [], [], 0
    results = []
    for i in range(count):
        m, n, k = pick_extent(rng, wild), pick_extent(rng, wild), pick_extent(rng, wild)
        elem = rng.choice(ELEMENT_TYPES) if odd(0.3) else "f32"
        out_elem = rng.choice(ELEMENT_TYPES) if odd(0.1) else elem
        # The tensor-core strategy: bf16/f16 inputs, C f32 or the input type.
        if not odd(0.3) and rng.random() < half_share:
            elem = rng.choice(["bf16", "f16"])
            out_elem = rng.choice(["f32", elem])
        layout = space = ""
        if form == "memref" and odd(0.1):
            layout = "strided<[{}, 1]>".format(rng.choice([k, 2 * (k if k != "?" else 1), 1]) if k != "?" else "?")
        if form == "memref" and odd(0.05):
            space = rng.choice(["#gpu.address_space<workgroup>", "1"])
        transposed = odd(0.08)
        a_shape = [k, m] if transposed else [m, k]
        ta = shaped(form, a_shape, elem, layout, space)
        tb = shaped(form, [k, n], elem)
        tc = shaped(form, [m, n], out_elem)
        args += ["%a{}: {}".format(i, ta), "%b{}: {}".format(i, tb)]
        maps = ""
        if transposed:
            maps = ("indexing_maps = [affine_map<(m, n, k) -> (k, m)>, "
                    "affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ")
        attr = ""
        if rng.random() < 0.5:
            attr = "{tile.config = " + random_config(rng, wild, elem in ("bf16", "f16")) + "} "
        fill = rng.random() < 0.35
        if form == "memref":
            args.append("%c{}: {}".format(i, tc))
            if fill and "?" not in tc:
                cst = "%cst{}".format(i)
                body.append("  {} = arith.constant {} : {}".format(
                    cst, rng.choice(["0.0", "1.0", "-2.5", "0.25"]) if out_elem in ("f32", "f16", "bf16", "f64") else "0",
                    out_elem if out_elem in ("f32", "f16", "bf16", "f64", "i32", "i8", "i1", "index") else "f32"))
                body.append("  linalg.fill ins({} : {}) outs(%c{} : {})".format(
                    cst, out_elem if out_elem in ("f32", "f16", "bf16", "f64", "i32", "i8", "i1", "index") else "f32", i, tc))
            body.append("  linalg.matmul {}{}ins(%a{}, %b{} : {}, {}) outs(%c{} : {})".format(
                attr, maps, i, i, ta, tb, i, tc))
        else:
            if fill and "?" not in tc and out_elem in ("f32", "f16", "bf16"):
                body.append("  %e{} = tensor.empty() : {}".format(i, tc))
                body.append("  %z{} = arith.constant {} : {}".format(i, rng.choice(["0.0", "1.5"]), out_elem))
                body.append("  %c{} = linalg.fill ins(%z{} : {}) outs(%e{} : {}) -> {}".format(
                    i, i, out_elem, i, tc, tc))
            else:
                args.append("%c{}: {}".format(i, tc))
            body.append("  %r{} = linalg.matmul {}{}ins(%a{}, %b{} : {}, {}) outs(%c{} : {}) -> {}".format(
                i, attr, maps, i, i, ta, tb, i, tc, tc))
            results.append(("%r{}".format(i), tc))
    if results:
        body.append("  return " + ", ".join(r for r, _ in results) + " : " +
                    ", ".join(t for _, t in results))
        sig = "({}) -> ({})".format(", ".join(args), ", ".join(t for _, t in results))
        head = "func.func @{}({}) -> ({}) {{".format(name, ", ".join(args),
                                                   ", ".join(t for _, t in results))
    else:
        body.append("  return")
        head = "func.func @{}({}) {{".format(name, ", ".join(args))
    return "\n".join([head] + body + ["}"])


def random_module(rng, wild, half_share=0.3):
    funcs = [random_function(rng, "f{}".format(i), wild, half_share)
             for i in range(rng.choice([1, 1, 1, 2, 3]))]
    return "\n\n".join(funcs) + "\n"


# --- options -----------------------------------------------------------------

def list_value(rng, n, wild):
    if not wild or rng.random() < 0.6:
        return ",".join(str(rng.choice([4, 8, 16, 32, 64, 128])) for _ in range(n))
    return ",".join(str(pick_int(rng)) for _ in range(rng.choice([0, 1, 2, 3, 4])))


def config_options(rng, wild):
    def odd(p):
        return wild and rng.random() < p
    opts = []
    if rng.random() < 0.25:
        block, warp, thread = valid_tiles(rng)
        opts += ["block=" + ",".join(map(str, block)), "warp=" + ",".join(map(str, warp)),
                 "thread=" + ",".join(map(str, thread))]
    else:
        if odd(0.15):
            opts.append("block=" + list_value(rng, 3, wild))
        if odd(0.15):
            opts.append("warp=" + list_value(rng, 2, wild))
        if odd(0.15):
            opts.append("thread=" + list_value(rng, 2, wild))
    for name, common in [("stages", [0, 1, 2, 3, 4]), ("swizzle", [0, 1, 4, 8]),
                         ("occupancy", [0, 1, 2, 4]), ("split-k", [0, 1, 2, 4])]:
        if rng.random() < 0.15:
            opts.append("{}={}".format(name, small_or_int(rng, common) if wild
                                       else rng.choice(common)))
    if rng.random() < 0.12:
        opts.append("smem=" + (rng.choice(["none", "pad4", "pad8", "pad<4>", "pad(2)"])
                               if not odd(0.4) else
                               rng.choice(["xor", "wide", "pad-4", "pad", "pad99999999999"])))
    if rng.random() < 0.12:
        opts.append("prefetch=" + (rng.choice(["true", "false"]) if not odd(0.3)
                                   else rng.choice(["yes", ""])))
    if rng.random() < 0.1:
        opts.append("chip=" + (rng.choice(["sm_90", "sm_80"]) if not odd(0.3)
                               else rng.choice(["sm_70", "sm_100", "x"])))
    if rng.random() < 0.1:
        opts.append("occupancy-hint=" + rng.choice(["true", "false"]))
    if rng.random() < 0.12:
        opts.append("copy=" + (rng.choice(["tma", "registers", "cp_async", ""]) if not odd(0.3)
                               else rng.choice(["dma", "tma,registers"])))
    if rng.random() < 0.1:
        opts.append("specialize=" + (rng.choice(["true", "false", ""]) if not odd(0.3) else "2"))
    if rng.random() < 0.1:
        opts.append("repack=" + (rng.choice(["true", "false", ""]) if not odd(0.3) else "maybe"))
    if rng.random() < 0.1:
        opts.append("tuning-table=" + rng.choice(
            ["none", os.path.join(ROOT, "tuning", "h200-f32.json"),
             os.path.join(ROOT, "tuning", "h200-bf16.json")] if not odd(0.3) else
            ["/nonexistent.json",
             os.path.join(ROOT, "test", "Transforms", "Inputs", "tuning-table-truncated.json")]))
    return opts


def ptxas_value(rng, fakes, wild):
    if not wild:
        return rng.choice(["off"] * 8 + [fakes[2]])
    return rng.choice(["off"] * 4 + ["/nonexistent/ptxas"] + fakes)


def pipeline_options(rng, outdir, fakes, wild):
    def odd(p):
        return wild and rng.random() < p
    opts = config_options(rng, wild)
    if rng.random() < 0.1:
        opts.append("ptx-version=" + (rng.choice(["8.0", "8.3", "7.8"]) if not odd(0.5)
                                      else rng.choice(["7.0", "9.9", "x", "8", ""])))
    if rng.random() < 0.1:
        opts.append("opt-level=" + str(rng.choice([0, 1, 2, 3]) if not odd(0.3)
                                       else rng.choice([4, 99])))
    if rng.random() < 0.1:
        opts.append("index-bitwidth=" + str(rng.choice([0, 32, 64]) if not odd(0.3)
                                            else rng.choice([16, 1])))
    if rng.random() < 0.1:
        opts.append("fma-order=" + (rng.choice(["pairs", "rows"]) if not odd(0.3) else "columns"))
    if rng.random() < 0.1:
        opts.append("vector-c=" + rng.choice(["true", "false"]))
    if rng.random() < 0.3:
        opts.append("report=" + rng.choice(["true", "false"]))
    if rng.random() < 0.6:
        opts.append("output-dir=" + (outdir if not odd(0.2)
                                     else rng.choice(["/proc/tile-fuzz", "/dev/null/x"])))
    opts.append("ptxas=" + ptxas_value(rng, fakes, wild))
    rng.shuffle(opts)
    return opts


PASSES = ["tile-configure", "tile-block-tile", "tile-promote-shared", "tile-warp-tile",
          "tile-thread-tile", "tile-pipeline"]
# The wgmma strategy's chain (bf16/f16 kernels); each pass leaves the other
# strategy's kernels alone.
WGMMA_PASSES = ["tile-configure", "tile-block-tile", "tile-promote-shared",
                "tile-warpgroup-tile", "tile-wgmma", "tile-mbarrier-pipeline"]


def pass_flags(rng, outdir, fakes, wild, upto=None, chain=None):
    """Command-line flags for the tile passes (and sometimes the rest of the
    pipeline), in order, or (wild) sometimes not. chain: PASSES or
    WGMMA_PASSES (default: either)."""
    PASSES = chain or rng.choice([globals()["PASSES"], WGMMA_PASSES])
    if upto is None and rng.random() < 0.45:
        name = rng.choice(["tile-matmul-to-ptx"] * 3 + ["tile-matmul-tiling"])
        opts = pipeline_options(rng, outdir, fakes, wild)
        if name == "tile-matmul-tiling":
            opts = [o for o in opts if not o.startswith(("output-dir=", "ptxas=", "ptx-version=", "opt-level="))]
        return ['--{}={}'.format(name, " ".join(opts))]
    if upto is not None:
        passes = PASSES[:upto]
    elif not wild or rng.random() < 0.6:
        passes = PASSES[:rng.randint(1, len(PASSES))]
    else:
        passes = [rng.choice(PASSES) for _ in range(rng.randint(1, 5))]
    flags = []
    # Tensors become memrefs as in tile-matmul-to-ptx (a no-op on memrefs).
    if upto is not None or rng.random() < 0.8:
        flags.append("--one-shot-bufferize=bufferize-function-boundaries "
                     "function-boundary-type-conversion=identity-layout-map")
    for p in passes:
        opts = []
        if p == "tile-configure":
            opts = config_options(rng, wild)
        elif p == "tile-block-tile" and rng.random() < 0.2:
            opts = ["index-bitwidth=" + str(rng.choice([0, 32, 64] + [16] * wild))]
        elif p == "tile-thread-tile" and rng.random() < 0.2:
            opts = ["fma-order=" + rng.choice(["pairs", "rows"] + ["x"] * wild),
                    "vector-c=" + rng.choice(["true", "false"])]
        flags.append("--{}{}".format(p, "=" + " ".join(opts) if opts else ""))
    if upto is None and rng.random() < 0.1:
        flags.append("--tile-report" + rng.choice(["", "=chip=sm_80"] + ["=chip=sm_75"] * wild))
    return flags


def export_flags(rng, outdir, fakes, passes):
    """`passes` (tile passes), then the lowering of tile-matmul-to-ptx, then
    tile-export (and sometimes the report), as one --pass-pipeline."""
    opts = ["ptxas=" + ptxas_value(rng, fakes, wild=True)]
    if rng.random() < 0.7:
        opts.append("output-dir=" + outdir)
    # The lowering of tile-matmul-to-ptx (lib/Pipelines/Pipelines.cpp).
    steps = passes + [
        "canonicalize", "cse", "tile-tensor-map-params{phase=gpu}",
        "gpu.module(fold-memref-alias-ops,expand-strided-metadata,lower-affine,"
        "convert-scf-to-cf,strip-debuginfo,tile-lower-nvgpu,"
        "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-nvvm-to-llvm,"
        "tile-extern-dynamic-shared,llvm-optimize-for-nvvm-target,canonicalize,cse,"
        "reconcile-unrealized-casts)",
        "tile-tensor-map-params{phase=llvm}",
        "tile-attach-target{chip=sm_90 features=+ptx80}",
        "tile-export{" + " ".join(opts) + "}"]
    if rng.random() < 0.4:
        steps.append("tile-report")
    return ["--pass-pipeline=builtin.module(" + ",".join(steps) + ")"]


# --- kernels with edited attributes ------------------------------------------

ATTR_EDITS = [
    (r"(tile\.matmul = \{)[^}]*(\})", lambda rng: r"\g<1>" + rng.choice([
        'c_init = "accumulate", k = 8 : i64, n = 8 : i64',
        'c_init = "fill", k = 8 : i64, m = 8 : i64, n = 8 : i64',
        'c_init = "fill", c_fill = 1.0 : f64, k = 8 : i64, m = 8 : i64, n = 8 : i64',
        'c_init = "sum", k = 8 : i64, m = 8 : i64, n = 8 : i64',
        'c_init = "accumulate", k = {} : i64, m = {} : i64, n = {} : i64',
        'c_init = "accumulate", k = 8.0 : f32, m = 8 : i64, n = 8 : i64',
        'c_init = "accumulate", k = 8 : ui8, m = 8 : i64, n = 8 : i64',
        'c_init = 7, k = 8 : i64, m = 8 : i64, n = 8 : i64',
        '']) + r"\g<2>"),
    (r"tile\.matmul = \{[^}]*\}", lambda rng: rng.choice(
        ['tile.matmul = 3 : i64', 'tile.matmul = "8x8x8"', 'tile.matmul = [1, 2]',
         'tile.matmul = unit'])),
    (r'tile\.stage = "[a-z]*"', lambda rng: rng.choice(
        ['tile.stage = "block"', 'tile.stage = "shared"', 'tile.stage = "warp"',
         'tile.stage = "thread"', 'tile.stage = "pipelined"', 'tile.stage = "done"',
         'tile.stage = 2 : i64', 'tile.stage = ""'])),
    (r"tile\.config = #tile\.config<[^>]*>", lambda rng: rng.choice(
        ["tile.config = " + random_config(rng, wild=True), 'tile.config = "64x64"',
         "tile.config = {block = [1]}"])),
    (r"tile\.dynamic_shared_bytes = -?\d+ : i64", lambda rng: rng.choice(
        ["tile.dynamic_shared_bytes = {} : i64".format(pick_int(rng)),
         'tile.dynamic_shared_bytes = "x"', "tile.dynamic_shared_bytes = 1.0 : f32"])),
    (r"tile\.c_alignment = \d+ : i64", lambda rng: rng.choice(
        ["tile.c_alignment = {} : i64".format(pick_int(rng)),
         'tile.c_alignment = "16"'])),
    (r'\{tile\.shared = "[AB]"\}', lambda rng: rng.choice(
        ['{tile.shared = "A"}', '{tile.shared = "B"}', '{tile.shared = "C"}', ""])),
    (r"\{tile\.k_loop\}", lambda rng: rng.choice(["", "{tile.k_loop}"])),
    # The wgmma strategy's: the tensor map a param is, the slab copy and
    # compute regions, the ring slot, the tile origins, the types in
    # tile.matmul.
    (r'\{tile\.tensor_map = "[AB]"\}', lambda rng: rng.choice(
        ['{tile.tensor_map = "A"}', '{tile.tensor_map = "B"}', '{tile.tensor_map = "C"}',
         '{tile.tensor_map = 1 : i64}', ""])),
    (r"\{tile\.(slab_copy|slab_compute)\}", lambda rng: rng.choice(
        ["", "{tile.slab_copy}", "{tile.slab_compute}", "{tile.slab_copy, tile.slab_compute}",
         '{tile.slab_copy = "x"}'])),
    (r"\{tile\.slot\}", lambda rng: rng.choice(["", "{tile.slot = 2 : i64}", "{tile.slot}"])),
    (r'\{tile\.tile_origin = "(row|col)"\}', lambda rng: rng.choice(
        ['{tile.tile_origin = "row"}', '{tile.tile_origin = "col"}', '{tile.tile_origin = "k"}',
         '{tile.tile_origin = 0 : i64}', ""])),
    (r"c_type = [a-z0-9]+", lambda rng: "c_type = " + rng.choice(
        ["f32", "bf16", "f16", "f64", "i32", '"f32"'])),
    (r"element_type = [a-z0-9]+", lambda rng: "element_type = " + rng.choice(
        ["f32", "bf16", "f16", "f64", "i8"])),
]


def edit_attributes(rng, text):
    for _ in range(rng.randint(1, 3)):
        pattern, make = rng.choice(ATTR_EDITS)
        matches = list(re.finditer(pattern, text))
        if not matches:
            continue
        m = rng.choice(matches)
        replacement = make(rng)
        if "{} : i64" in replacement:
            replacement = replacement.format(*(pick_int(rng) for _ in range(3)))
        new = re.sub(pattern, replacement, m.group(0), count=1)
        text = text[:m.start()] + new + text[m.end():]
    return text


def edit_kernel_body(rng, text):
    """Edits inside the kernels: an op deleted or repeated, a constant or an
    index changed, one value used in place of another of the same kind."""
    lines = text.split("\n")
    body = [i for i, l in enumerate(lines)
            if l.startswith("      ") and not l.strip().startswith(("}", "gpu.return"))]
    if not body:
        return text
    for _ in range(rng.randint(1, 3)):
        i = rng.choice(body)
        op = rng.random()
        if op < 0.3:
            lines[i] = ""
        elif op < 0.45:
            line = lines[i]
            m = re.match(r"(\s*)(%[\w]+)( = .*)", line)
            if m:
                lines[i] = line + "\n" + m.group(1) + m.group(2) + "_dup" + m.group(3)
        elif op < 0.75:
            ms = list(NUMBER.finditer(lines[i]))
            if ms:
                m = rng.choice(ms)
                lines[i] = (lines[i][:m.start()] + str(rng.choice([0, 1, 2, 3, 4, 7, 8, 31, 32, 64,
                                                                   -1, 1024, 2 ** 31]))
                            + lines[i][m.end():])
        else:
            names = re.findall(r"%[\w]+", lines[i])
            if len(names) >= 2:
                a, b = rng.sample(names, 2)
                lines[i] = lines[i].replace(a, "\0").replace(b, a).replace("\0", b)
    return "\n".join(lines)


# --- mutations of the lit inputs ---------------------------------------------

def lit_inputs():
    inputs = []
    for top in ("test", "examples"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for name in sorted(files):
                if name.endswith(".mlir"):
                    path = os.path.join(dirpath, name)
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                    # RUN lines would only be comments; keep the IR.
                    inputs.append((os.path.relpath(path, ROOT), text))
    inputs.sort()
    return inputs


NUMBER = re.compile(r"(?<![\w.])-?\d+(?![\w.])")


def mutate(rng, text):
    data = text
    for _ in range(rng.randint(1, 6)):
        op = rng.random()
        if op < 0.3 and NUMBER.search(data):
            ms = list(NUMBER.finditer(data))
            m = rng.choice(ms)
            data = data[:m.start()] + str(rng.choice(INTS + EXTENTS + [0, 1])) + data[m.end():]
        elif op < 0.45:
            lines = data.split("\n")
            i = rng.randrange(len(lines))
            if rng.random() < 0.5:
                del lines[i]
            else:
                lines.insert(rng.randrange(len(lines) + 1), lines[i])
            data = "\n".join(lines)
        elif op < 0.55:
            # A token of the dialects the passes look at.
            tokens = ["f32", "f16", "i32", "index", "memref", "tensor", "?", "tile.config",
                      "tile.matmul", "tile.stage", "linalg.fill", "linalg.matmul", "scf.for",
                      "gpu.barrier", "\"block\"", "\"thread\"", "#gpu.address_space<workgroup>",
                      "strided<[1, 1]>", "true", "false", "-"]
            pos = rng.randrange(len(data) + 1)
            data = data[:pos] + rng.choice(tokens) + data[pos:]
        elif op < 0.7:
            a = rng.randrange(len(data) + 1)
            b = min(len(data), a + rng.randint(1, 40))
            data = data[:a] + data[b:]
        elif op < 0.8 and len(data) > 0:
            # Replace a word with another word of the input.
            words = re.findall(r"[A-Za-z_][\w.]*", data)
            if words:
                w = rng.choice(words)
                data = data.replace(w, rng.choice(words), 1)
        else:
            pos = rng.randrange(len(data) + 1)
            data = data[:pos] + chr(rng.choice([0x7b, 0x7d, 0x28, 0x29, 0x3c, 0x3e, 0x2c, 0x3a,
                                                0x25, 0x22, 0x5b, 0x5d, 0x20, 0x0a, 0x23, 0x40,
                                                0xff, 0x00])) + data[pos:]
    return data


# --- the inputs ------------------------------------------------------------

def make_case(rng, index, seeds, fakes, work):
    """One fuzz input: (kind, text, argv after tile-opt, prepare or None).
    prepare is a list of flags: the input is first run through tile-opt with
    them and the output edited (kind "kernel")."""
    outdir = os.path.join(work, "out", str(index % 16))
    kind = rng.choices(["matmul", "config", "options", "kernel", "mutate"],
                       weights=[30, 10, 15, 25, 20])[0]
    # Most inputs are well-formed, so that they reach the later passes; the
    # wild ones bend every rule.
    wild = rng.random() < 0.35
    if kind == "matmul":
        text = random_module(rng, wild)
        return kind, text, pass_flags(rng, outdir, fakes, wild), None
    if kind == "config":
        m, n, k = rng.choice([(64, 64, 64), (128, 128, 128), (100, 200, 300), (1, 1, 1),
                              (4096, 4096, 4096), (16, 8192, 8192), (333, 517, 129)])
        half = rng.random() < 0.4
        t = rng.choice(["bf16", "f16"]) if half else "f32"
        o = rng.choice(["f32", t]) if half else "f32"
        text = ("func.func @c(%a: memref<{m}x{k}x{t}>, %b: memref<{k}x{n}x{t}>, %c: memref<{m}x{n}x{o}>) {{\n"
                "  linalg.matmul {{tile.config = {cfg}}} ins(%a, %b : memref<{m}x{k}x{t}>, memref<{k}x{n}x{t}>)"
                " outs(%c : memref<{m}x{n}x{o}>)\n  return\n}}\n").format(
                    m=m, n=n, k=k, t=t, o=o, cfg=random_config(rng, wild, half))
        return kind, text, pass_flags(rng, outdir, fakes, wild), None
    if kind == "options":
        text = random_module(rng, False) if rng.random() < 0.6 else rng.choice(seeds)[1]
        flags = ['--tile-matmul-to-ptx={}'.format(" ".join(pipeline_options(rng, outdir, fakes, wild)))]
        if rng.random() < 0.3:
            flags = pass_flags(rng, outdir, fakes, wild)
        return kind, text, flags, None
    if kind == "kernel":
        # A well-formed kernel from the passes, edited, then the rest.
        wgmma = rng.random() < 0.45
        chain = WGMMA_PASSES if wgmma else PASSES
        text = random_module(rng, False, 1.0 if wgmma else 0.0)
        stage = rng.randint(2, len(chain))
        prepare = pass_flags(rng, outdir, fakes, False, upto=stage, chain=chain)
        rest = ["--" + p for p in chain[stage:]]
        if rng.random() < 0.4 or not rest:
            rest = export_flags(rng, outdir, fakes, chain[stage:])
        elif rng.random() < 0.3:
            rest.append("--tile-report")
        return kind, text, rest, prepare
    source, text = rng.choice(seeds)
    text = mutate(rng, text)
    flags = pass_flags(rng, outdir, fakes, wild)
    if "// -----" in text:
        flags = ["-split-input-file"] + flags
    if rng.random() < 0.1:
        flags.append("-allow-unregistered-dialect")
    return "mutate", text, flags, None


def write_fakes(work):
    """Fake ptxas programs: one fails, one writes no cubin, one reports
    numbers that are not numbers."""
    fakes = []
    for name, body in [
            ("ptxas-fails", 'echo "ptxas fatal: something went wrong" >&2\nexit 3\n'),
            ("ptxas-no-cubin", "exit 0\n"),
            ("ptxas-garbage",
             'out=""\nwhile [ $# -gt 0 ]; do if [ "$1" = -o ]; then out=$2; fi; shift; done\n'
             'printf "garbage" > "$out"\n'
             'echo "ptxas info    : Used 99999999999999999999999 registers, -5 bytes smem"\n'
             'echo "ptxas info    : x bytes stack frame, y bytes spill stores, 1 bytes spill loads"\n')]:
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body)
        os.chmod(path, 0o755)
        fakes.append(path)
    return fakes


# --- running -----------------------------------------------------------------

def environment():
    env = dict(os.environ)
    # Nothing of the machine's CUDA: the fuzzer names its ptxas itself.
    for variable in ("CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"):
        env.pop(variable, None)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if "cuda" not in p.lower())
    env.setdefault("ASAN_OPTIONS", "")
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env["ASAN_OPTIONS"], "abort_on_error=1"]))
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    return env


def run_one(tile_opt, case, timeout, work, env):
    index, kind, text, flags, prepare = case
    path = os.path.join(work, "inputs", "{}.mlir".format(index))
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    start = time.time()
    commands = []
    if prepare is not None:
        cmd = [tile_opt, path] + prepare
        commands.append(cmd)
        result = execute(cmd, timeout, env)
        if result[0] != "ok":
            return finish(index, kind, text, commands, result, start)
        if result[1] != 0:
            return index, kind, "rejected", None, time.time() - start
        rng = random.Random(index)
        if rng.random() < 0.6:
            text = edit_attributes(rng, result[2])
        else:
            text = edit_kernel_body(rng, result[2])
        path = os.path.join(work, "inputs", "{}.edited.mlir".format(index))
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
    cmd = [tile_opt, path] + flags + ["-o", "/dev/null"]
    commands.append(cmd)
    result = execute(cmd, timeout, env)
    return finish(index, kind, text, commands, result, start)


def execute(cmd, timeout, env):
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout, env=env,
                              start_new_session=True)
    except subprocess.TimeoutExpired as e:
        return ("timeout", None, "", (e.stderr or b"").decode("utf-8", "replace"))
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    bad = CRASH_LINES.search(err)
    if proc.returncode < 0 or proc.returncode not in (0, 1) or bad:
        why = ("signal {}".format(signal.Signals(-proc.returncode).name)
               if proc.returncode < 0 else "exit {}".format(proc.returncode))
        if bad:
            why += ", " + err[bad.start():err.find("\n", bad.start())][:200]
        return ("crash", proc.returncode, out, err, why)
    return ("ok", proc.returncode, out, err)


def finish(index, kind, text, commands, result, start):
    status = result[0]
    if status == "ok":
        # Compiled, or refused with an error message.
        return (index, kind, "ok" if result[1] == 0 else "rejected", None,
                time.time() - start)
    detail = {"text": text, "commands": commands, "stderr": result[3],
              "why": result[4] if status == "crash" else "timeout"}
    return index, kind, status, detail, time.time() - start


def signature(detail):
    """What tells one crash from another: the sanitizer's or LLVM's headline
    and the first frames of the project's code."""
    err = detail["stderr"]
    lines = [l for l in err.splitlines()
             if re.search(r"(ERROR:|runtime error:|LLVM ERROR|Assertion|#\d+ .* in (mlir::tile|\(anonymous))", l)]
    key = "\n".join(re.sub(r"==\d+==|#\d+ |0x[0-9a-f]+|:\d+(:\d+)?|/tmp/\S+|\d+", "", l)
                    for l in lines[:3])
    return key or detail["why"]


def save(crash_dir, index, kind, status, detail):
    digest = hashlib.sha1(signature(detail).encode()).hexdigest()[:10]
    folder = os.path.join(crash_dir, "{}-{}".format(status, digest))
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(folder, str(index))
    with open(base + ".mlir", "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(detail["text"])
    with open(base + ".txt", "w", encoding="utf-8") as f:
        f.write("kind: {}\nwhy: {}\n".format(kind, detail["why"]))
        for cmd in detail["commands"]:
            f.write("command: " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        f.write("\n" + detail["stderr"][-20000:])
    return folder


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tile-opt", default=os.path.join(ROOT, "build", "bin", "tile-opt"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300, help="inputs to run")
    parser.add_argument("--max-seconds", type=float, default=0,
                        help="stop starting inputs after this long (0: no limit)")
    parser.add_argument("--timeout", type=float, default=60,
                        help="seconds one tile-opt run may take before it is a hang")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--work-dir", help="where inputs, outputs and crashes go "
                        "(default: a temporary directory, kept if something was found)")
    parser.add_argument("--verbose", action="store_true", help="one line per input")
    args = parser.parse_args()

    if not os.access(args.tile_opt, os.X_OK):
        print("fuzz: no tile-opt at " + args.tile_opt, file=sys.stderr)
        return 2
    work = args.work_dir or tempfile.mkdtemp(prefix="tile-fuzz-")
    for sub in ("inputs", "out", "crashes"):
        os.makedirs(os.path.join(work, sub), exist_ok=True)
    fakes = write_fakes(work)
    seeds = lit_inputs()
    rng = random.Random(args.seed)
    cases = []
    for index in range(args.count):
        kind, text, flags, prepare = make_case(rng, index, seeds, fakes, work)
        cases.append((index, kind, text, flags, prepare))
    env = environment()
    crash_dir = os.path.join(work, "crashes")
    counts = {"ok": 0, "rejected": 0, "crash": 0, "timeout": 0}
    by_kind = {}
    found = {}
    start = time.time()
    ran = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        pending = set()
        queue = iter(cases)
        stopped = False
        while True:
            while not stopped and len(pending) < 2 * args.jobs:
                if args.max_seconds and time.time() - start > args.max_seconds:
                    stopped = True
                    break
                case = next(queue, None)
                if case is None:
                    stopped = True
                    break
                pending.add(pool.submit(run_one, args.tile_opt, case, args.timeout, work, env))
            if not pending:
                break
            done, pending = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                index, kind, status, detail, seconds = future.result()
                ran += 1
                counts[status] += 1
                by_kind.setdefault(kind, [0, 0, 0])
                by_kind[kind][0] += 1
                if status == "ok":
                    by_kind[kind][2] += 1
                if status not in ("ok", "rejected"):
                    by_kind[kind][1] += 1
                    folder = save(crash_dir, index, kind, status, detail)
                    found.setdefault(folder, []).append(index)
                    print("fuzz: input {} ({}): {}: {} -> {}".format(
                        index, kind, status, detail["why"], folder), file=sys.stderr)
                elif args.verbose:
                    print("fuzz: input {} ({}) ok, {:.1f} s".format(index, kind, seconds))
    elapsed = time.time() - start
    print("seed {}, {:.0f} s; {} compiled, {} refused with an error; by kind "
          "(inputs/compiled/bad): {}".format(
              args.seed, elapsed, counts["ok"], counts["rejected"],
              ", ".join("{} {}/{}/{}".format(k, v[0], v[2], v[1])
                        for k, v in sorted(by_kind.items()))))
    if found:
        print("distinct problems: {} (saved under {})".format(len(found), crash_dir))
    elif not args.work_dir:
        shutil.rmtree(work, ignore_errors=True)
    else:
        # Nothing to look at: only the (empty) crashes folder stays.
        for sub in ("inputs", "out"):
            shutil.rmtree(os.path.join(work, sub), ignore_errors=True)
    print("{} inputs, {} crashes, {} timeouts".format(ran, counts["crash"], counts["timeout"]))
    return 1 if counts["crash"] or counts["timeout"] else 0


if __name__ == "__main__":
    sys.exit(main())
