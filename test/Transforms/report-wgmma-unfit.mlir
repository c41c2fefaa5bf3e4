// RUN: tile-opt %s --tile-report -o /dev/null | FileCheck %s

// A wgmma config that cannot run: two blocks per SM of 384 threads leave
// the consumers 96 registers for 128 accumulators. The report shows the
// split, says why the config does not fit and predicts no time, and does
// not fail (tile-configure would refuse the config; the report runs on the
// op as written).
// CHECK-LABEL: kernel (linalg.matmul at {{.*}}): 512x512x512 f16 -> f16, C += A*B
// CHECK: registers/thread  launch 80 (2 blocks/SM budget); consumer needs 200 = 128 accumulators + 72 overhead, gets 96 (setmaxnreg); producer (TMA) needs 40, gets 40 (setmaxnreg); too few to work
// CHECK: does not fit      2 block(s) per SM of 384 threads leave 96 registers per consumer thread (for 128 accumulators) and 40 per producer thread; lower the occupancy or the warpgroup tile
// CHECK-NOT: model time
func.func @too_many_blocks(%A: memref<512x512xf16>, %B: memref<512x512xf16>, %C: memref<512x512xf16>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 2, occupancy = 2>}
    ins(%A, %B : memref<512x512xf16>, memref<512x512xf16>) outs(%C : memref<512x512xf16>)
  return
}
