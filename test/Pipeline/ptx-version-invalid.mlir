// The PTX version (ptx-version=, the "+ptxNN" feature of the #nvvm.target)
// is checked by tile-export before LLVM's NVPTX backend sees it: a version
// below the chip's minimum made the backend stop the process with a fatal
// error, and a version it does not know was replaced by its default, with
// a manifest that named the other one.
// RUN: not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="ptxas=off ptx-version=7.0" 2>&1 | FileCheck %s --check-prefix=BELOW --implicit-check-not="LLVM ERROR"
// RUN: not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="ptxas=off chip=sm_80 ptx-version=6.3" 2>&1 | FileCheck %s --check-prefix=BELOW80 --implicit-check-not="LLVM ERROR"
// RUN: not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="ptxas=off ptx-version=x" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="ptxas=off ptx-version=9.9" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// BELOW: error: tile-export: PTX 7.0 cannot target sm_90, which needs PTX 7.8 or later (ptx-version=)
// BELOW80: error: tile-export: PTX 6.3 cannot target sm_80, which needs PTX 7.0 or later (ptx-version=)
// MALFORMED: error: tile-export: the target's features '+ptxx' name no PTX version (expected +ptx<major><minor>, as ptx-version=8.0 gives +ptx80)
// UNKNOWN: error: tile-export: LLVM's NVPTX backend does not know PTX 9.9 (ptx-version=); it wrote PTX {{[0-9]+\.[0-9]}}

// The lowest version the chip takes is fine; the manifest names the version
// the PTX declares.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="ptxas=off ptx-version=7.8 output-dir=%t"
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/small_matmul0.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/small_matmul0.ptx
// MANIFEST: "target": {"chip": "sm_90", "ptx_version": "7.8"},
// PTX: .version 7.8
