//===- Pipelines.h - tile-opt's pass pipelines ------------------*- C++ -*-===//
//
// The pipeline from linalg.matmul to PTX/cubin, as one builder function that
// lists the passes in order: reading buildMatmulToPTXPipeline tells the
// whole story.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace tile {

/// Options of the matmul → PTX pipeline (`--tile-matmul-to-ptx="..."`).
struct MatmulToPTXOptions : public PassPipelineOptions<MatmulToPTXOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (sm_XY)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> ptxVersion{
      *this, "ptx-version",
      llvm::cl::desc("PTX ISA version of the output, as major.minor"),
      llvm::cl::init("8.1")};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("LLVM optimization level (0-3)"),
                            llvm::cl::init(3)};
  // Config overrides: each replaces one field of the chosen #tile.config.
  ListOption<int64_t> blockTile{*this, "block",
                                llvm::cl::desc("Block tile M,N,K")};
  ListOption<int64_t> warpTile{*this, "warp", llvm::cl::desc("Warp tile M,N")};
  ListOption<int64_t> threadTile{*this, "thread",
                                 llvm::cl::desc("Thread tile M,N")};
  Option<int64_t> stages{*this, "stages",
                         llvm::cl::desc("Shared-memory stages, 1 or 2 "
                                        "(0: chosen by the config pass)"),
                         llvm::cl::init(0)};
  Option<int64_t> swizzle{*this, "swizzle",
                          llvm::cl::desc("Launch swizzle group in block rows "
                                         "(0: chosen by the config pass)"),
                          llvm::cl::init(0)};
  Option<std::string> smem{
      *this, "smem",
      llvm::cl::desc("A-tile shared layout (a transposed B's tile takes the "
                     "same pad): none, pad<N> or xor (empty: "
                     "chosen by the config pass)"),
      llvm::cl::init("")};
  Option<std::string> prefetch{
      *this, "prefetch",
      llvm::cl::desc("Register prefetch: true or false (empty: chosen by the "
                     "config pass)"),
      llvm::cl::init("")};
  Option<std::string> copy{
      *this, "copy",
      llvm::cl::desc("How A and B reach shared memory: registers, cp_async "
                     "or tma (empty: chosen by the config pass)"),
      llvm::cl::init("")};
  Option<std::string> specialize{
      *this, "specialize",
      llvm::cl::desc("Warp specialization of wgmma kernels: true or false "
                     "(empty: chosen by the config pass)"),
      llvm::cl::init("")};
  Option<std::string> persistent{
      *this, "persistent",
      llvm::cl::desc("Persistent wgmma kernels (specialized, TMA, no "
                     "split-K): a grid of what fits on the chip at once, "
                     "each block walking the tiles: true or false (empty: "
                     "chosen by the config pass)"),
      llvm::cl::init("")};
  Option<std::string> store{
      *this, "store",
      llvm::cl::desc("How wgmma kernels (specialized, TMA, no split-K) write "
                     "C: tma (staged in shared memory, written by TMA "
                     "stores) or registers (each thread's stores) (empty: "
                     "chosen by the config pass)"),
      llvm::cl::init("")};
  Option<std::string> cluster{
      *this, "cluster",
      llvm::cl::desc("Thread-block cluster of wgmma kernels (specialized, "
                     "TMA): 1x1 (none), 2x1 (two blocks along M multicast "
                     "B's boxes to each other) or 1x2 (two blocks along N "
                     "multicast A's) (empty: chosen by the config pass)"),
      llvm::cl::init("")};
  Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("Compute f32 matmuls on the tensor cores as TF32 "
                     "(wgmma .tf32; A stored M x K, B stored N x K), not "
                     "in FP32 on the CUDA cores; off by default"),
      llvm::cl::init(false)};
  Option<int64_t> persistentBlocks{
      *this, "persistent-blocks",
      llvm::cl::desc("Blocks of a persistent kernel's grid (0: the SMs of "
                     "sm_90 times the config's occupancy; rounded down to "
                     "whole clusters, at least one)"),
      llvm::cl::init(0)};
  Option<std::string> repack{
      *this, "repack",
      llvm::cl::desc("Repack A or B whose rows break the TMA's 16-byte rule "
                     "into padded copies before the launch (wgmma with copy "
                     "= tma; true without copy= takes the TMA), or for fma "
                     "B with N not a multiple of 4 into rows on 16 bytes: "
                     "true or false (empty: chosen by the config pass)"),
      llvm::cl::init("")};
  Option<int64_t> occupancy{
      *this, "occupancy",
      llvm::cl::desc("Blocks per SM the kernel must fit (0: chosen by the "
                     "config pass)"),
      llvm::cl::init(0)};
  Option<bool> occupancyHint{
      *this, "occupancy-hint",
      llvm::cl::desc("Give compiler-chosen configs the cost model's blocks "
                     "per SM as occupancy (a register budget for ptxas)"),
      llvm::cl::init(true)};
  Option<int64_t> splitK{
      *this, "split-k",
      llvm::cl::desc("Blocks sharing one tile's K dimension (0: chosen by the "
                     "config pass)"),
      llvm::cl::init(0)};
  Option<int64_t> splitLast{
      *this, "split-last",
      llvm::cl::desc("With split-K (wgmma), split only the last N tiles of "
                     "the launch order, the others computed whole; 0 = every "
                     "tile split (-1: chosen by the config pass)"),
      llvm::cl::init(-1)};
  Option<unsigned> indexBitwidth{
      *this, "index-bitwidth",
      llvm::cl::desc("Bitwidth of index arithmetic in kernels: 32, 64, or 0 "
                     "for 32 where every element offset fits"),
      llvm::cl::init(0)};
  Option<std::string> fmaOrder{
      *this, "fma-order",
      llvm::cl::desc("Order of a k step's FMAs: pairs (2x2 groups) or rows"),
      llvm::cl::init("pairs")};
  Option<bool> vectorC{
      *this, "vector-c",
      llvm::cl::desc("Access C with vector loads and stores instead of one "
                     "element at a time"),
      llvm::cl::init(false)};
  Option<std::string> tuningTable{
      *this, "tuning-table",
      llvm::cl::desc("JSON tuning table (empty: the built-in one; none: "
                     "no table)"),
      llvm::cl::init("")};
  // Output.
  Option<std::string> outputDir{
      *this, "output-dir",
      llvm::cl::desc("Directory for <kernel>.ptx/.cubin/.json (empty: write "
                     "nothing)"),
      llvm::cl::init("")};
  Option<std::string> ptxas{
      *this, "ptxas",
      llvm::cl::desc("ptxas for the cubin: auto, off, or a path"),
      llvm::cl::init("auto")};
  Option<bool> report{*this, "report",
                      llvm::cl::desc("Print the cost-model report of every "
                                     "kernel"),
                      llvm::cl::init(false)};
  Option<std::string> svgDir{
      *this, "svg-dir",
      llvm::cl::desc("Write a picture of each kernel's tiling to "
                     "DIR/<kernel>.svg (tile-report's svg-dir; prints the "
                     "report too; empty: no pictures)"),
      llvm::cl::init("")};
};

/// Adds the whole matmul → PTX/cubin pipeline to `pm` (anchored on
/// builtin.module): bufferization of tensor matmuls, configuration, block,
/// shared-memory, warp and thread tiling, software pipelining, kernel
/// outlining, NVVM lowering and export.
void buildMatmulToPTXPipeline(OpPassManager &pm,
                              const MatmulToPTXOptions &options);

/// Adds only the tiling stages (configure through software pipelining), which
/// turn each linalg.matmul into a kernel (gpu.func) of SIMT code and a
/// gpu.launch_func of it.
void buildMatmulTilingPipeline(OpPassManager &pm,
                               const MatmulToPTXOptions &options);

/// Registers `tile-matmul-to-ptx` and `tile-matmul-tiling` with the pass
/// pipeline registry.
void registerTilePipelines();

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_PIPELINES_H
