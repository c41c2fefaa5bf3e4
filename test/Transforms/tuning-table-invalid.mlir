// A tuning table given with tuning-table= is read before any matmul is
// configured; every way it can be malformed is an error at the module that
// names the file and what is wrong (the built-in table is checked the same
// way by a unit test).
// RUN: not tile-opt %s --tile-configure=tuning-table=%S/Inputs/tuning-table-not-object.json 2>&1 | FileCheck %s --check-prefix=NOT-OBJECT
// RUN: not tile-opt %s --tile-configure=tuning-table=%S/Inputs/tuning-table-no-element-type.json 2>&1 | FileCheck %s --check-prefix=NO-ELEMENT-TYPE
// RUN: not tile-opt %s --tile-configure=tuning-table=%S/Inputs/tuning-table-entry-not-object.json 2>&1 | FileCheck %s --check-prefix=ENTRY-NOT-OBJECT
// RUN: not tile-opt %s --tile-configure=tuning-table=%S/Inputs/tuning-table-bad-size.json 2>&1 | FileCheck %s --check-prefix=BAD-SIZE
// RUN: not tile-opt %s --tile-configure=tuning-table=%S/Inputs/tuning-table-bad-stages.json 2>&1 | FileCheck %s --check-prefix=BAD-STAGES
// RUN: not tile-opt %s --tile-configure=tuning-table=%S/Inputs/tuning-table-bad-shape.json 2>&1 | FileCheck %s --check-prefix=BAD-SHAPE

// NOT-OBJECT: error: tile-configure: {{.*}}tuning-table-not-object.json: tuning table: expected a JSON object
// NO-ELEMENT-TYPE: error: tile-configure: {{.*}}tuning-table-no-element-type.json: tuning table: needs 'chip', 'element_type' and 'entries'
// ENTRY-NOT-OBJECT: error: tile-configure: {{.*}}tuning-table-entry-not-object.json: tuning table entry 0: expected an object
// BAD-SIZE: error: tile-configure: {{.*}}tuning-table-bad-size.json: tuning table entry 0: 'block' must be a list of 3 integers
// BAD-STAGES: error: tile-configure: {{.*}}tuning-table-bad-stages.json: tuning table entry 0: 'stages' must be an integer
// BAD-SHAPE: error: tile-configure: {{.*}}tuning-table-bad-shape.json: tuning table entry 0: 'n' must be an integer

func.func @f(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
