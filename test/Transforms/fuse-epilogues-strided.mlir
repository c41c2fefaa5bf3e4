// Fused epilogues whose operands are strided memrefs (subviews of bigger
// buffers): a bias per column with an offset, a scale per row whose
// elements are 5 apart, a residual whose rows are 64 wide; the same with
// dynamic offsets and strides (one spelled as an affine map); a batched
// matmul with per-batch vectors and a shared residual. The kernel's
// parameters keep each layout (a vector as an m x 1 or 1 x n view of its
// buffer, made on the host by memref.reinterpret_cast), and tile.epilogue
// records them for the manifest (layouts). test/Interp/strided-epilogues.mlir
// runs them; test/Pipeline/epilogue-strided-ptx.mlir checks the addresses.
// RUN: tile-opt %s --tile-fuse-epilogues --tile-configure="tuning-table=none block=32,32,8 warp=16,32 thread=4,4 stages=1" --tile-block-tile | FileCheck %s

#col = affine_map<(m, n) -> (n)>
#row = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>

// CHECK-LABEL: func.func @static_layouts
// CHECK-SAME: %[[BIAS:[a-z0-9]+]]: memref<41xf32, strided<[1], offset: 3>>, %[[SCALE:[a-z0-9]+]]: memref<37xf32, strided<[5], offset: 2>>, %[[RES:[a-z0-9]+]]: memref<37x41xbf16, strided<[64, 1], offset: 130>>
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: %[[E0:.*]] = memref.reinterpret_cast %[[BIAS]] to offset: [3], sizes: [1, 41], strides: [41, 1] : memref<41xf32, strided<[1], offset: 3>> to memref<1x41xf32, strided<[41, 1], offset: 3>>
// CHECK: %[[E1:.*]] = memref.reinterpret_cast %[[SCALE]] to offset: [2], sizes: [37, 1], strides: [5, 1] : memref<37xf32, strided<[5], offset: 2>> to memref<37x1xf32, strided<[5, 1], offset: 2>>
// CHECK: gpu.launch_func @static_layouts_matmul0::@static_layouts_matmul0 {{.*}} args({{.*}}, %[[E0]] : memref<1x41xf32, strided<[41, 1], offset: 3>>, %[[E1]] : memref<37x1xf32, strided<[5, 1], offset: 2>>, %[[RES]] : memref<37x41xbf16, strided<[64, 1], offset: 130>>)
func.func @static_layouts(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>,
    %bias: memref<41xf32, strided<[1], offset: 3>>, %scale: memref<37xf32, strided<[5], offset: 2>>,
    %res: memref<37x41xbf16, strided<[64, 1], offset: 130>>) {
  linalg.matmul ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>)
  linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %scale, %res : memref<41xf32, strided<[1], offset: 3>>, memref<37xf32, strided<[5], offset: 2>>, memref<37x41xbf16, strided<[64, 1], offset: 130>>) outs(%c : memref<37x41xf32>) {
  ^bb0(%x: f32, %y: f32, %r: bf16, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    %re = arith.extf %r : bf16 to f32
    %u = arith.addf %t, %re : f32
    linalg.yield %u : f32
  }
  return
}

// The dynamic fields come from the operand's own metadata: the bias's
// offset, the scale's offset and stride; the residual (an affine map) is
// cast to strided<[?, 1], offset: ?>.
// CHECK-LABEL: func.func @dynamic_layouts
// CHECK-SAME: %[[BIAS:[a-z0-9]+]]: memref<41xf32, strided<[1], offset: ?>>, %[[SCALE:[a-z0-9]+]]: memref<37xf32, strided<[?], offset: ?>>, %[[RES:[a-z0-9]+]]: memref<37x41xf32, #{{.*}}>
// CHECK: %{{.*}}, %[[BOFF:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[BIAS]]
// CHECK: %[[E0:.*]] = memref.reinterpret_cast %[[BIAS]] to offset: [%[[BOFF]]], sizes: [1, 41], strides: [41, 1] : {{.*}} to memref<1x41xf32, strided<[41, 1], offset: ?>>
// CHECK: %{{.*}}, %[[SOFF:.*]], %{{.*}}, %[[SSTRIDE:.*]] = memref.extract_strided_metadata %[[SCALE]]
// CHECK: %[[E1:.*]] = memref.reinterpret_cast %[[SCALE]] to offset: [%[[SOFF]]], sizes: [37, 1], strides: [%[[SSTRIDE]], 1] : {{.*}} to memref<37x1xf32, strided<[?, 1], offset: ?>>
// CHECK: %[[E2:.*]] = memref.cast %[[RES]] : memref<37x41xf32, #{{.*}}> to memref<37x41xf32, strided<[?, 1], offset: ?>>
// CHECK: gpu.launch_func @dynamic_layouts_matmul0::@dynamic_layouts_matmul0 {{.*}} args({{.*}}, %[[E0]] : {{.*}}, %[[E1]] : {{.*}}, %[[E2]] : memref<37x41xf32, strided<[?, 1], offset: ?>>)
func.func @dynamic_layouts(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>,
    %bias: memref<41xf32, strided<[1], offset: ?>>, %scale: memref<37xf32, strided<[?], offset: ?>>,
    %res: memref<37x41xf32, affine_map<(d0, d1)[s0, s1] -> (d0 * s1 + s0 + d1)>>) {
  linalg.matmul ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>)
  linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %scale, %res : memref<41xf32, strided<[1], offset: ?>>, memref<37xf32, strided<[?], offset: ?>>, memref<37x41xf32, affine_map<(d0, d1)[s0, s1] -> (d0 * s1 + s0 + d1)>>) outs(%c : memref<37x41xf32>) {
  ^bb0(%x: f32, %y: f32, %r: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    %u = arith.addf %t, %r : f32
    linalg.yield %u : f32
  }
  return
}

// Per-batch vectors keep their batch strides (the bias's dynamic, the
// scale's 64); the shared residual has no batch dimension.
// CHECK-LABEL: func.func @batched
// CHECK-SAME: %[[BIAS:[a-z0-9]+]]: memref<3x24xf32, strided<[?, 1], offset: ?>>, %[[SCALE:[a-z0-9]+]]: memref<3x20xf32, strided<[64, 3], offset: 1>>
// CHECK: %{{.*}}, %[[BOFF:.*]], %{{.*}}:2, %[[BSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[BIAS]]
// CHECK: memref.reinterpret_cast %[[BIAS]] to offset: [%[[BOFF]]], sizes: [3, 1, 24], strides: [%[[BSTRIDES]]#0, 24, 1] : {{.*}} to memref<3x1x24xf32, strided<[?, 24, 1], offset: ?>>
// CHECK: memref.reinterpret_cast %[[SCALE]] to offset: [1], sizes: [3, 20, 1], strides: [64, 3, 1] : {{.*}} to memref<3x20x1xf32, strided<[64, 3, 1], offset: 1>>
func.func @batched(%a: memref<3x20x16xf32>, %b: memref<3x16x24xf32>, %c: memref<3x20x24xf32>,
    %bias: memref<3x24xf32, strided<[?, 1], offset: ?>>, %scale: memref<3x20xf32, strided<[64, 3], offset: 1>>,
    %res: memref<20x24xf32, strided<[32, 1], offset: 8>>) {
  linalg.batch_matmul ins(%a, %b : memref<3x20x16xf32>, memref<3x16x24xf32>) outs(%c : memref<3x20x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias, %scale, %res : memref<3x24xf32, strided<[?, 1], offset: ?>>, memref<3x20xf32, strided<[64, 3], offset: 1>>, memref<20x24xf32, strided<[32, 1], offset: 8>>) outs(%c : memref<3x20x24xf32>) {
  ^bb0(%x: f32, %y: f32, %r: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    %u = arith.addf %t, %r : f32
    linalg.yield %u : f32
  }
  return
}

// A batch of one: the dynamic batch strides of its per-batch vectors are
// static 1 on both sides (never stepped), the others the operands' own.
// CHECK-LABEL: func.func @batch_one
// CHECK-SAME: %[[SCALE:[a-z0-9]+]]: memref<1x20xf32, strided<[?, 3], offset: 1>>, %[[BIAS:[a-z0-9]+]]: memref<1x24xf32, strided<[?, 1], offset: 2>>
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: memref.reinterpret_cast %[[SCALE]] to offset: [1], sizes: [1, 20, 1], strides: [1, 3, 1] : {{.*}} to memref<1x20x1xf32, strided<[1, 3, 1], offset: 1>>
// CHECK: memref.reinterpret_cast %[[BIAS]] to offset: [2], sizes: [1, 1, 24], strides: [1, 24, 1] : {{.*}} to memref<1x1x24xf32, strided<[1, 24, 1], offset: 2>>

func.func @batch_one(%a: memref<1x20x16xf32>, %b: memref<1x16x24xf32>, %c: memref<1x20x24xf32>,
    %scale: memref<1x20xf32, strided<[?, 3], offset: 1>>, %bias: memref<1x24xf32, strided<[?, 1], offset: 2>>) {
  linalg.batch_matmul ins(%a, %b : memref<1x20x16xf32>, memref<1x16x24xf32>) outs(%c : memref<1x20x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scale, %bias : memref<1x20xf32, strided<[?, 3], offset: 1>>, memref<1x24xf32, strided<[?, 1], offset: 2>>) outs(%c : memref<1x20x24xf32>) {
  ^bb0(%y: f32, %x: f32, %o: f32):
    %t = arith.mulf %o, %y : f32
    %u = arith.addf %t, %x : f32
    linalg.yield %u : f32
  }
  return
}

// The kernels: each parameter with its layout, in tile.epilogue's layouts
// too (-1 for a dynamic field, the batch stride of a per-batch operand
// last); the dynamic ones' kernel indexes in 64 bits (no 32-bit data
// layout on its module).
// CHECK-LABEL: gpu.module @static_layouts_matmul0 attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>}
// CHECK: gpu.func @static_layouts_matmul0({{.*}}, %arg3: memref<1x41xf32, strided<[41, 1], offset: 3>> {llvm.noalias, llvm.readonly}, %arg4: memref<37x1xf32, strided<[5, 1], offset: 2>> {llvm.noalias, llvm.readonly}, %arg5: memref<37x41xbf16, strided<[64, 1], offset: 130>> {llvm.noalias, llvm.readonly})
// CHECK-SAME: tile.epilogue = {layouts = [array<i64: 3, 41>, array<i64: 2, 5>, array<i64: 130, 64>], operands = ["col", "row", "full"], steps = ["addf acc p0", "mulf s0 p1", "addf s1 p2"], types = [f32, f32, bf16]}
// CHECK-LABEL: gpu.module @dynamic_layouts_matmul0 {
// CHECK: gpu.func @dynamic_layouts_matmul0({{.*}}, %arg3: memref<1x41xf32, strided<[41, 1], offset: ?>> {{.*}}, %arg4: memref<37x1xf32, strided<[?, 1], offset: ?>> {{.*}}, %arg5: memref<37x41xf32, strided<[?, 1], offset: ?>> {{.*}})
// CHECK-SAME: tile.epilogue = {layouts = [array<i64: -1, 41>, array<i64: -1, -1>, array<i64: -1, -1>]
// CHECK-LABEL: gpu.module @batched_matmul0
// CHECK: gpu.func @batched_matmul0({{.*}}, %arg3: memref<3x1x24xf32, strided<[?, 24, 1], offset: ?>> {{.*}}, %arg4: memref<3x20x1xf32, strided<[64, 3, 1], offset: 1>> {{.*}}, %arg5: memref<20x24xf32, strided<[32, 1], offset: 8>> {{.*}})
// CHECK-SAME: tile.epilogue = {layouts = [array<i64: -1, 24, -1>, array<i64: 1, 3, 64>, array<i64: 8, 32>], operands = ["col", "row", "full"], per_batch = [true, true, false]
