// RUN: rm -rf %t && tile-opt %s --tile-report="svg-dir=%t" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s < %t/odd*.svg
// RUN: %python -c "import sys, xml.etree.ElementTree as ET; print(ET.parse(sys.argv[1]).getroot().tag)" %t/odd*.svg | FileCheck %s --check-prefix=XML

// A picture of a matmul whose function has a name no kernel can have
// (tile-block-tile refuses it; the report draws it anyway): the text is
// escaped, so the file parses as XML, and a '/' in the file name becomes '_'.

// FILES: odd<&>"_name_matmul0.svg
// CHECK: kernel odd&lt;&amp;&gt;&quot;/name_matmul0: 64x32x16 f32, C (f32) += A*B
// XML: {http://www.w3.org/2000/svg}svg
func.func @"odd<&>\"/name"(%A: memref<64x16xf32>, %B: memref<16x32xf32>, %C: memref<64x32xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>}
    ins(%A, %B : memref<64x16xf32>, memref<16x32xf32>) outs(%C : memref<64x32xf32>)
  return
}
