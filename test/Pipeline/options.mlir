// Config overrides and other options of the whole pipeline reach the
// kernel and its manifest.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off block=64,128,16 warp=32,64 thread=8,8 stages=1 swizzle=4 smem=pad8 prefetch=false split-k=2 ptx-version=8.3 tuning-table=none"
// RUN: FileCheck %s --input-file=%t/options_matmul0.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/options_matmul0.ptx
// 64x128 tiles of 1000x1000: 16 x 8 tiles, each K split in 2: 256 blocks;
// (64/32)*(128/64) = 4 warps; one buffer of [16][64 + 8] + [16][128] floats
// = 4608 + 8192 bytes. Split-K kernels accumulate into C. The occupancy
// hint adds the blocks per SM the cost model predicts: 4 of 128 threads
// (with the table off: a table entry of the same tile sizes would bring
// its own measured occupancy).
// The FMA strategy: registers carry the copies with one stage, no cluster,
// no tensor maps.
// CHECK: "version": 2,
// CHECK: "target": {"chip": "sm_90", "ptx_version": "8.3"},
// CHECK: "launch": {"grid": [256, 1, 1], "block": [128, 1, 1], "cluster": [1, 1, 1], "dynamic_shared_bytes": 12800},
// CHECK: "problem": {"m": 1000, "n": 1000, "k": 1000, "element_type": "f32", "accumulator_type": "f32", "c_init": "accumulate", "c_fill_value": 0.0},
// CHECK: "tensor_maps": [],
// CHECK: "config": {"strategy": "fma", "block": [64, 128, 16], "warp": [32, 64], "thread": [8, 8], "mma": [8, 8, 1], "stages": 1, "copy": "registers", "specialize": false, "swizzle": 4, "smem": "pad", "smem_pad": 8, "prefetch": false, "occupancy": 4, "split_k": 2, "cluster": [1, 1], "persistent": false,
// CHECK: "resources": {"registers": -1, "spill_stores": -1, "spill_loads": -1, "stack_bytes": -1}
// PTX: .version 8.3

// An override that breaks the config is an error at the op.
// RUN: not tile-opt %s -o /dev/null --tile-matmul-to-ptx="warp=48,64" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: 'linalg.matmul' op cannot use tile config #tile.config<{{.*}}warp = [48, 64]{{.*}}>: warp tile M (48) does not divide block tile M
func.func @options(%A: memref<1000x1000xf32>, %B: memref<1000x1000xf32>, %C: memref<1000x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<1000x1000xf32>, memref<1000x1000xf32>)
                outs(%C : memref<1000x1000xf32>)
  return
}
