// RUN: tile-opt %s --pass-pipeline='builtin.module(gpu.module(tile-lower-nvgpu))' -split-input-file | FileCheck %s

// The nvgpu async copies become NVVM cp.async ops whose index arithmetic
// follows the module's 32-bit index: the source-size operand is an i32 and
// no i64 index value appears (upstream's convert-nvgpu-to-nvvm would use
// i64 here, and the cast back to the kernels' i32 index could not be
// reconciled). 16-byte copies that bypass L1 become cp.async.cg, 4-byte
// ones cp.async.ca; a group is a commit, a wait a wait_group.

// CHECK-LABEL: gpu.func @copies
//   CHECK-NOT: i64
//       CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
//       CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
//       CHECK: nvvm.cp.async.commit.group
//       CHECK: nvvm.cp.async.wait.group 1
//   CHECK-NOT: nvgpu.
module attributes {gpu.container_module} {
  gpu.module @m attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
    gpu.func @copies(%a: memref<64x64xf32>, %i: index, %n: index) kernel {
      %s = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %v = memref.view %s[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x64xf32, #gpu.address_space<workgroup>>
      %t0 = nvgpu.device_async_copy %a[%i, %c0], %v[%c0, %i], 1, %n : memref<64x64xf32> to memref<16x64xf32, #gpu.address_space<workgroup>>
      %t1 = nvgpu.device_async_copy %a[%i, %c0], %v[%c0, %i], 4, %n {bypassL1} : memref<64x64xf32> to memref<16x64xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %t0, %t1
      nvgpu.device_async_wait %g {numGroups = 1 : i32}
      gpu.return
    }
  }
}

// -----

// A module without nvgpu ops is left as it is.

// CHECK-LABEL: gpu.func @plain
//  CHECK-NEXT: memref.load
//  CHECK-NEXT: gpu.return
module attributes {gpu.container_module} {
  gpu.module @m attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
    gpu.func @plain(%a: memref<4xf32>, %i: index) kernel {
      %x = memref.load %a[%i] : memref<4xf32>
      gpu.return
    }
  }
}
