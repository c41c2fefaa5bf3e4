"""Compares tile-opt's report (`model time` per kernel, in ms to three
decimals) with `tile-tune predict` (ms to five decimals) read from
stdin: every kernel of the report must be predicted, and rounded to three
decimals give the report's (within half a microsecond). Prints "N kernels agree" or each disagreement, and exits 1 on
any.

usage: compare-predict.py REPORT < PREDICT"""
import re
import sys

report, kernel = {}, None
for line in open(sys.argv[1]):
    match = re.match(r"kernel (\S+):", line)
    if match:
        kernel = match.group(1)
    match = re.search(r"model time\s+([0-9.]+) ms", line)
    if match and kernel:
        report[kernel] = float(match.group(1))
predicted = {}
for line in sys.stdin:
    fields = line.split()
    predicted[fields[0]] = float(fields[-1])
bad = 0
for kernel, ms in sorted(report.items()):
    if kernel not in predicted:
        print(f"{kernel}: not predicted")
        bad += 1
    elif abs(predicted[kernel] - ms) > 0.0005 + 1e-9:
        print(f"{kernel}: report {ms} ms, predict {predicted[kernel]} ms")
        bad += 1
if bad or not report:
    print(f"{bad} of {len(report)} kernels disagree")
    sys.exit(1)
print(f"{len(report)} kernels agree")
