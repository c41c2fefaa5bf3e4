// RUN: rm -rf %t && tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: FileCheck %s < %t/odd_matmul0.json

// A bf16 C with an odd N is stored one element at a time: the kernel
// assumes C's base pointer 2-byte aligned (tile.c_alignment = 2), and the
// manifest says so; tile-export accepts it.
// CHECK: "name": "C", "role": "result", "element_type": "bf16", "rows": 49, "cols": 961, {{.*}}"alignment": 2,
func.func @odd(%A: tensor<49x64xbf16>, %B: tensor<64x961xbf16>) -> tensor<49x961xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<49x961xbf16>
  %C = linalg.fill ins(%zero : bf16) outs(%empty : tensor<49x961xbf16>) -> tensor<49x961xbf16>
  %R = linalg.matmul ins(%A, %B : tensor<49x64xbf16>, tensor<64x961xbf16>) outs(%C : tensor<49x961xbf16>) -> tensor<49x961xbf16>
  return %R : tensor<49x961xbf16>
}
