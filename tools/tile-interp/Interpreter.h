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
//     or in-flight memory, and misaligned vector accesses;
//   * kernels that synchronise through mbarriers (the wgmma strategy) also
//     get a vector clock per thread: an access of another thread in the same
//     barrier interval is ordered when an mbarrier phase carried it over
//     (Async.h: mbarriers, TMA copies, wgmma groups, proxy fences).
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
/// A TMA copy that completed on mbarrier b writes as kAsyncWriter - b (its
/// clock field is the phase it completed in).
constexpr int32_t kAsyncWriter = -16;

/// What the checks remember about one granule of a checked buffer.
struct Shadow {
  int32_t writer = kNobody;
  uint32_t writeEpoch = 0;
  uint32_t writeClock = 0;  // the writer's own clock entry at the write
  int32_t reader = kNobody; // the threads that read it in readEpoch
  uint32_t readEpoch = 0;
  uint32_t readClock = 0;
  int32_t pendingOwner = kNobody; // thread(s) whose cp.async will write it
  uint16_t pending = 0;           // cp.async / TMA writes in flight
  bool pendingTma = false;        // the newest of them is a TMA copy
  bool atomic = false;            // the last write was an atomic RMW
  /// TMA stores whose read of this granule no wait_group has completed,
  /// and the thread that issued the newest of them.
  uint16_t bulkReads = 0;
  int32_t bulkReader = kNobody;
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
  /// Address of byte 0 in its space (shared memory: the 32-bit shared
  /// window, what memref.extract_aligned_pointer_as_index returns).
  int64_t address = 0;
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
/// byteOffset + elementBytes * sum(i_d * strides[d]) of `buffer`; its
/// aligned pointer (LLVM's descriptor) is byte alignedByte.
struct MemRefDesc {
  Buffer *buffer = nullptr;
  int64_t byteOffset = 0;
  int64_t alignedByte = 0;
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
  /// mbarriers of a block (nvgpu.mbarrier.create groups, each a range of
  /// ids), and whether the kernel needs vector clocks and warpgroups.
  unsigned mbarriers = 0;
  bool usesAsync = false;
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
void registerConvertHandlers(
    HandlerRegistry &registry); // arith.extf/truncf (bf16, f16)
void registerAsyncHandlers(
    HandlerRegistry &registry); // mbarriers, TMA, proxy fence, setmaxnreg
void registerWgmmaHandlers(
    HandlerRegistry &registry); // llvm structs, nvvm.wgmma.*
HandlerRegistry buildHandlerRegistry();

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

enum class Status { Running, AtBarrier, Blocked, Done, Faulted };

/// What a Blocked thread waits for.
enum class BlockedOn { Nothing, Mbarrier, Collective, NamedBarrier };

/// A TMA store (nvgpu.tma.async.store) whose read of its shared-memory
/// source has not been waited for (cp.async.bulk.wait_group): the bytes it
/// read at issue, which must still be there when the wait completes it.
struct PendingBulkStore {
  const Inst *inst = nullptr;
  int64_t srcByte = 0;
  std::vector<uint8_t> data;
};

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
  /// TMA stores: not yet committed to a bulk group, and committed groups
  /// oldest first.
  std::vector<PendingBulkStore> bulkUncommitted;
  std::deque<std::vector<PendingBulkStore>> bulkGroups;
  unsigned waitNamedBarrier = 0; // the named barrier it waits at

  // --- mbarrier kernels (Async.h) ---
  /// Vector clock: entry u < threadsPerBlock is the last clock of thread u
  /// this thread is ordered after (its own entry: its current clock);
  /// entry threadsPerBlock + b the mbarrier b phases it saw complete.
  std::vector<uint32_t> vc;
  BlockedOn blockedOn = BlockedOn::Nothing;
  unsigned waitBarrier = 0; // the mbarrier it waits on
  uint32_t waitPhase = 0;   // that barrier's completed phases then
  /// wgmma: groups committed and retired (wait_group) by this thread, the
  /// wgmma.fence count, and per warpgroup the newest group known to be
  /// retired before this thread's current point.
  uint32_t committed = 0, retired = 0, wgmmaFences = 0;
  std::vector<uint32_t> orderedGroup;
  /// Warpgroup-aligned ops executed (wgmma.*, setmaxnreg): count and hash
  /// of their sequence, equal across a warpgroup when they are convergent.
  uint64_t alignedCount = 0, alignedHash = 0;
  /// fence.proxy.async: the clock after each (writes before it have a
  /// smaller clock) and its barrier interval.
  std::vector<std::pair<uint32_t, uint32_t>> proxyFences;

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
  uint64_t mbarrierPhases = 0, tmaCopies = 0, tmaBytes = 0, wgmmas = 0;
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

//===----------------------------------------------------------------------===//
// Asynchronous state of a block (AsyncHandlers.cpp, WgmmaHandlers.cpp)
//===----------------------------------------------------------------------===//

/// One mbarrier (PTX mbarrier object): the arrivals the current phase still
/// expects, its pending transaction bytes, and the phases completed so far
/// (the current phase is number `phase`, of parity phase % 2). A phase
/// completes when both counts reach zero; its arrivals' vector clocks are
/// then what a thread that waits for it is ordered after.
struct Mbarrier {
  bool initialized = false;
  int64_t expected = 0, pending = 0, tx = 0;
  uint32_t phase = 0;
  /// The init (thread, its clock, interval): every use must be ordered
  /// after it.
  int32_t initThread = kNobody;
  uint32_t initClock = 0, initEpoch = 0;
  std::vector<uint32_t> arrivedVC, completedVC;
  /// Transaction bytes expected in the current phase; whether a completed
  /// phase that had some (TMA copies) was not waited for by any thread yet.
  int64_t phaseTx = 0;
  bool unwaitedTx = false;
};

/// A tensor map (cuTensorMapEncodeTiled through nvgpu.tma.create.descriptor)
/// of a 2-d row-major global matrix, or of a batch of them (3-d, the batch
/// outermost, a box one matrix deep): box rows x cols elements, innermost
/// (cols) first in the coordinates, 128-byte swizzle or none, zero fill.
struct TensorMap {
  std::string name; // "A", "B"
  Buffer *global = nullptr;
  unsigned rank = 2;
  int64_t batch = 1, rows = 0, cols = 0, elementBytes = 2;
  /// The first matrix's first element, its rows' stride and the matrices'
  /// stride, in elements (a strided operand's; a dense one's: 0, cols and
  /// rows * cols).
  int64_t offset = 0, rowStride = 0, batchStride = 0;
  int64_t boxRows = 0, boxCols = 0;
  bool swizzle128 = false;
  /// Non-empty when the map cannot be encoded (the driver would refuse it).
  std::string invalid;
};

/// A TMA copy in flight: the swizzled box it will write and the mbarrier
/// whose transaction count it completes.
struct PendingTma {
  const Inst *inst = nullptr;
  int32_t issuer = kNobody;
  int64_t dstByte = 0;
  unsigned barrier = 0;
  std::vector<uint8_t> data;
};

/// A warpgroup's collective in progress (wgmma.mma_async): the op and the
/// threads that reached it.
struct Warpgroup {
  const Inst *inst = nullptr;
  unsigned arrived = 0;
  /// Per thread of the warpgroup: (newest group retired, its clock, its
  /// interval) each time wait_group retired more groups.
  struct Retirement {
    uint32_t upTo, clock, epoch;
  };
  std::vector<std::vector<Retirement>> retirements;
};

/// A named barrier (bar.sync id, count) of a block: the threads it expects
/// in this round, those that arrived, and the join of their vector clocks.
struct NamedBarrier {
  int64_t expected = 0;
  SmallVector<unsigned, 128> arrived;
  std::vector<uint32_t> joinedVC;
};

/// A kernel argument: a memref or raw bits (a tensor map's index).
struct ArgValue {
  bool isMemRef = true;
  MemRefDesc desc;
  uint64_t bits = 0;
};

/// bf16 and f16 (IEEE binary16) <-> f32, rounding to nearest even.
inline float bf16ToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}
uint16_t floatToBf16(float value);
float f16ToFloat(uint16_t bits);
uint16_t floatToF16(float value);
/// An f32 as a TF32 wgmma reads it: the low 13 bits of its mantissa dropped
/// (10 of the 23 kept). The wgmma model and the reference of a TF32 kernel
/// both use it.
inline float tf32Value(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  bits &= ~uint32_t(0x1fff);
  std::memcpy(&value, &bits, 4);
  return value;
}

/// Runs one launch of a compiled kernel and holds its memory and the first
/// error.
class Exec {
public:
  Exec(const Program &program, const LaunchDims &dims,
       SmallVector<ArgValue> args)
      : program(program), dims(dims), args(std::move(args)) {}

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
  /// Counts the times a blocked thread was made to run again (a phase
  /// completed, a warpgroup-collective op or a barrier released it): the
  /// scheduler's lazy warps give the others their turn after one.
  uint64_t wakes = 0;

  // --- mbarriers, TMA, wgmma (AsyncHandlers.cpp, WgmmaHandlers.cpp) ---
  /// The thread's own clock (vector clocks are kept when
  /// program.usesAsync).
  uint32_t ownClock(const Thread &thread) const {
    return thread.vc.empty() ? 0 : thread.vc[thread.linearTid];
  }
  /// Whether an access by `other` (a gid, or an encoded TMA writer) in
  /// `otherEpoch` at `otherClock` is ordered before `thread`'s current
  /// point: an earlier barrier interval, or a vector-clock edge.
  bool orderedBefore(const Thread &thread, int32_t other, uint32_t otherEpoch,
                     uint32_t otherClock) const;
  /// A release by `thread` into `barrier`'s current phase (an arrival): its
  /// clock joins the phase's, then its own clock moves on.
  void release(Thread &thread, Mbarrier &barrier);
  /// `thread` is ordered after the last completed phase of mbarrier `id`.
  void acquire(Thread &thread, unsigned id);
  /// Completes the current phase of mbarrier `id` if its arrivals and
  /// transaction bytes are all in; wakes the threads waiting on it.
  void maybeCompletePhase(unsigned id);
  /// Checks that a write by `thread` of shared bytes [byte, byte + size)
  /// does not overwrite what a wgmma group still reads (its retirement must
  /// be ordered before this point).
  bool checkWgmmaReaders(Thread &thread, const Inst &inst, int64_t byte,
                         int64_t size, StringRef what);
  /// Whether wgmma group `seq` of warpgroup `group` was retired (by some
  /// thread of it) before `thread`'s current point.
  bool groupRetiredBefore(Thread &thread, unsigned group, uint32_t seq);
  /// Issues a TMA copy: the destination goes in flight (as for cp.async)
  /// until the copy completes: copies land one at a time, oldest first,
  /// whenever no thread can run.
  bool issueTma(Thread &thread, const Inst &inst, PendingTma copy);
  /// Completes the oldest TMA copy in flight: writes its bytes, completes
  /// its transaction bytes on its mbarrier.
  bool completeOldestTma();
  /// Marks `thread` blocked until mbarrier `id` completes another phase.
  void blockOnMbarrier(Thread &thread, const Inst &inst, unsigned id);
  /// Records a warpgroup-aligned op of `thread` in its convergence hash.
  void noteAligned(Thread &thread, const Inst &inst) {
    thread.alignedHash = (thread.alignedHash ^
                          static_cast<uint64_t>(&inst - program.code.data())) *
                         0x100000001b3ull;
    ++thread.alignedCount;
  }
  std::string who(int32_t gid) const;

  const Program &program;
  LaunchDims dims;
  int64_t blockId[3] = {0, 0, 0};
  int64_t linearBlock = 0;
  int64_t threadsPerBlock = 1;
  Stats stats;
  std::string error;

  /// The dynamic shared memory's address in the shared window (not
  /// 1024-aligned unless asked: the kernels align at run time), and where
  /// the static shared memory (the mbarriers) starts.
  int64_t sharedBase = 1040;
  int64_t staticBase = 16;
  std::vector<TensorMap> tensorMaps;
  std::vector<Mbarrier> mbarriers;
  std::deque<PendingTma> tmaCopies;
  std::vector<Warpgroup> warpgroups;
  /// bar.sync's 16 barriers (0 is gpu.barrier's, which the executor keeps).
  std::vector<NamedBarrier> namedBarriers;
  /// Per 16-byte granule of shared memory and warpgroup, the newest wgmma
  /// group (its sequence number, 0: none) that read it.
  std::vector<uint32_t> wgmmaReads;
  std::vector<Thread> threads;
  uint32_t epoch = 0; // barrier interval, unique across the launch

private:
  bool runBlock(uint64_t &budget);
  bool finishThread(Thread &thread);
  bool completeCopy(Thread &thread, const PendingCopy &copy);
  bool writeShadow(Thread &thread, const Inst &inst, Buffer &buffer,
                   int64_t byte, const uint8_t *data, int64_t size,
                   bool atomic);
  /// Whether an access by thread `other` in `otherEpoch` (at `otherClock`)
  /// may run at the same time as one by `thread` now.
  bool concurrent(const Thread &thread, int32_t other, uint32_t otherEpoch,
                  uint32_t otherClock) const {
    if (other == kNobody || other == kHost || other == thread.gid)
      return false;
    return !orderedBefore(thread, other, otherEpoch, otherClock);
  }
  std::string deadlock();

  SmallVector<ArgValue> args;
  Buffer shared;
  std::vector<uint8_t> arena;
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
