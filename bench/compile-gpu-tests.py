#!/usr/bin/env python3
"""Compiles the kernels of the GPU lit tests (test/GPU) here, for a GPU machine without MLIR.

    bench/compile-gpu-tests.py [--out bench/artifacts/gpu-tests] [--build build] [TEST...]

The lit tests under test/GPU need MLIR (to compile) and a GPU (to run) on one
machine. This script runs each test's RUN lines the way lit would, except the
ones that need the GPU (those that run `tile-run` or the runtime library):
the kernels are compiled into OUT/<test>/ and the checks of their manifests
(which configuration, C initialisation and copy path each kernel took) run
here. bench/gpu/gpu-tests.sh then runs every kernel on the GPU.

Substitutions: %s (the test file), %S (its folder), %t (OUT/<test>, so
%t.regs is OUT/<test>.regs), %python, %tile_src_root, %tile_obj_root (the
build folder); tile-opt and FileCheck are found through PATH (BUILD/bin and
the LLVM 22 tools first).

Writes OUT/SUMMARY.txt: per test, the RUN lines run here and their status,
the lines left to the GPU machine, the kernels compiled. Prints the same.
Exit status 1 when a RUN line failed here (a kernel did not compile or did
not take the structure its test claims); the kernels that did compile are
still written, and the GPU script still runs them.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-22/bin"
# A RUN line with one of these needs the GPU machine.
DEVICE_MARKERS = ("tile-run", "%tile_runtime_library")


def run_lines(path):
    """The test's RUN lines, continuations (a trailing backslash) joined."""
    lines, pending = [], ""
    for raw in open(path):
        m = re.search(r"(?://|#)\s*RUN:\s?(.*)$", raw)
        if not m:
            continue
        text = m.group(1).rstrip()
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        lines.append(pending + text)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


def substitute(line, test, tmp, build):
    for key, value in (("%tile_src_root", ROOT),
                       ("%tile_obj_root", build),
                       ("%python", sys.executable),
                       ("%S", os.path.dirname(test)),
                       ("%s", test),
                       ("%t", tmp)):
        line = line.replace(key, value)
    return line


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "artifacts",
                                                 "gpu-tests"))
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("tests", nargs="*",
                   help="test files (default: every test/GPU/*.mlir, *.test)")
    args = p.parse_args()
    build = os.path.abspath(args.build)
    out = os.path.abspath(args.out)
    tests = args.tests or sorted(glob.glob(os.path.join(ROOT, "test", "GPU", "*.mlir")) +
                                 glob.glob(os.path.join(ROOT, "test", "GPU", "*.test")))
    if not os.access(os.path.join(build, "bin", "tile-opt"), os.X_OK):
        print("compile-gpu-tests: no %s/bin/tile-opt (build first: "
              "TILE_SANITIZE=0 scripts/build.sh)" % build, file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, PATH=os.pathsep.join(
        [os.path.join(build, "bin"), LLVM_BIN, os.environ.get("PATH", "")]))
    commit = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--",
                            "lib", "tools", "include", "test/GPU"],
                           capture_output=True, text=True).stdout.strip()
    summary = ["compiled here: %s" % time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
               "sources: %s%s" % (commit, " (with uncommitted changes)" if dirty else ""),
               "command: %s" % " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]),
               ""]
    failures = 0
    for test in tests:
        test = os.path.abspath(test)
        name = os.path.splitext(os.path.basename(test))[0]
        tmp = os.path.join(out, name)
        summary.append("== %s" % os.path.relpath(test, ROOT))
        for line in run_lines(test):
            if any(marker in line for marker in DEVICE_MARKERS):
                summary.append("  on the GPU machine: %s" % line)
                continue
            command = substitute(line, test, tmp, build)
            started = time.time()
            result = subprocess.run(["bash", "-o", "pipefail", "-c", command],
                                    cwd=ROOT, env=env, capture_output=True,
                                    text=True)
            status = "ok" if result.returncode == 0 else "FAILED (exit %d)" % result.returncode
            summary.append("  here, %s (%.1f s): %s" % (status, time.time() - started, line))
            if result.returncode != 0:
                failures += 1
                for text in (result.stdout + result.stderr).strip().splitlines()[-15:]:
                    summary.append("    | " + text)
        kernels = sorted(os.path.basename(f)[:-len(".json")]
                         for f in glob.glob(os.path.join(tmp, "*.json")))
        summary.append("  kernels (%d): %s" % (len(kernels), " ".join(kernels)))
        summary.append("")
    summary.append("compile-gpu-tests: %d test files, %d RUN lines failed here%s" %
                   (len(tests), failures,
                    "" if failures == 0 else
                    " (see above: a kernel did not compile or did not take "
                    "the structure its test checks)"))
    text = "\n".join(summary) + "\n"
    with open(os.path.join(out, "SUMMARY.txt"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
