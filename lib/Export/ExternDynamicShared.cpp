//===- ExternDynamicShared.cpp - extern linkage for dynamic shared memory -===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEEXTERNDYNAMICSHARED
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
struct TileExternDynamicSharedPass
    : public mlir::tile::impl::TileExternDynamicSharedBase<
          TileExternDynamicSharedPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::GlobalOp global) {
      auto type = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      // Zero-sized arrays in the shared address space are the launch's
      // dynamic shared memory (nothing else can be zero-sized there).
      if (!type || type.getNumElements() != 0 ||
          global.getAddrSpace() !=
              static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared) ||
          global.getLinkage() == LLVM::Linkage::External)
        return;
      global.setLinkage(LLVM::Linkage::External);
      global.getInitializerRegion().getBlocks().clear();
      global.removeValueAttr();
      global.setDsoLocal(false);
    });
  }
};
} // namespace
