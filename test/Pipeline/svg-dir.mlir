// The pipelines' svg-dir= runs tile-report with it: tile-matmul-to-ptx draws
// the lowered kernels at the end (with the report), tile-matmul-tiling the
// configured matmuls. The picture is the same either way.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t/out ptxas=off svg-dir=%t/svg" | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --input-file=%t/svg/svg_matmul0.svg
// RUN: tile-opt %s -o /dev/null --tile-matmul-tiling="svg-dir=%t/tiling" > /dev/null
// RUN: diff %t/svg/svg_matmul0.svg %t/tiling/svg_matmul0.svg

// REPORT: kernel svg_matmul0: 1000x1000x1000 f32, C = fill + A*B
// 64x128 tiles of 1000x1000: 16 x 8 tiles; 4 warps.
// CHECK: kernel svg_matmul0: 1000x1000x1000 f32, C (f32) = fill + A*B
// CHECK: launch: 128 blocks = 16 x 8 tiles of 64 x 128, 128 threads per block
// CHECK: A k=1 m=0: byte 288, bank 8
// CHECK: tile (0, 1): block 4
func.func @svg(%A: tensor<1000x1000xf32>, %B: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1000x1000xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %R = linalg.matmul {tile.config = #tile.config<block = [64, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 4, smem = pad(8), prefetch = true>}
    ins(%A, %B : tensor<1000x1000xf32>, tensor<1000x1000xf32>) outs(%C : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %R : tensor<1000x1000xf32>
}
