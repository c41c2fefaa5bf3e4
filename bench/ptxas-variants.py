#!/usr/bin/env python3
"""Rebuilds one kernel artifact's cubin with other ptxas options, for timing
them side by side (on a machine with ptxas; the GPU machine runs the result
like any artifact folder).

    bench/ptxas-variants.py ARTIFACT.json OUT_DIR NAME=OPTIONS...

Each NAME=OPTIONS (OPTIONS: space-separated ptxas options, may be empty)
gives OUT_DIR/NAME_matmul0.{ptx,cubin,json}: the PTX with its entry renamed,
compiled with `ptxas -v -O3 -arch=<chip> OPTIONS`, and the manifest with the
new name, sizes and hashes. Prints ptxas's register and spill lines.

Example (bench/results/2026-11-29-h200-ptxas-options.md):
    bench/ptxas-variants.py bench/artifacts/x/x_base_matmul0.json bench/artifacts/rul \\
        rul_base= rul_l0=--register-usage-level=0 rul_l10=--register-usage-level=10
"""
import json
import os
import subprocess
import sys


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    manifest_path, out = sys.argv[1], sys.argv[2]
    base = os.path.splitext(manifest_path)[0]
    manifest = json.load(open(manifest_path))
    ptx = open(base + ".ptx").read()
    old_name = manifest["kernel"]
    chip = manifest["target"]["chip"]
    ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
    os.makedirs(out, exist_ok=True)
    for spec in sys.argv[3:]:
        name, _, options = spec.partition("=")
        kernel = name + "_matmul0"
        stem = os.path.join(out, kernel)
        with open(stem + ".ptx", "w") as f:
            f.write(ptx.replace(old_name, kernel))
        result = subprocess.run([ptxas, "-v", "-O3", "-arch=" + chip, *options.split(),
                                 stem + ".ptx", "-o", stem + ".cubin"],
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit("ptxas failed for %s:\n%s" % (name, result.stderr))
        print(name, "|", " | ".join(l.split(":", 1)[-1].strip() for l in result.stderr.splitlines()
                                    if "Used" in l or "spill" in l))
        variant = json.loads(json.dumps(manifest))
        variant["kernel"] = kernel
        for binary in variant["binaries"]:
            path = stem + (".cubin" if binary["format"] == "cubin" else ".ptx")
            data = open(path, "rb").read()
            binary.update(file=os.path.basename(path), size=len(data), fnv1a64=fnv1a64(data))
        with open(stem + ".json", "w") as f:
            json.dump(variant, f, indent=1)


if __name__ == "__main__":
    main()
