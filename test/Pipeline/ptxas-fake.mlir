// tile-export with stand-ins for ptxas (scripts under Inputs/), so that
// what it does with ptxas's results is tested without CUDA.
// RUN: rm -rf %t && mkdir -p %t

// ptxas -v's numbers go into the manifest and onto the gpu.module, and the
// cubin it writes is listed first.
// RUN: tile-opt %S/Inputs/small.mlir --tile-matmul-to-ptx="output-dir=%t/ok ptxas=%S/Inputs/fake-ptxas" | FileCheck %s --check-prefix=MODULE
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/ok/small_matmul0.json
// MODULE: gpu.module @small_matmul0 {{.*}} tile.ptxas = {registers = 42 : i64, spill_loads = 12 : i64, spill_stores = 4 : i64, stack_bytes = 8 : i64}
// MANIFEST: {"format": "cubin", "file": "small_matmul0.cubin", "size": 11,
// MANIFEST: "resources": {"registers": 42, "spill_stores": 4, "spill_loads": 12, "stack_bytes": 8}

// A ptxas that fails: its output in the error, no manifest.
// RUN: not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="output-dir=%t/fails ptxas=%S/Inputs/fake-ptxas-fails" 2>&1 | FileCheck %s --check-prefix=FAILS
// RUN: not ls %t/fails/small_matmul0.json
// FAILS: error: tile-export: {{.*}}fake-ptxas-fails failed
// FAILS-NEXT: ptxas fatal   : Unresolved extern function 'missing'

// A ptxas that succeeds but writes no cubin.
// RUN: not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="output-dir=%t/no-cubin ptxas=%S/Inputs/fake-ptxas-no-cubin" 2>&1 | FileCheck %s --check-prefix=NO-CUBIN
// NO-CUBIN: error: tile-export: ptxas wrote no {{.*}}no-cubin/small_matmul0.cubin

// The output directory cannot be made (a file is in the way), or a file in
// it cannot be written (a directory has its name).
// RUN: touch %t/file
// RUN: not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="output-dir=%t/file/out ptxas=off" 2>&1 | FileCheck %s --check-prefix=NO-DIR
// NO-DIR: error: tile-export: cannot create {{.*}}file/out: Not a directory
// RUN: mkdir -p %t/blocked/small_matmul0.ptx
// RUN: not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="output-dir=%t/blocked ptxas=off" 2>&1 | FileCheck %s --check-prefix=NO-WRITE
// NO-WRITE: error: tile-export: cannot write {{.*}}blocked/small_matmul0.ptx: Is a directory

// No temporary files (TMPDIR names a folder that does not exist): for
// ptxas's log, and for the PTX and cubin when there is no output directory.
// RUN: env TMPDIR=%t/none not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="output-dir=%t/no-tmp ptxas=%S/Inputs/fake-ptxas" 2>&1 | FileCheck %s --check-prefix=NO-TEMP-LOG
// RUN: env TMPDIR=%t/none not tile-opt %S/Inputs/small.mlir -o /dev/null --tile-matmul-to-ptx="ptxas=off" 2>&1 | FileCheck %s --check-prefix=NO-TEMP
// NO-TEMP-LOG: error: tile-export: cannot create a temporary file
// NO-TEMP: error: tile-export: no temporary file
