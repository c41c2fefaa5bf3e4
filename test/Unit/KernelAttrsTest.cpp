//===- KernelAttrsTest.cpp - the checked readers of the kernel attributes -===//
//
// getMatmulProblem and the other readers in Utils.h on ops built here: what
// they return for well-formed attributes, and the error (at the op, naming
// the attribute) for missing and malformed ones. The lit tests reach them
// through the passes; a missing tile.matmul is reported by the passes
// themselves before they read it, so it is tested here.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

class KernelAttrsTest : public ::testing::Test {
protected:
  KernelAttrsTest()
      : handler(&context, [this](Diagnostic &diagnostic) {
          errors.push_back(diagnostic.str());
          return success();
        }) {
    context.loadDialect<TileDialect>();
    op = ModuleOp::create(UnknownLoc::get(&context));
  }
  ~KernelAttrsTest() override { op->erase(); }

  MLIRContext context;
  ScopedDiagnosticHandler handler;
  std::vector<std::string> errors;
  ModuleOp op;
};

TEST_F(KernelAttrsTest, WellFormedProblem) {
  MatmulProblem written;
  written.m = 3;
  written.n = 5;
  written.k = 7;
  written.elementType = Builder(&context).getBF16Type();
  written.resultType = Builder(&context).getF32Type();
  written.fill = true;
  written.fillValue = Builder(&context).getF32FloatAttr(0.5f);
  op->setAttr(kMatmulAttrName, buildMatmulAttr(&context, written));
  FailureOr<MatmulProblem> read = getMatmulProblem(op, "unit");
  ASSERT_TRUE(succeeded(read));
  EXPECT_EQ(read->m, 3);
  EXPECT_EQ(read->n, 5);
  EXPECT_EQ(read->k, 7);
  EXPECT_TRUE(read->elementType.isBF16());
  EXPECT_TRUE(read->resultType.isF32());
  EXPECT_TRUE(read->fill);
  EXPECT_EQ(read->fillValue, written.fillValue);
  EXPECT_TRUE(errors.empty());
}

TEST_F(KernelAttrsTest, TransposedOperands) {
  MatmulProblem written;
  written.m = 3;
  written.n = 5;
  written.k = 7;
  written.elementType = written.resultType = Builder(&context).getF32Type();
  // Row-major operands: no transpose_a / transpose_b entries at all.
  DictionaryAttr plain = buildMatmulAttr(&context, written);
  EXPECT_FALSE(plain.get("transpose_a"));
  EXPECT_FALSE(plain.get("transpose_b"));
  written.transposeB = true;
  op->setAttr(kMatmulAttrName, buildMatmulAttr(&context, written));
  FailureOr<MatmulProblem> read = getMatmulProblem(op, "unit");
  ASSERT_TRUE(succeeded(read));
  EXPECT_FALSE(read->transposeA);
  EXPECT_TRUE(read->transposeB);
  EXPECT_EQ(read->storedShapeA(), (std::pair<int64_t, int64_t>{3, 7}));
  EXPECT_EQ(read->storedShapeB(), (std::pair<int64_t, int64_t>{5, 7}));
  // Malformed: not a bool.
  SmallVector<NamedAttribute> entries(plain.getValue());
  entries.push_back(Builder(&context).getNamedAttr(
      "transpose_a", Builder(&context).getI64IntegerAttr(1)));
  op->setAttr(kMatmulAttrName, DictionaryAttr::get(&context, entries));
  EXPECT_TRUE(failed(getMatmulProblem(op, "unit")));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "unit: 'tile.matmul' needs 'transpose_a', a bool "
                       "where present, got 1 : i64");
}

TEST_F(KernelAttrsTest, MissingProblem) {
  EXPECT_TRUE(failed(getMatmulProblem(op, "unit")));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "unit: 'tile.matmul' is missing");
}

TEST_F(KernelAttrsTest, OptionalAttributes) {
  Builder b(&context);
  // Absent: no value, no error.
  FailureOr<std::optional<int64_t>> bytes = getDynamicSharedBytes(op, "unit");
  ASSERT_TRUE(succeeded(bytes));
  EXPECT_FALSE(bytes->has_value());
  FailureOr<DictionaryAttr> ptxas = getPtxasReport(op, "unit");
  ASSERT_TRUE(succeeded(ptxas));
  EXPECT_FALSE(*ptxas);
  // Present and well-formed.
  op->setAttr(kSharedBytesAttrName, b.getI64IntegerAttr(4096));
  op->setAttr(kCAlignmentAttrName, b.getI64IntegerAttr(16));
  EXPECT_EQ(**getDynamicSharedBytes(op, "unit"), 4096);
  EXPECT_EQ(**getCAlignment(op, "unit"), 16);
  // Malformed.
  op->setAttr(kCAlignmentAttrName, b.getI64IntegerAttr(32));
  EXPECT_TRUE(failed(getCAlignment(op, "unit")));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "unit: 'tile.c_alignment' must be 2, 4, 8 or 16 (bytes), "
                       "got 32 : i64");
}

} // namespace
