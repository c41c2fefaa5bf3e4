#!/usr/bin/env python3
"""Probe: a copy of a kernel artifact whose C stores never happen.

    bench/probe/no-store.py SRC.json DST_DIR

Every st.global of the PTX is predicated on a thread index that cannot
occur (tid.x == 99999), so the accumulators stay live (ptxas cannot see the
predicate is false) and the kernel does all its loads and tensor-core work
but writes nothing: its time against the original's bounds what a fully
hidden epilogue could buy. ptxas (sm_90a) rebuilds the cubin; the manifest's
sizes and hashes are rewritten. Such a kernel fails `tile-run verify` by
design: time it with `tile-run bench --no-verify`-style runs only.
"""
import json, os, re, subprocess, sys

def fnv1a64(data):
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
manifest = json.load(open(src))
folder = os.path.dirname(src)
name = manifest["kernel"]
ptx_entry = next(b for b in manifest["binaries"] if b["format"] == "ptx")
ptx = open(os.path.join(folder, ptx_entry["file"])).read()
tid = re.search(r"mov\.u32\s+(%r\d+), %tid\.x;", ptx)
assert tid, "no tid.x read"
ptx = ptx.replace(tid.group(0), tid.group(0) +
                  "\n\t.reg .pred %pnever;\n\tsetp.eq.u32 %pnever, " +
                  tid.group(1) + ", 99999;", 1)
ptx, count = re.subn(r"^(\s*)(st\.global)", r"\1@%pnever \2", ptx, flags=re.M)
assert count > 0
ptx_file = os.path.join(dst, name + ".ptx")
open(ptx_file, "w").write(ptx)
cubin_file = os.path.join(dst, name + ".cubin")
subprocess.check_call(["/usr/local/cuda/bin/ptxas", "-arch=" + manifest["target"]["chip"],
                       ptx_file, "-o", cubin_file])
for binary in manifest["binaries"]:
    path = os.path.join(dst, name + "." + binary["format"])
    data = open(path, "rb").read()
    binary["file"] = name + "." + binary["format"]
    binary["size"] = len(data)
    binary["fnv1a64"] = fnv1a64(data)
json.dump(manifest, open(os.path.join(dst, name + ".json"), "w"), indent=2)
print("%s: %d stores predicated off" % (name, count))
