// Upstream mlir-opt with tile-opt's plugin: the dialect plugin lets the
// parser read #tile.config, the pass plugin adds the passes and pipelines
// (reachable through --pass-pipeline only: plugins load after the command
// line is parsed).
// Not in the sanitizer build: an instrumented plugin cannot be loaded into
// the uninstrumented mlir-opt.
// UNSUPPORTED: sanitizer

// RUN: mlir-opt %s --load-dialect-plugin=%tile_plugin \
// RUN:   --load-pass-plugin=%tile_plugin \
// RUN:   --pass-pipeline="builtin.module(tile-configure)" > %t.plugin
// RUN: FileCheck %s --check-prefix=CONFIG < %t.plugin
// The plugin's passes are tile-opt's: the same configs, chosen by the same
// cost model.
// RUN: tile-opt %s --tile-configure > %t.native
// RUN: diff %t.native %t.plugin

// CONFIG-LABEL: func.func @model
// CONFIG:         linalg.matmul {tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [{{[0-9]+}}, {{[0-9]+}}], thread = [{{[0-9]+}}, {{[0-9]+}}], stages = {{[1-9]}}, swizzle = {{[0-9]+}}, smem = {{.+}}, prefetch = {{true|false}}{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>}
// CONFIG-LABEL: func.func @user
// CONFIG:         linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], stages = 1, swizzle = 8, smem = pad(4), prefetch = true>}

// Pass options through the pipeline string.
// RUN: mlir-opt %s --load-dialect-plugin=%tile_plugin \
// RUN:   --load-pass-plugin=%tile_plugin \
// RUN:   --pass-pipeline="builtin.module(tile-configure{block=32,32,16 swizzle=2})" \
// RUN:   | FileCheck %s --check-prefix=OPTIONS
// OPTIONS-COUNT-2: linalg.matmul {tile.config = #tile.config<block = [32, 32, 16], {{.*}} swizzle = 2,

// Two stages: every matmul becomes a launch of a kernel of its own.
// RUN: mlir-opt %s --load-dialect-plugin=%tile_plugin \
// RUN:   --load-pass-plugin=%tile_plugin \
// RUN:   --pass-pipeline="builtin.module(tile-configure,tile-block-tile)" \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// LAUNCH:     module attributes {gpu.container_module}
// LAUNCH-LABEL: func.func @model
// LAUNCH-NOT:   linalg.matmul
// LAUNCH:       gpu.launch_func @model_matmul0::@model_matmul0
// LAUNCH-SAME:    args(%{{.*}} : memref<256x256xf32>, %{{.*}} : memref<256x256xf32>, %{{.*}} : memref<256x256xf32>)
// LAUNCH-LABEL: func.func @user
// LAUNCH-NOT:   linalg.matmul
// LAUNCH:       gpu.launch_func @user_matmul0::@user_matmul0 blocks in
// LAUNCH-SAME:    threads in (%[[THREADS:.*]], %{{.*}}, %{{.*}})
// LAUNCH-DAG:   gpu.module @model_matmul0
// LAUNCH-DAG:   gpu.module @user_matmul0
// LAUNCH-DAG:   gpu.func @user_matmul0({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>

// Without the dialect plugin the parser does not know #tile.config.
// RUN: not mlir-opt %s --load-pass-plugin=%tile_plugin \
// RUN:   --pass-pipeline="builtin.module(tile-configure)" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-DIALECT
// NO-DIALECT: error: #"tile"<"config<block = [64, 64, 8],
// NO-DIALECT: 'none' attribute created with unregistered dialect

func.func @model(%a: memref<256x256xf32>, %b: memref<256x256xf32>,
                 %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>)
                outs(%c : memref<256x256xf32>)
  return
}

// A config written on the op is kept; the fields it omits get their
// defaults.
func.func @user(%a: memref<128x128xf32>, %b: memref<128x128xf32>,
                %c: memref<128x128xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8],
                                            warp = [32, 32], thread = [4, 8],
                                            stages = 1>}
    ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>)
    outs(%c : memref<128x128xf32>)
  return
}
