// REQUIRES: ptxas
// A config the compiler picks never spills: ten shapes compiled with the
// default pipeline (tuning table, cost model, occupancy hint), each kernel
// assembled by tile-export's ptxas run, report 0 bytes of spill stores,
// spill loads and stack in the manifest. 14x23x27 and 9x11x30 spilled (up
// to 1.5 KB of spill stores, 840 bytes of stack) when the hint capped
// registers at 64; the others are bench/random-shapes.py --seed 5
// --count 2 (bench/check-spills.py runs 1000 such shapes).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t"
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s14x23x27_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s9x11x30_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s273x799x1293_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s1943x1087x9_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s3354x2x68_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s30x2x9_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s4665x39x4068_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s2536x494x6606_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s1879x4659x73_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s160x5571x6139_matmul0.json
// NOSPILL: "resources": {"registers": {{[1-9][0-9]*}}, "spill_stores": 0, "spill_loads": 0, "stack_bytes": 0}

func.func @s14x23x27(%A: memref<14x27xf32>, %B: memref<27x23xf32>, %C: memref<14x23xf32>) {
  linalg.matmul ins(%A, %B : memref<14x27xf32>, memref<27x23xf32>) outs(%C : memref<14x23xf32>)
  return
}
func.func @s9x11x30(%A: tensor<9x30xf32>, %B: tensor<30x11xf32>) -> tensor<9x11xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<9x11xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<9x11xf32>) -> tensor<9x11xf32>
  %R = linalg.matmul ins(%A, %B : tensor<9x30xf32>, tensor<30x11xf32>) outs(%C : tensor<9x11xf32>) -> tensor<9x11xf32>
  return %R : tensor<9x11xf32>
}
func.func @s273x799x1293(%A: memref<273x1293xf32>, %B: memref<1293x799xf32>, %C: memref<273x799xf32>) {
  linalg.matmul ins(%A, %B : memref<273x1293xf32>, memref<1293x799xf32>) outs(%C : memref<273x799xf32>)
  return
}
func.func @s1943x1087x9(%A: memref<1943x9xf32>, %B: memref<9x1087xf32>, %C: memref<1943x1087xf32>) {
  linalg.matmul ins(%A, %B : memref<1943x9xf32>, memref<9x1087xf32>) outs(%C : memref<1943x1087xf32>)
  return
}
func.func @s3354x2x68(%A: memref<3354x68xf32>, %B: memref<68x2xf32>, %C: memref<3354x2xf32>) {
  linalg.matmul ins(%A, %B : memref<3354x68xf32>, memref<68x2xf32>) outs(%C : memref<3354x2xf32>)
  return
}
func.func @s30x2x9(%A: memref<30x9xf32>, %B: memref<9x2xf32>, %C: memref<30x2xf32>) {
  linalg.matmul ins(%A, %B : memref<30x9xf32>, memref<9x2xf32>) outs(%C : memref<30x2xf32>)
  return
}
func.func @s4665x39x4068(%A: memref<4665x4068xf32>, %B: memref<4068x39xf32>, %C: memref<4665x39xf32>) {
  linalg.matmul ins(%A, %B : memref<4665x4068xf32>, memref<4068x39xf32>) outs(%C : memref<4665x39xf32>)
  return
}
func.func @s2536x494x6606(%A: tensor<2536x6606xf32>, %B: tensor<6606x494xf32>) -> tensor<2536x494xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2536x494xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<2536x494xf32>) -> tensor<2536x494xf32>
  %R = linalg.matmul ins(%A, %B : tensor<2536x6606xf32>, tensor<6606x494xf32>) outs(%C : tensor<2536x494xf32>) -> tensor<2536x494xf32>
  return %R : tensor<2536x494xf32>
}
func.func @s1879x4659x73(%A: memref<1879x73xf32>, %B: memref<73x4659xf32>, %C: memref<1879x4659xf32>) {
  linalg.matmul ins(%A, %B : memref<1879x73xf32>, memref<73x4659xf32>) outs(%C : memref<1879x4659xf32>)
  return
}
func.func @s160x5571x6139(%A: memref<160x6139xf32>, %B: memref<6139x5571xf32>, %C: memref<160x5571xf32>) {
  linalg.matmul ins(%A, %B : memref<160x6139xf32>, memref<6139x5571xf32>) outs(%C : memref<160x5571xf32>)
  return
}
