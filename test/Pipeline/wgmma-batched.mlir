// Batched bf16 matmuls on the wgmma strategy through the whole pipeline
// (ptxas off): the TMA copies are 3-d (cp.async.bulk.tensor.3d, the matrix
// %ctaid.y their outer coordinate), C goes out in pairs (st.global.v2, no
// single-element store), and the manifest's tensor maps are batched, also
// for a batch of one matrix (whose params have no batch_stride). Rows off
// 16 bytes: the maps view repacked copies (repack_row_stride, batched).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/wb_matmul0.ptx
// RUN: FileCheck %s --check-prefix=STORE --input-file=%t/wb_matmul0.ptx
// RUN: FileCheck %s --check-prefix=BMM --input-file=%t/wb_matmul0.json
// RUN: FileCheck %s --check-prefix=ONE --input-file=%t/wb_one_matmul0.json
// RUN: FileCheck %s --check-prefix=REPACK --input-file=%t/wb_repack_matmul0.json

// PTX: .visible .entry wb_matmul0(
// PTX-NOT: cp.async.bulk.tensor.2d
// PTX: mov.u32 %{{.*}}, %ctaid.y;
// PTX-NOT: cp.async.bulk.tensor.2d
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}]
// PTX-NOT: cp.async.bulk.tensor.2d
// PTX: ret;

// STORE-NOT: st.global.b32
// STORE: st.global.v2.b32
// STORE-NOT: st.global.b32

// BMM: "problem": {"m": 256, "n": 256, "k": 128, "batch": 6,
// BMM: "tensor_maps": [
// BMM-NEXT: {"param": "A", "box": [64, 64], "swizzle": "128B", "l2_promotion": "128B", "batched": true},
// BMM-NEXT: {"param": "B", "box": [64, 64], "swizzle": "128B", "l2_promotion": "128B", "batched": true}

// ONE-NOT: "batch"
// ONE: "tensor_maps": [
// ONE-NEXT: {"param": "A", {{.*}}"batched": true},
// ONE-NEXT: {"param": "B", {{.*}}"batched": true}
// ONE-NOT: "batch_stride"

// Rows off 16 bytes with the TMA (written on the op: the model copies
// through registers at this size): each operand repacked, maps batched.
// REPACK: "tensor_maps": [
// REPACK-NEXT: {"param": "A", {{.*}}"repack_row_stride": 64, "batched": true},
// REPACK-NEXT: {"param": "B", {{.*}}"repack_row_stride": 64, "batched": true}
func.func @wb(%A: memref<6x256x128xbf16>, %B: memref<6x128x256xbf16>, %C: memref<6x256x256xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<6x256x128xbf16>, memref<6x128x256xbf16>) outs(%C : memref<6x256x256xf32>)
  return
}
func.func @wb_one(%A: memref<1x256x128xbf16>, %B: memref<1x128x256xbf16>, %C: memref<1x256x256xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<1x256x128xbf16>, memref<1x128x256xbf16>) outs(%C : memref<1x256x256xf32>)
  return
}
func.func @wb_repack(%A: memref<4x100x37xbf16>, %B: memref<4x37x45xbf16>, %C: memref<4x100x45xf32>) {
  linalg.batch_matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], copy = tma, repack = true>} ins(%A, %B : memref<4x100x37xbf16>, memref<4x37x45xbf16>) outs(%C : memref<4x100x45xf32>)
  return
}
