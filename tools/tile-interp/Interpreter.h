//===- Interpreter.h - a CPU oracle for tile-opt's kernels ------*- C++ -*-===//
//
// tile-interp executes a gpu.func on the host, every thread of every block,
// with the semantics a correct SIMT program may rely on and nothing more:
//
//   * a kernel is compiled once into a flat instruction list (scf.for/scf.if
//     become jumps); every SSA value has a fixed slot in a per-thread frame,
//     so a thread is a program counter and a frame, and suspending it at a
//     gpu.barrier is returning from its run loop;
//   * each op is compiled by a handler looked up by op name in a
//     HandlerRegistry (register*Handlers below); a handler checks what it
//     supports at compile time and emits instructions whose ExecFn does the
//     work at run time;
//   * memory is a set of Buffers (A, B, C, the block's dynamic shared
//     memory, private allocas) with a shadow per granule that records the
//     last writer and readers per barrier interval, pending cp.async writes
//     and initialisation; every access goes through Exec's checked accessors,
//     which report out-of-bounds indices, data races, reads of uninitialised
//     or in-flight memory, and misaligned vector accesses.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INTERP_INTERPRETER_H
#define TILE_INTERP_INTERPRETER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace tile {
namespace interp {

constexpr unsigned kMaxRank = 4;

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Who touched a granule: a global thread id (block * threadsPerBlock +
/// thread) or one of these.
constexpr int32_t kNobody = -1; // never (for writes: uninitialised)
constexpr int32_t kHost = -2;   // initialised before the launch
constexpr int32_t kMany = -3;   // several threads (readers, pending copies)

/// What the checks remember about one granule of a checked buffer.
struct Shadow {
  int32_t writer = kNobody;
  uint32_t writeEpoch = 0;
  int32_t reader = kNobody; // the threads that read it in readEpoch
  uint32_t readEpoch = 0;
  int32_t pendingOwner = kNobody; // thread(s) whose cp.async will write it
  uint16_t pending = 0;           // cp.async writes in flight
  bool atomic = false;            // the last write was an atomic RMW
};

enum class Space { Global, Shared, Private };

struct Buffer {
  std::string name; // "A", "B", "C", "shared memory", "alloca"
  Space space = Space::Global;
  bool readOnly = false;
  /// Race, initialisation and in-flight checks (a shadow per granule).
  bool checked = false;
  /// Bytes per shadow entry: the smallest element size the kernel accesses.
  unsigned granule = 4;
  /// Alignment of byte 0 (what a vector access's `alignment` is checked
  /// against).
  int64_t baseAlignment = 256;
  /// For messages: row length in elements and element size of a 2-d operand
  /// (0: describe positions as byte offsets).
  int64_t rowElements = 0, elementBytes = 0;
  std::vector<uint8_t> bytes;
  std::vector<Shadow> shadow;

  /// Resizes to `size` bytes filled with `fill`; the shadow (when checked)
  /// starts as "written by `writer`" (kNobody: uninitialised).
  void reset(int64_t size, uint8_t fill, int32_t writer);
  /// "C[3][17]", "shared memory byte 1040", ...
  std::string describe(int64_t byte) const;
};

/// A strided memref: element (i0, ..., ir-1) is at byte
/// byteOffset + elementBytes * sum(i_d * strides[d]) of `buffer`.
struct MemRefDesc {
  Buffer *buffer = nullptr;
  int64_t byteOffset = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
};

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

class Exec;
struct Thread;
struct Inst;
using ExecFn = void (*)(Exec &, Thread &, const Inst &);

/// One instruction: what runs (`fn`), the op it came from (for messages),
/// frame offsets of its operands and results, and constants the handler
/// chose at compile time.
struct Inst {
  ExecFn fn = nullptr;
  Operation *op = nullptr;
  SmallVector<uint32_t, 4> in, out;
  SmallVector<int64_t, 4> imm;
  uint32_t target = 0; // jump target
};

struct Program {
  std::vector<Inst> code;
  /// A fresh frame: constants already in their slots.
  std::vector<uint8_t> frameTemplate;
  size_t frameSize = 0;
  unsigned indexBits = 64;
  unsigned granule = 4;
  /// Frame offsets of the kernel's arguments.
  SmallVector<uint32_t> argSlots;
};

class HandlerRegistry;

/// Compiles one gpu.func into a Program. Handlers call def/use/emit.
class Compiler {
public:
  Compiler(Program &program, const HandlerRegistry &registry,
           unsigned indexBits)
      : program(program), registry(registry), indexBits(indexBits) {}

  LogicalResult compileKernel(gpu::GPUFuncOp kernel);
  /// Compiles the ops of `block` up to (not including) its terminator.
  LogicalResult compileOps(Block &block);

  /// The frame offset of `value` (defined earlier).
  uint32_t use(Value value);
  /// A new frame slot for `value`.
  uint32_t def(Value value);
  /// A new slot for `value` whose bytes are `bytes` in every fresh frame.
  void defConstant(Value value, ArrayRef<uint8_t> bytes);
  /// `value` lives in an existing slot (a loop's iter_arg in its result's).
  void alias(Value value, uint32_t slot) { slots[value] = slot; }
  /// An unnamed slot of `bytes` bytes.
  uint32_t scratch(size_t bytes);
  /// Appends an instruction.
  Inst &emit(ExecFn fn, Operation *op);
  uint32_t here() const { return program.code.size(); }
  Inst &at(uint32_t index) { return program.code[index]; }
  /// Records that the kernel accesses memory `bytes` at a time (the shadow
  /// granule is the smallest such size).
  void noteAccess(int64_t bytes);

  /// Bytes a value of `type` takes in a frame (0: not supported).
  static size_t storageSize(Type type);
  /// Bits of an integer or index type (index: the kernel's index width).
  unsigned bitsOf(Type type) const;

  /// Records why the kernel cannot be interpreted (the first reason).
  LogicalResult fail(Operation *op, const Twine &why);
  std::string error;
  Operation *errorOp = nullptr;

  Program &program;
  const HandlerRegistry &registry;
  unsigned indexBits;

private:
  DenseMap<Value, uint32_t> slots;
};

using CompileFn = LogicalResult (*)(Compiler &, Operation *);

/// Op name -> the handler that compiles it.
class HandlerRegistry {
public:
  void add(StringRef opName, CompileFn fn) { table[opName] = fn; }
  CompileFn lookup(StringRef opName) const {
    auto it = table.find(opName);
    return it == table.end() ? nullptr : it->second;
  }

private:
  llvm::StringMap<CompileFn> table;
};

/// The handler sets, one per file. A new dialect's ops go into a new
/// register function called from buildHandlerRegistry.
void registerControlFlowHandlers(HandlerRegistry &registry); // scf, return
void registerArithHandlers(HandlerRegistry &registry);       // arith, math
void registerMemoryHandlers(
    HandlerRegistry &registry);                      // memref, vector, linalg
void registerGpuHandlers(HandlerRegistry &registry); // gpu, nvgpu, llvm asm
HandlerRegistry buildHandlerRegistry();

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

enum class Status { Running, AtBarrier, Done, Faulted };

/// A cp.async copy issued and not completed: what it will write where.
struct PendingCopy {
  const Inst *inst = nullptr;
  Buffer *dst = nullptr;
  int64_t dstByte = 0;
  SmallVector<uint8_t, 16> data; // source bytes read at issue, zero-filled
};

struct AsyncGroup {
  SmallVector<PendingCopy, 8> copies;
};

struct Thread {
  uint32_t pc = 0;
  Status status = Status::Running;
  uint8_t *frame = nullptr;
  int64_t tid[3] = {0, 0, 0};
  int64_t linearTid = 0;
  int32_t gid = 0;               // block * threadsPerBlock + linearTid
  const Inst *barrier = nullptr; // the barrier it waits at
  /// cp.async: copies not yet committed to a group, and committed groups
  /// oldest first.
  std::vector<PendingCopy> uncommitted;
  std::deque<AsyncGroup> groups;
  std::vector<std::unique_ptr<Buffer>> allocas;

  Thread() = default;
  Thread(const Thread &) = delete;
  Thread(Thread &&) = default;
  Thread &operator=(Thread &&) = default;

  template <typename T> T &at(uint32_t offset) {
    return *reinterpret_cast<T *>(frame + offset);
  }
  uint8_t *slot(uint32_t offset) { return frame + offset; }
};

struct LaunchDims {
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int64_t sharedBytes = 0;
};

struct Stats {
  uint64_t instructions = 0;
  uint64_t barriers = 0; // block-wide barrier crossings
  uint64_t asyncCopies = 0;
  uint64_t asyncZeroFilledBytes = 0;
  uint64_t sharedBytesRead = 0, sharedBytesWritten = 0;
};

inline uint64_t truncBits(uint64_t value, unsigned bits) {
  return bits >= 64 ? value : value & ((uint64_t(1) << bits) - 1);
}
inline int64_t sextBits(uint64_t value, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(value);
  unsigned shift = 64 - bits;
  return static_cast<int64_t>(value << shift) >> shift;
}

/// Runs one launch of a compiled kernel and holds its memory and the first
/// error.
class Exec {
public:
  /// `args`: the kernel's memref arguments.
  Exec(const Program &program, const LaunchDims &dims,
       SmallVector<MemRefDesc> args)
      : program(program), dims(dims), argDescs(std::move(args)) {}

  /// Runs every block; false when an error was found (see `error`).
  bool run(uint64_t maxInstructions);

  // --- for handlers ---
  /// Records the first error (with the op, block and thread) and stops the
  /// thread.
  void fail(Thread &thread, const Inst &inst, const Twine &message);
  bool failed() const { return !error.empty(); }

  /// An index operand (sign-extended from the kernel's index width).
  int64_t index(Thread &thread, uint32_t slot) const {
    return sextBits(thread.at<uint64_t>(slot), program.indexBits);
  }
  /// Byte offset in `desc.buffer` of element `indices` of `desc`, checking
  /// that the `count` elements from there along the last dimension lie
  /// inside the memref (operand `operand` of the op, for the message).
  bool locate(Thread &thread, const Inst &inst, const MemRefDesc &desc,
              unsigned rank, ArrayRef<int64_t> indices, int64_t count,
              int64_t elementBytes, unsigned operand, int64_t &byte);
  /// Checked accesses of `size` bytes at `byte`: bounds of the buffer,
  /// races and in-flight memory (null / false on an error); a read of
  /// uninitialised memory is reported when the barrier interval ends.
  const uint8_t *read(Thread &thread, const Inst &inst, Buffer &buffer,
                      int64_t byte, int64_t size);
  bool write(Thread &thread, const Inst &inst, Buffer &buffer, int64_t byte,
             const uint8_t *data, int64_t size, bool atomic = false);
  /// An atomic read-modify-write: the old bytes (null on an error); the
  /// caller writes the new value with write(..., atomic = true).
  const uint8_t *readForAtomic(Thread &thread, const Inst &inst, Buffer &buffer,
                               int64_t byte, int64_t size);
  /// Checks `byte` against an access's required alignment.
  bool checkAlignment(Thread &thread, const Inst &inst, const Buffer &buffer,
                      int64_t byte, int64_t alignment, StringRef what);

  /// cp.async: marks the destination in flight (the bytes are written when
  /// a wait completes the copy's group) and queues the copy.
  bool issueAsyncCopy(Thread &thread, const Inst &inst, PendingCopy copy);
  /// Completes every group of `thread` but the `pending` most recent ones.
  bool waitAsyncGroups(Thread &thread, const Inst &inst, int64_t pending);

  Buffer &sharedMemory() { return shared; }

  const Program &program;
  LaunchDims dims;
  int64_t blockId[3] = {0, 0, 0};
  int64_t linearBlock = 0;
  int64_t threadsPerBlock = 1;
  Stats stats;
  std::string error;

private:
  bool runBlock(uint64_t &budget);
  bool completeCopy(Thread &thread, const PendingCopy &copy);
  bool writeShadow(Thread &thread, const Inst &inst, Buffer &buffer,
                   int64_t byte, const uint8_t *data, int64_t size,
                   bool atomic);
  /// Whether an access by thread `other` in `otherEpoch` may run at the
  /// same time as one by `thread` now (no barrier orders them).
  bool concurrent(const Thread &thread, int32_t other,
                  uint32_t otherEpoch) const;
  std::string who(int32_t gid) const;

  SmallVector<MemRefDesc> argDescs;
  Buffer shared;
  std::vector<uint8_t> arena;
  std::vector<Thread> threads;
  uint32_t epoch = 0; // barrier interval, unique across the launch
  /// The first read of uninitialised memory in this interval (an error
  /// reported when the interval ends).
  std::string deferred;
};

/// The op as one line of text, for messages.
std::string describeOp(Operation *op);

} // namespace interp
} // namespace tile
} // namespace mlir

#endif // TILE_INTERP_INTERPRETER_H
