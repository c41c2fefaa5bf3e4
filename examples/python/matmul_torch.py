#!/usr/bin/env python3
"""Runs a tile-opt kernel on PyTorch tensors and checks it against
torch.matmul.

    examples/python/matmul_torch.py MANIFEST.json... [--device N] [--seed S]
                                    [--iters N]

For each kernel artifact (tile-opt --tile-matmul-to-ptx="output-dir=DIR"
writes DIR/<kernel>.json and the binaries): A, B and C as CUDA tensors of
the manifest's shapes, element types and strides (views into bigger
buffers; a dynamic offset or stride one 16-byte step past the densest
value, as tile-run picks it) (A and B random, C random
when the kernel accumulates into it, NaN when it only writes it), the kernel
launched on them through the tile_opt module on PyTorch's current stream,
and C compared with torch.matmul in float64 (plus C's old value, or the
fill value): the relative error of the Frobenius norm must be within
max(1e-5, 2^-24 sqrt(k)), at least 2^-8 for a TF32 kernel (f32 inputs on
wgmma), plus the rounding of C's type (the tolerance of tile-run verify),
and every element must have been written. With --iters N it also times the
kernel and torch.matmul (for f32, TF32 on for a TF32 kernel and off for an
FP32 one, as the kernel computes), median of N launches.

Prints one line per kernel ("PASS" or "FAIL" with the numbers) and a last
line "N passed, N failed". Exit status: 0 when all pass, 1 when one fails,
2 when PyTorch, CUDA or the runtime library is missing. The runtime library
is found as tile_opt.library_candidates() lists (TILE_RUNTIME_LIBRARY).
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
import tile_opt  # noqa: E402

# The rounding of C's element type (unit roundoff).
ROUNDING = {"f32": 0.0, "bf16": 2.0 ** -8, "f16": 2.0 ** -11}


def tolerance(k, result_type, tf32=False):
    """tile-run's relative-norm rule: f32 accumulation, and for a TF32
    kernel (f32 inputs on wgmma, each read with 10 mantissa bits) at least
    2^-8; plus C's rounding."""
    bound = max(1e-5, 2.0 ** -24 * math.sqrt(k))
    if tf32:
        bound = max(bound, 2.0 ** -8)
    return bound + ROUNDING[result_type]


def layout_of(param):
    """The strides (elements) and storage offset of the tensor for
    `param`: the manifest's, and where a field is dynamic (a kernel that
    takes it at launch) one 16-byte step past the densest value, as
    tile-run picks it, so that the kernel is seen to read it."""
    step = max(1, 16 // param.element_bytes)
    round_up = lambda v: (v + step - 1) // step * step  # noqa: E731
    row, col = param.row_stride, param.col_stride
    if row == tile_opt.DYNAMIC:
        row = round_up(param.cols) + step
    if col == tile_opt.DYNAMIC:
        col = round_up(param.rows) + step
    strides = (row, col)
    if param.batched:
        batch = param.batch_stride
        if batch == tile_opt.DYNAMIC:
            batch = round_up((param.rows - 1) * row + (param.cols - 1) * col +
                             1) + step
        strides = (batch,) + strides
    offset = step if param.offset == tile_opt.DYNAMIC else 0
    return strides, offset


def make_tensor(torch, param, device, fill):
    dtypes = {"f32": torch.float32, "bf16": torch.bfloat16,
              "f16": torch.float16}
    strides, offset = layout_of(param)
    span = offset + 1 + sum((n - 1) * s for n, s in zip(param.shape, strides))
    # A view into a bigger buffer (its storage offset and strides); the
    # elements between stay NaN.
    base = torch.full((span,), float("nan"), dtype=dtypes[param.element_type],
                      device=device)
    t = base.as_strided(param.shape, strides, offset)
    if fill == "random":
        t.copy_(torch.randn(param.shape, device=device))
    else:
        t.fill_(fill)
    return t


def median_ms(torch, run, iters):
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def check(torch, path, device, iters):
    with tile_opt.load(path) as kernel:
        info = kernel.info
        a_param, b_param, c_param = info.params
        accumulate = info.c_init == "accumulate"
        a = make_tensor(torch, a_param, device, "random")
        b = make_tensor(torch, b_param, device, "random")
        c = make_tensor(torch, c_param, device,
                        "random" if accumulate else float("nan"))
        c0 = c.double() if accumulate else info.c_fill_value
        reference = torch.matmul(a.double(), b.double()) + c0

        stream = torch.cuda.current_stream(device)
        kernel(a, b, c, stream=stream)
        torch.cuda.synchronize(device)

        written = not bool(torch.isnan(c).any())
        error = (torch.linalg.norm(c.double() - reference) /
                 max(torch.linalg.norm(reference).item(), 1e-300)).item()
        # torch.matmul in the kernel's own precision, for comparison.
        ours_in_torch = torch.matmul(a, b).double() + c0
        torch_error = (torch.linalg.norm(ours_in_torch - reference) /
                       max(torch.linalg.norm(reference).item(), 1e-300)).item()
        tf32 = info.element_type == "f32" and info.strategy == "wgmma"
        limit = tolerance(info.k, info.result_type, tf32)
        ok = written and error <= limit
        line = ("%s %dx%dx%d %s (C %s, %s): rel_err %.3e (tolerance %.1e), "
                "torch.matmul rel_err %.3e%s: %s" %
                (info.kernel, info.m, info.n, info.k, info.element_type,
                 info.result_type, info.c_init, error, limit, torch_error,
                 "" if written else ", elements of C not written",
                 "PASS" if ok else "FAIL"))
        if iters:
            ms = median_ms(torch, lambda: kernel(a, b, c, stream=stream),
                           iters)
            # torch.matmul in the kernel's precision: TF32 for a TF32
            # kernel.
            torch.backends.cuda.matmul.allow_tf32 = tf32
            torch_ms = median_ms(torch, lambda: torch.matmul(a, b), iters)
            torch.backends.cuda.matmul.allow_tf32 = False
            flops = 2.0 * info.m * info.n * info.k
            line += ("; %.4f ms (%.1f TFLOP/s), torch.matmul %.4f ms "
                     "(%.1f TFLOP/s)" % (ms, flops / ms / 1e9, torch_ms,
                                         flops / torch_ms / 1e9))
        load = kernel.load_info
        line += " [%s, %s]" % (load["device_name"], load["binary_format"])
        print(line, flush=True)
        return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifests", nargs="+", metavar="MANIFEST.json")
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iters", type=int, default=0,
                        help="also time N launches of each (default 0: no)")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("matmul_torch: PyTorch is missing (pip install torch)",
              file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("matmul_torch: PyTorch sees no CUDA device", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(args.seed)
    device = torch.device("cuda", args.device)
    torch.cuda.set_device(device)
    passed = failed = 0
    for path in args.manifests:
        try:
            ok = check(torch, path, device, args.iters)
        except tile_opt.TileError as e:
            if "cannot load the tile runtime library" in str(e):
                print("matmul_torch: %s" % e, file=sys.stderr)
                return 2
            print("%s: FAIL: %s" % (path, e), flush=True)
            ok = False
        passed, failed = passed + ok, failed + (not ok)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
