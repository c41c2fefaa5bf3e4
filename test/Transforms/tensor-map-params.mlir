// RUN: tile-opt %s --tile-tensor-map-params=phase=gpu | FileCheck %s --check-prefix=GPU
// RUN: tile-opt %s --pass-pipeline="builtin.module(tile-tensor-map-params{phase=gpu},gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true}),tile-tensor-map-params{phase=llvm})" | FileCheck %s --check-prefix=LLVM
// RUN: not tile-opt %s --tile-tensor-map-params=phase=ptx 2>&1 | FileCheck %s --check-prefix=BAD

// phase=gpu: the tensor-map parameters become pointers marked with the
// CUtensorMap's 64-byte alignment; the body casts them back, and so does
// the host for its launch. phase=llvm (after convert-gpu-to-nvvm): those
// pointers become by-value 128-byte grid constants.

// GPU-LABEL: func.func @host
// GPU: %[[D:.+]] = nvgpu.tma.create.descriptor
// GPU: %[[P:.+]] = builtin.unrealized_conversion_cast %[[D]] : !nvgpu.tensormap.descriptor<{{.*}}> to !llvm.ptr
// GPU: gpu.launch_func @k::@k {{.*}} args(%{{.+}} : memref<64x64xbf16>, %{{.+}} : memref<64x64xbf16>, %{{.+}} : memref<64x64xf32>, %[[P]] : !llvm.ptr)
// GPU: gpu.func @k(%{{.+}}: memref<64x64xbf16>, %{{.+}}: memref<64x64xbf16>, %{{.+}}: memref<64x64xf32>, %[[ARG:.+]]: !llvm.ptr {llvm.align = 64 : i64, tile.tensor_map = "A"})
// GPU-NEXT: %[[BACK:.+]] = builtin.unrealized_conversion_cast %[[ARG]] : !llvm.ptr to !nvgpu.tensormap.descriptor
// GPU-NEXT: nvgpu.tma.prefetch.descriptor %[[BACK]]

// LLVM: llvm.func @k(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})

// BAD: error: tile-tensor-map-params: option 'phase' must be gpu or llvm, got 'ptx'
module attributes {gpu.container_module} {
  func.func @host(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %cast = memref.cast %a : memref<64x64xbf16> to memref<*xbf16>
    %d = nvgpu.tma.create.descriptor %cast box[%c64, %c64] : memref<*xbf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64x64xbf16>, %b : memref<64x64xbf16>, %c : memref<64x64xf32>, %d : !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>)
    return
  }
  gpu.module @k {
    gpu.func @k(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>, %d: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none> {tile.tensor_map = "A"}) kernel {
      nvgpu.tma.prefetch.descriptor %d : !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
      gpu.return
    }
  }
}
