//===- tile-downstream-opt.cpp - a tool built on the installed tile-opt ---===//
//
// Uses tile-opt's embedding API from its installed headers and libraries:
//   tile-downstream-opt [mlir-opt options] FILE
//       an mlir-opt with the tile dialect, passes and pipelines;
//   tile-downstream-opt --compile FILE
//       runs the matmul -> PTX pipeline, built in C++, on FILE and prints
//       every kernel it produced.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tile/InitAll.h"
#include "tile/Pipelines/Pipelines.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static int compile(StringRef path) {
  DialectRegistry registry;
  tile::registerTileDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &context);
  if (!module)
    return 1;

  PassManager pm(&context);
  tile::MatmulToPTXOptions options;
  options.chip = "sm_80";
  // PTX only, written nowhere: the kernels stay checkable without a CUDA
  // toolkit.
  options.ptxas = "off";
  tile::buildMatmulToPTXPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;

  module->walk([](gpu::GPUModuleOp gpuModule) {
    llvm::outs() << "gpu.module @" << gpuModule.getName() << " "
                 << gpuModule.getTargetsAttr() << "\n";
    gpuModule.walk([](LLVM::LLVMFuncOp func) {
      if (func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
        llvm::outs() << "  kernel @" << func.getName() << "\n";
    });
  });
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && StringRef(argv[1]) == "--compile")
    return compile(argv[2]);

  tile::registerTilePasses();
  DialectRegistry registry;
  tile::registerTileDialects(registry);
  return asMainReturnCode(
      MlirOptMain(argc, argv, "tile-downstream-opt", registry));
}
