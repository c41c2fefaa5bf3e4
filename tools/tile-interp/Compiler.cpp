//===- Compiler.cpp - gpu.func -> flat instruction list
//---------------------===//
//
// Frame slots for SSA values, the handler table, and the structured control
// flow (scf.for, scf.if, scf.yield, gpu.return) as jumps.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile::interp;

std::string mlir::tile::interp::describeOp(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().skipRegions().elideLargeElementsAttrs());
  // One line, and not a page of attributes.
  std::string line;
  for (char c : text)
    if (c != '\n')
      line += c;
  if (line.size() > 400)
    line = line.substr(0, 400) + " ...";
  return line;
}

//===----------------------------------------------------------------------===//
// Compiler
//===----------------------------------------------------------------------===//

size_t Compiler::storageSize(Type type) {
  auto round = [](size_t bytes) { return (bytes + 7) / 8 * 8; };
  if (isa<IndexType, IntegerType>(type))
    return 8;
  if (auto floatType = dyn_cast<FloatType>(type))
    return floatType.getWidth() % 8 == 0 ? round(floatType.getWidth() / 8) : 0;
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable())
      return 0;
    Type element = vector.getElementType();
    size_t lane =
        isa<IndexType, IntegerType>(element)
            ? 8
            : (isa<FloatType>(element) ? cast<FloatType>(element).getWidth() / 8
                                       : 0);
    return round(lane * vector.getNumElements());
  }
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.getRank() <= kMaxRank ? sizeof(MemRefDesc) : 0;
  // Tokens (nvgpu.device.async.token, mbarrier tokens), mbarrier groups and
  // tensor maps: an id.
  if (type.getDialect().getNamespace() == "nvgpu")
    return 8;
  // A wgmma accumulator struct of f32: an 8-byte header (the wgmma group
  // that still writes it, and the wgmma.fence count when ordinary ops last
  // wrote it: WgmmaHandlers.cpp), then the values.
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
    if (structType.isOpaque() || structType.getBody().empty() ||
        !llvm::all_of(structType.getBody(),
                      [](Type field) { return field.isF32(); }))
      return 0;
    return round(8 + 4 * structType.getBody().size());
  }
  return 0;
}

unsigned Compiler::bitsOf(Type type) const {
  if (isa<IndexType>(type))
    return indexBits;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return 0;
}

uint32_t Compiler::use(Value value) {
  auto it = slots.find(value);
  assert(it != slots.end() && "value used before its definition");
  return it->second;
}

uint32_t Compiler::def(Value value) {
  size_t size = storageSize(value.getType());
  uint32_t offset = scratch(size == 0 ? 8 : size);
  slots[value] = offset;
  return offset;
}

uint32_t Compiler::scratch(size_t bytes) {
  uint32_t offset = program.frameSize;
  program.frameSize += (bytes + 7) / 8 * 8;
  program.frameTemplate.resize(program.frameSize, 0);
  return offset;
}

void Compiler::defConstant(Value value, ArrayRef<uint8_t> bytes) {
  uint32_t offset = def(value);
  std::memcpy(program.frameTemplate.data() + offset, bytes.data(),
              bytes.size());
}

Inst &Compiler::emit(ExecFn fn, Operation *op) {
  program.code.emplace_back();
  Inst &inst = program.code.back();
  inst.fn = fn;
  inst.op = op;
  return inst;
}

void Compiler::noteAccess(int64_t bytes) {
  if (bytes > 0 && bytes < program.granule)
    program.granule = bytes;
}

LogicalResult Compiler::fail(Operation *op, const Twine &why) {
  if (error.empty()) {
    error = why.str();
    errorOp = op;
  }
  return failure();
}

LogicalResult Compiler::compileOps(Block &block) {
  for (Operation &op : block.without_terminator()) {
    CompileFn fn = registry.lookup(op.getName().getStringRef());
    if (!fn)
      return fail(&op, "unsupported op '" + op.getName().getStringRef() +
                           "' (no handler in tools/tile-interp)");
    for (Value result : op.getResults())
      if (storageSize(result.getType()) == 0)
        return fail(&op, "unsupported result type");
    if (failed(fn(*this, &op)))
      return failure();
  }
  return success();
}

static void execDone(Exec &exec, Thread &thread, const Inst &) {
  thread.status = Status::Done;
}

LogicalResult Compiler::compileKernel(gpu::GPUFuncOp kernel) {
  if (!kernel.getWorkgroupAttributions().empty() ||
      !kernel.getPrivateAttributions().empty())
    return fail(kernel, "workgroup/private attributions are not supported "
                        "(use gpu.dynamic_shared_memory)");
  // Blocks run one after the other here; the blocks of a cluster wait
  // for each other (cluster barriers, arrives on each other's mbarriers).
  if (auto dims = kernel->getAttrOfType<DenseI32ArrayAttr>(
          NVVM::NVVMDialect::getClusterDimAttrName());
      dims && llvm::any_of(dims.asArrayRef(), [](int32_t d) { return d > 1; }))
    return fail(kernel, "thread-block clusters are not interpreted (blocks "
                        "run one after another here, and the blocks of a "
                        "cluster wait for each other)");
  if (!kernel.getBody().hasOneBlock())
    return fail(kernel, "unstructured control flow (more than one block) is "
                        "not supported");
  Block &body = kernel.getBody().front();
  for (BlockArgument arg : body.getArguments()) {
    if (storageSize(arg.getType()) == 0)
      return fail(kernel, "unsupported argument type");
    program.argSlots.push_back(def(arg));
  }
  if (failed(compileOps(body)))
    return failure();
  Operation *terminator = body.getTerminator();
  if (!isa<gpu::ReturnOp>(terminator))
    return fail(terminator, "the kernel must end in gpu.return");
  emit(execDone, terminator);
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

namespace {

/// Copies in[i] -> out[i], imm[i] bytes each.
void execCopy(Exec &, Thread &thread, const Inst &inst) {
  for (size_t i = 0; i < inst.in.size(); ++i)
    std::memcpy(thread.slot(inst.out[i]), thread.slot(inst.in[i]), inst.imm[i]);
}

/// The same through a scratch slot (imm.back()): a loop's yield may move an
/// iter_arg into another one's slot.
void execStagedCopy(Exec &, Thread &thread, const Inst &inst) {
  uint8_t *scratch = thread.slot(inst.imm.back());
  size_t offset = 0;
  for (size_t i = 0; i < inst.in.size(); ++i) {
    std::memcpy(scratch + offset, thread.slot(inst.in[i]), inst.imm[i]);
    offset += inst.imm[i];
  }
  offset = 0;
  for (size_t i = 0; i < inst.in.size(); ++i) {
    std::memcpy(thread.slot(inst.out[i]), scratch + offset, inst.imm[i]);
    offset += inst.imm[i];
  }
}

void execJump(Exec &, Thread &thread, const Inst &inst) {
  thread.pc = inst.target;
}

void execJumpUnless(Exec &, Thread &thread, const Inst &inst) {
  if ((thread.at<uint64_t>(inst.in[0]) & 1) == 0)
    thread.pc = inst.target;
}

/// iv = lb (in[0]); the step (in[1]) must be positive.
void execForInit(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned bits = inst.imm[0];
  int64_t step = sextBits(thread.at<uint64_t>(inst.in[1]), bits);
  if (step <= 0)
    return exec.fail(thread, inst,
                     "scf.for with a step of " + Twine(step) +
                         " (must be positive)");
  thread.at<uint64_t>(inst.out[0]) = thread.at<uint64_t>(inst.in[0]);
}

/// Leaves the loop (jumps to target) unless iv (in[0]) < ub (in[1]).
void execForCheck(Exec &, Thread &thread, const Inst &inst) {
  unsigned bits = inst.imm[0];
  uint64_t iv = thread.at<uint64_t>(inst.in[0]);
  uint64_t ub = thread.at<uint64_t>(inst.in[1]);
  bool less = inst.imm[1] ? truncBits(iv, bits) < truncBits(ub, bits)
                          : sextBits(iv, bits) < sextBits(ub, bits);
  if (!less)
    thread.pc = inst.target;
}

/// iv += step, then back to the check.
void execForStep(Exec &, Thread &thread, const Inst &inst) {
  unsigned bits = inst.imm[0];
  uint64_t &iv = thread.at<uint64_t>(inst.out[0]);
  iv = truncBits(iv + thread.at<uint64_t>(inst.in[0]), bits);
  thread.pc = inst.target;
}

/// Copies `values` into `slots` (no overlap possible: fresh slots).
void emitCopies(Compiler &c, Operation *op, ValueRange values,
                ArrayRef<uint32_t> slots) {
  if (values.empty())
    return;
  Inst &inst = c.emit(execCopy, op);
  for (auto [value, slot] : llvm::zip_equal(values, slots)) {
    inst.in.push_back(c.use(value));
    inst.out.push_back(slot);
    inst.imm.push_back(Compiler::storageSize(value.getType()));
  }
}

LogicalResult compileFor(Compiler &c, Operation *op) {
  auto loop = cast<scf::ForOp>(op);
  unsigned bits = c.bitsOf(loop.getInductionVar().getType());
  // The iter_args live in the result slots.
  SmallVector<uint32_t> carried;
  for (auto [result, arg] :
       llvm::zip_equal(loop.getResults(), loop.getRegionIterArgs())) {
    carried.push_back(c.def(result));
    (void)arg;
  }
  emitCopies(c, op, loop.getInitArgs(), carried);
  Inst &init = c.emit(execForInit, op);
  init.in = {c.use(loop.getLowerBound()), c.use(loop.getStep())};
  uint32_t iv = c.def(loop.getInductionVar());
  init.out = {iv};
  init.imm = {bits};
  // Body values refer to the iter_args: give them the carried slots.
  for (auto [arg, slot] : llvm::zip_equal(loop.getRegionIterArgs(), carried))
    c.alias(arg, slot);
  uint32_t check = c.here();
  {
    Inst &inst = c.emit(execForCheck, op);
    inst.in = {iv, c.use(loop.getUpperBound())};
    inst.imm = {bits, loop.getUnsignedCmp() ? 1 : 0};
  }
  if (failed(c.compileOps(*loop.getBody())))
    return failure();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  // Yielded values that are not already in their slot move through scratch.
  SmallVector<Value> moved;
  SmallVector<uint32_t> movedTo;
  size_t scratchBytes = 0;
  for (auto [value, slot] : llvm::zip_equal(yield.getOperands(), carried)) {
    if (c.use(value) == slot)
      continue;
    moved.push_back(value);
    movedTo.push_back(slot);
    scratchBytes += Compiler::storageSize(value.getType());
  }
  if (!moved.empty()) {
    uint32_t scratch = c.scratch(scratchBytes);
    Inst &inst = c.emit(execStagedCopy, yield);
    for (auto [value, slot] : llvm::zip_equal(moved, movedTo)) {
      inst.in.push_back(c.use(value));
      inst.out.push_back(slot);
      inst.imm.push_back(Compiler::storageSize(value.getType()));
    }
    inst.imm.push_back(scratch);
  }
  Inst &step = c.emit(execForStep, op);
  step.in = {c.use(loop.getStep())};
  step.out = {iv};
  step.imm = {bits};
  step.target = check;
  c.at(check).target = c.here();
  return success();
}

LogicalResult compileIf(Compiler &c, Operation *op) {
  auto ifOp = cast<scf::IfOp>(op);
  SmallVector<uint32_t> results;
  for (Value result : ifOp.getResults())
    results.push_back(c.def(result));
  uint32_t branch = c.here();
  c.emit(execJumpUnless, op).in = {c.use(ifOp.getCondition())};
  if (failed(c.compileOps(*ifOp.thenBlock())))
    return failure();
  emitCopies(c, ifOp.thenYield(), ifOp.thenYield().getOperands(), results);
  if (ifOp.getElseRegion().empty()) {
    c.at(branch).target = c.here();
    return success();
  }
  uint32_t skip = c.here();
  c.emit(execJump, op);
  c.at(branch).target = c.here();
  if (failed(c.compileOps(*ifOp.elseBlock())))
    return failure();
  emitCopies(c, ifOp.elseYield(), ifOp.elseYield().getOperands(), results);
  c.at(skip).target = c.here();
  return success();
}

/// scf.execute_region of one block: its ops in place, the yield into the
/// results.
LogicalResult compileExecuteRegion(Compiler &c, Operation *op) {
  auto region = cast<scf::ExecuteRegionOp>(op);
  if (!region.getRegion().hasOneBlock())
    return c.fail(op, "scf.execute_region with more than one block is not "
                      "supported");
  SmallVector<uint32_t> results;
  for (Value result : region.getResults())
    results.push_back(c.def(result));
  Block &body = region.getRegion().front();
  if (failed(c.compileOps(body)))
    return failure();
  auto yield = dyn_cast<scf::YieldOp>(body.getTerminator());
  if (!yield)
    return c.fail(op, "scf.execute_region must end in scf.yield");
  emitCopies(c, yield, yield.getOperands(), results);
  return success();
}

} // namespace

void mlir::tile::interp::registerControlFlowHandlers(
    HandlerRegistry &registry) {
  registry.add(scf::ForOp::getOperationName(), compileFor);
  registry.add(scf::IfOp::getOperationName(), compileIf);
  registry.add(scf::ExecuteRegionOp::getOperationName(), compileExecuteRegion);
}

HandlerRegistry mlir::tile::interp::buildHandlerRegistry() {
  HandlerRegistry registry;
  registerControlFlowHandlers(registry);
  registerArithHandlers(registry);
  registerMemoryHandlers(registry);
  registerGpuHandlers(registry);
  registerConvertHandlers(registry);
  registerAsyncHandlers(registry);
  registerWgmmaHandlers(registry);
  return registry;
}
