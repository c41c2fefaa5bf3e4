//===- WgmmaHandlers.cpp - wgmma and its accumulator structs --------------===//
//
// nvvm.wgmma.mma_async, modelled on the PTX ISA (wgmma.mma_async.sync.aligned
// with both operands in shared memory through matrix descriptors):
//
//   * It is warpgroup-collective: the 128 threads of a warpgroup must all
//     reach the same op (each waits, Blocked, for the others); their
//     descriptors must be equal and their earlier aligned ops (wgmma.fence,
//     commit, wait, setmaxnreg) the same.
//   * A descriptor (the PTX ISA's "Matrix Descriptor Format") is: start
//     address >> 4 in bits 0-13, leading-dimension byte offset >> 4 in bits
//     16-29, stride-dimension byte offset >> 4 in bits 32-45, base offset in
//     bits 49-51, swizzle mode in bits 62-63 (1: 128 bytes, the one
//     modelled). With the 128-byte swizzle, a K-major operand (A `row`, B
//     `col`: PTX's imm-trans 0) of R rows has element (r, k) at
//       start + (r / 8) * SBO + (r % 8) * 128 + k * 2,
//     an MN-major one (A `col`, B `row`: imm-trans 1) element (k, x) at
//       start + (x / 64) * LBO + (k / 8) * SBO + (k % 8) * 128 + (x % 64) * 2
//     (2-byte elements; a TF32 instruction, m64nNk8, reads 4-byte f32
//     elements K-major only: element (r, k) at ... + k * 4), and the
//     swizzle is applied to that address: bits
//     [4:6] XOR bits [7:9]. The start may point into a 128-byte row (a k
//     step of A), but its atom must be 1024-aligned (base offset 0).
//     (nvvm's layoutB `col` is imm-trans-b 0: B K-major, N rows of K.)
//   * D = A * B + D (or A * B with scale-d zero), in f32: each product (exact
//     for bf16, f16 and TF32) added in k order. A TF32 input is the f32 in
//     shared memory with the low 13 bits of its mantissa dropped (the PTX
//     ISA leaves what the hardware does with them unspecified; dropping
//     them is the larger error of the two ways it could use them). Thread
//     t of the warpgroup (warp w = t / 32, lane l = t % 32) holds, in
//     register i < N / 2, row
//     16w + l/4 + 8 ((i/2) % 2), column 8 (i/4) + 2 (l % 4) + i % 2.
//   * It is asynchronous: it joins the thread's open wgmma group, which
//     wgmma.commit_group closes; wgmma.wait_group N retires all but the N
//     newest groups. Its result registers are undefined until its group is
//     retired (reading them is an error; feeding them to the next wgmma is
//     not). The shared bytes a group reads must not be written until a
//     thread of its warpgroup has retired it and that retirement is ordered
//     before the write (checked at every shared write, TMA and cp.async).
//     What it reads must be ordered before it (a TMA copy's bytes by a wait
//     for its phase, a thread's stores by synchronisation and, for the
//     generic proxy, a fence.proxy.async of that thread after the stores).
//   * wgmma.fence must separate the wgmma from earlier writes of its
//     accumulator registers by other ops (insertvalue, the C loads).
//
// The accumulators are !llvm.struct<(f32 x N/2)> values: an 8-byte header
// (the group still writing them, 0 when defined; the wgmma.fence count when
// an ordinary op last wrote them) and the floats.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tile::interp;

namespace {

struct Header {
  uint32_t group; // wgmma group writing the values (0: defined)
  uint32_t stamp; // the thread's wgmma.fence count at an ordinary write
};

Header &headerOf(Thread &thread, uint32_t slot) {
  return thread.at<Header>(slot);
}
float *valuesOf(Thread &thread, uint32_t slot) {
  return reinterpret_cast<float *>(thread.slot(slot) + sizeof(Header));
}

/// Whether the struct in `slot` may be read: its wgmma group is retired.
bool checkDefined(Exec &exec, Thread &thread, const Inst &inst, uint32_t slot,
                  StringRef what) {
  uint32_t group = headerOf(thread, slot).group;
  if (group == 0 || group <= thread.retired)
    return true;
  exec.fail(thread, inst,
            what + " the accumulators of wgmma group " + Twine(group) +
                " before a wgmma.wait_group retired that group (" +
                Twine(thread.committed) + " committed, " +
                Twine(thread.retired) +
                " retired): the registers are undefined until then");
  return false;
}

//===----------------------------------------------------------------------===//
// Structs
//===----------------------------------------------------------------------===//

LogicalResult checkStruct(Compiler &c, Operation *op, Type type) {
  if (Compiler::storageSize(type) == 0)
    return c.fail(op, "only structs of f32 are supported");
  return success();
}

LogicalResult compileUndef(Compiler &c, Operation *op) {
  Type type = op->getResult(0).getType();
  if (failed(checkStruct(c, op, type)))
    return failure();
  std::vector<uint8_t> bytes(Compiler::storageSize(type), 0xff); // NaN
  std::memset(bytes.data(), 0, sizeof(Header));
  c.defConstant(op->getResult(0), bytes);
  return success();
}

/// in = value, container; imm = field, struct bytes.
void execInsertValue(Exec &exec, Thread &thread, const Inst &inst) {
  if (!checkDefined(exec, thread, inst, inst.in[1], "insertvalue writes"))
    return;
  std::memcpy(thread.slot(inst.out[0]), thread.slot(inst.in[1]), inst.imm[1]);
  Header &header = headerOf(thread, inst.out[0]);
  header.group = 0;
  header.stamp = thread.wgmmaFences;
  std::memcpy(valuesOf(thread, inst.out[0]) + inst.imm[0],
              thread.slot(inst.in[0]), 4);
}

LogicalResult compileInsertValue(Compiler &c, Operation *op) {
  auto insert = cast<LLVM::InsertValueOp>(op);
  if (failed(checkStruct(c, op, insert.getType())) ||
      insert.getPosition().size() != 1)
    return c.fail(op, "only insertvalue into a struct of f32 is supported");
  Inst &inst = c.emit(execInsertValue, op);
  inst.in = {c.use(insert.getValue()), c.use(insert.getContainer())};
  inst.out = {c.def(insert.getResult())};
  inst.imm = {insert.getPosition()[0],
              static_cast<int64_t>(Compiler::storageSize(insert.getType()))};
  return success();
}

/// in = container; imm = field.
void execExtractValue(Exec &exec, Thread &thread, const Inst &inst) {
  if (!checkDefined(exec, thread, inst, inst.in[0], "extractvalue reads"))
    return;
  std::memcpy(thread.slot(inst.out[0]),
              valuesOf(thread, inst.in[0]) + inst.imm[0], 4);
}

LogicalResult compileExtractValue(Compiler &c, Operation *op) {
  auto extract = cast<LLVM::ExtractValueOp>(op);
  if (failed(checkStruct(c, op, extract.getContainer().getType())) ||
      extract.getPosition().size() != 1)
    return c.fail(op, "only extractvalue from a struct of f32 is supported");
  Inst &inst = c.emit(execExtractValue, op);
  inst.in = {c.use(extract.getContainer())};
  inst.out = {c.def(extract.getResult())};
  inst.imm = {extract.getPosition()[0]};
  return success();
}

//===----------------------------------------------------------------------===//
// Fence, commit, wait
//===----------------------------------------------------------------------===//

void execWgmmaFence(Exec &exec, Thread &thread, const Inst &inst) {
  exec.noteAligned(thread, inst);
  ++thread.wgmmaFences;
}

void execWgmmaCommit(Exec &exec, Thread &thread, const Inst &inst) {
  exec.noteAligned(thread, inst);
  ++thread.committed;
}

/// imm = the groups that may stay pending.
void execWgmmaWait(Exec &exec, Thread &thread, const Inst &inst) {
  exec.noteAligned(thread, inst);
  uint32_t keep = inst.imm[0];
  uint32_t upTo = thread.committed > keep ? thread.committed - keep : 0;
  if (upTo <= thread.retired)
    return;
  thread.retired = upTo;
  if (thread.linearTid / 128 < static_cast<int64_t>(exec.warpgroups.size()))
    exec.warpgroups[thread.linearTid / 128]
        .retirements[thread.linearTid % 128]
        .push_back({upTo, exec.ownClock(thread), exec.epoch});
}

template <ExecFn Fn> LogicalResult compileAligned(Compiler &c, Operation *op) {
  Inst &inst = c.emit(Fn, op);
  if (auto wait = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(op))
    inst.imm = {static_cast<int64_t>(wait.getGroup())};
  c.program.usesAsync = true;
  return success();
}

//===----------------------------------------------------------------------===//
// mma_async
//===----------------------------------------------------------------------===//

/// A decoded matrix descriptor.
struct Descriptor {
  int64_t start, leading, stride;
  unsigned baseOffset, swizzle;
  uint64_t reserved;
};

Descriptor decode(uint64_t bits) {
  Descriptor d;
  d.start = (bits & 0x3fff) << 4;
  d.leading = ((bits >> 16) & 0x3fff) << 4;
  d.stride = ((bits >> 32) & 0x3fff) << 4;
  d.baseOffset = (bits >> 49) & 7;
  d.swizzle = bits >> 62;
  uint64_t known = 0x3fffull | (0x3fffull << 16) | (0x3fffull << 32) |
                   (7ull << 49) | (3ull << 62);
  d.reserved = bits & ~known;
  return d;
}

/// The inputs' type: bf16 and f16 in 2 bytes, TF32 in the 4 bytes of an
/// f32 (k16 and k8 instructions: 32 bytes of k either way).
enum InputType { kBF16, kF16, kTF32 };

/// The operands' element reader: imm layout (see compileMma).
enum Imm {
  kN,
  kType, // InputType
  kLayoutA, // 0 row (K-major), 1 col (M-major)
  kLayoutB, // 0 row (N-major), 1 col (K-major)
  kScaleD,  // 1 one, 0 zero
  kScaleA,  // 1 or -1
  kScaleB,
};

/// Collects the shared bytes an operand reads and the values.
struct OperandReader {
  Exec &exec;
  Thread &thread;
  const Inst &inst;
  const char *name;
  InputType type;
  std::vector<int64_t> granules; // 16-byte granules of shared memory read

  /// The value of the element (2 bytes, 4 for TF32) at (unswizzled) shared
  /// address `linear`; false (after an error) outside the dynamic shared
  /// memory. A TF32 element is the f32 stored there with the low 13 bits of
  /// its mantissa dropped (the tensor cores read 10 of the 23).
  bool element(int64_t linear, float &value) {
    int64_t address = linear ^ (((linear >> 7) & 7) << 4);
    Buffer &shared = exec.sharedMemory();
    int64_t byte = address - shared.address;
    int64_t size = type == kTF32 ? 4 : 2;
    if (byte < 0 || byte + size > static_cast<int64_t>(shared.bytes.size())) {
      exec.fail(thread, inst,
                Twine("wgmma operand ") + name + " reads shared address " +
                    Twine(address) + ", outside the dynamic shared memory [" +
                    Twine(shared.address) + ", " +
                    Twine(shared.address + shared.bytes.size()) +
                    ") (a wrong descriptor?)");
      return false;
    }
    if (type == kTF32) {
      std::memcpy(&value, shared.bytes.data() + byte, 4);
      value = tf32Value(value);
    } else {
      uint16_t bits;
      std::memcpy(&bits, shared.bytes.data() + byte, 2);
      value = type == kF16 ? f16ToFloat(bits) : bf16ToFloat(bits);
    }
    granules.push_back(byte / 16);
    return true;
  }

  /// Checks a descriptor's fields against the layout modelled; `span`: the
  /// bytes of one 128-byte row the operand reads from its start.
  bool check(const Descriptor &d, uint64_t bits, int64_t span) {
    auto bad = [&](const Twine &why) {
      exec.fail(thread, inst,
                Twine("wgmma descriptor of ") + name + " (0x" +
                    Twine::utohexstr(bits) + "): " + why);
      return false;
    };
    if (d.swizzle != 1)
      return bad("swizzle mode " + Twine(d.swizzle) +
                 "; only the 128-byte swizzle (1) is modelled");
    if (d.reserved)
      return bad("reserved bits 0x" + Twine::utohexstr(d.reserved) +
                 " are set (a field overflowed?)");
    if (d.baseOffset != 0)
      return bad("base offset " + Twine(d.baseOffset) + " is not modelled");
    if ((d.start & 0x380) != 0)
      return bad("start address " + Twine(d.start) +
                 " is not in the first 128-byte row of a 1024-byte-aligned "
                 "swizzle atom (with base offset 0 the swizzle pattern "
                 "would not match the layout)");
    if (d.start % 128 + span > 128)
      return bad("start address " + Twine(d.start) + " is " +
                 Twine(d.start % 128) + " bytes into a 128-byte row, and the " +
                 Twine(span) + " bytes read from there cross the row");
    return true;
  }
};

/// The 128 threads of `group` reached `inst`: check them and compute.
void executeMma(Exec &exec, Thread &self, const Inst &inst, unsigned group) {
  int64_t n = inst.imm[kN];
  auto type = static_cast<InputType>(inst.imm[kType]);
  // k of one instruction, and bytes of an element.
  int64_t depth = type == kTF32 ? 8 : 16, bytes = type == kTF32 ? 4 : 2;
  Thread *threads = exec.threads.data() + group * 128;
  Thread &first = threads[0];
  // Convergence: the same aligned ops before, the same descriptors.
  uint64_t bitsA = first.at<uint64_t>(inst.in[1]);
  uint64_t bitsB = first.at<uint64_t>(inst.in[2]);
  for (unsigned t = 1; t < 128; ++t) {
    Thread &other = threads[t];
    if (other.alignedHash != first.alignedHash)
      return exec.fail(self, inst,
                       "warpgroup " + Twine(group) +
                           " is not converged at this wgmma: thread " +
                           Twine(other.linearTid) +
                           " executed other warpgroup-aligned ops before it "
                           "than thread " +
                           Twine(first.linearTid));
    if (other.at<uint64_t>(inst.in[1]) != bitsA ||
        other.at<uint64_t>(inst.in[2]) != bitsB)
      return exec.fail(
          self, inst,
          "the matrix descriptors differ within warpgroup " + Twine(group) +
              ": thread " + Twine(first.linearTid) + " has A 0x" +
              Twine::utohexstr(bitsA) + ", B 0x" + Twine::utohexstr(bitsB) +
              ", thread " + Twine(other.linearTid) + " A 0x" +
              Twine::utohexstr(other.at<uint64_t>(inst.in[1])) + ", B 0x" +
              Twine::utohexstr(other.at<uint64_t>(inst.in[2])));
  }
  // The accumulators: written by ordinary ops before a wgmma.fence, or the
  // result of an earlier wgmma (in flight or not).
  for (unsigned t = 0; t < 128; ++t) {
    Thread &thread = threads[t];
    const Header &header = headerOf(thread, inst.in[0]);
    if (header.group == 0 && header.stamp >= thread.wgmmaFences)
      return exec.fail(
          self, inst,
          "the accumulators of thread " + Twine(thread.linearTid) +
              " were written (insertvalue) after its last wgmma.fence" +
              (thread.wgmmaFences ? "" : " (it executed none)") +
              ": the wgmma may read them before those writes");
  }
  Descriptor a = decode(bitsA), b = decode(bitsB);
  OperandReader readA{exec, self, inst, "A", type, {}};
  OperandReader readB{exec, self, inst, "B", type, {}};
  bool aKMajor = inst.imm[kLayoutA] == 0, bKMajor = inst.imm[kLayoutB] == 1;
  if (!readA.check(a, bitsA, aKMajor ? 32 : 128) ||
      !readB.check(b, bitsB, bKMajor ? 32 : std::min<int64_t>(2 * n, 128)))
    return;
  // (TF32 operands are K-major: the NVVM verifier refuses the layouts
  // that transpose them.)
  std::vector<float> valuesA(64 * depth), valuesB(depth * n);
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t k = 0; k < depth; ++k) {
      int64_t linear =
          aKMajor ? a.start + (r / 8) * a.stride + (r % 8) * 128 + k * bytes
                  : a.start + (r / 64) * a.leading + (k / 8) * a.stride +
                        (k % 8) * 128 + (r % 64) * 2;
      if (!readA.element(linear, valuesA[r * depth + k]))
        return;
    }
  for (int64_t k = 0; k < depth; ++k)
    for (int64_t x = 0; x < n; ++x) {
      int64_t linear =
          bKMajor ? b.start + (x / 8) * b.stride + (x % 8) * 128 + k * bytes
                  : b.start + (x / 64) * b.leading + (k / 8) * b.stride +
                        (k % 8) * 128 + (x % 64) * 2;
      if (!readB.element(linear, valuesB[k * n + x]))
        return;
    }
  // What the operands read must be there, ordered before this wgmma.
  uint32_t seq = first.committed + 1;
  Buffer &shared = exec.sharedMemory();
  unsigned groups = exec.warpgroups.size();
  for (OperandReader *reader : {&readA, &readB}) {
    std::vector<int64_t> &granules = reader->granules;
    std::sort(granules.begin(), granules.end());
    granules.erase(std::unique(granules.begin(), granules.end()),
                   granules.end());
    for (int64_t g : granules) {
      exec.stats.sharedBytesRead += 16;
      exec.wgmmaReads[g * groups + group] = seq;
      for (int64_t s = g * 16 / shared.granule,
                   last = (g * 16 + 15) / shared.granule;
           s <= last; ++s) {
        const Shadow &shadow = shared.shadow[s];
        std::string where =
            shared.describe(s * shared.granule) + " (shared address " +
            std::to_string(shared.address + s * shared.granule) + ")";
        if (shadow.pending)
          return exec.fail(
              self, inst,
              Twine("wgmma operand ") + reader->name + " reads " + where +
                  " while " +
                  (shadow.pendingTma ? "a TMA copy" : "a cp.async") +
                  " issued by " + exec.who(shadow.pendingOwner) +
                  " still writes it: no wait for its mbarrier phase (a "
                  "missing or wrong wait on the full barrier)");
        if (shadow.writer == kNobody)
          return exec.fail(self, inst,
                           Twine("wgmma operand ") + reader->name + " reads " +
                               where +
                               ", which nothing wrote (uninitialised: no "
                               "copy has filled it yet, a missing or wrong "
                               "wait on the full barrier?)");
        Thread *ordered = nullptr;
        for (unsigned t = 0; t < 128 && !ordered; ++t)
          if (exec.orderedBefore(threads[t], shadow.writer, shadow.writeEpoch,
                                 shadow.writeClock))
            ordered = &threads[t];
        if (!ordered)
          return exec.fail(
              self, inst,
              Twine("data race: wgmma operand ") + reader->name + " reads " +
                  where + ", written by " + exec.who(shadow.writer) +
                  (shadow.writer <= kAsyncWriter
                       ? " (phase " + std::to_string(shadow.writeClock) + ")"
                       : std::string()) +
                  ", with nothing ordering that write before the wgmma (a "
                  "missing or wrong wait on the full barrier)");
        if (shadow.writer < 0)
          continue; // a TMA copy: the async proxy itself
        // A store through the generic proxy: its thread must have fenced
        // it (fence.proxy.async) before the synchronisation.
        Thread &writer = exec.threads[shadow.writer % exec.threadsPerBlock];
        auto fence = std::upper_bound(
            writer.proxyFences.begin(), writer.proxyFences.end(),
            shadow.writeClock,
            [](uint32_t clock, const std::pair<uint32_t, uint32_t> &f) {
              return clock < f.first;
            });
        bool fenced = false;
        if (fence != writer.proxyFences.end()) {
          fenced = fence->second != exec.epoch;
          for (unsigned t = 0; t < 128 && !fenced; ++t)
            fenced = threads[t].vc[writer.linearTid] >= fence->first;
        }
        if (!fenced)
          return exec.fail(
              self, inst,
              Twine("wgmma operand ") + reader->name + " reads " + where +
                  ", stored by thread " + Twine(writer.linearTid) +
                  " through the generic proxy with no fence.proxy.async "
                  "of that thread between the store and the "
                  "synchronisation that orders it before the wgmma (the "
                  "async proxy may not see it)");
      }
    }
  }
  // D = A * B + D, in f32, products added in k order.
  float scaleA = static_cast<float>(inst.imm[kScaleA]);
  float scaleB = static_cast<float>(inst.imm[kScaleB]);
  std::vector<float> d(64 * n, 0.0f);
  auto place = [&](unsigned t, int64_t i) {
    int64_t warp = t / 32, lane = t % 32;
    int64_t row = 16 * warp + lane / 4 + 8 * ((i / 2) % 2);
    int64_t col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
    return row * n + col;
  };
  if (inst.imm[kScaleD])
    for (unsigned t = 0; t < 128; ++t) {
      const float *values = valuesOf(threads[t], inst.in[0]);
      for (int64_t i = 0; i < n / 2; ++i)
        d[place(t, i)] = values[i];
    }
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t x = 0; x < n; ++x) {
      float acc = d[r * n + x];
      for (int64_t k = 0; k < depth; ++k)
        acc = acc + (scaleA * valuesA[r * depth + k]) *
                        (scaleB * valuesB[k * n + x]);
      d[r * n + x] = acc;
    }
  for (unsigned t = 0; t < 128; ++t) {
    Thread &thread = threads[t];
    Header &header = headerOf(thread, inst.out[0]);
    header.group = seq;
    header.stamp = 0;
    float *values = valuesOf(thread, inst.out[0]);
    for (int64_t i = 0; i < n / 2; ++i)
      values[i] = d[place(t, i)];
  }
  ++exec.stats.wgmmas;
}

/// in = accumulators, descriptor A, descriptor B; imm: see Imm.
void execMma(Exec &exec, Thread &thread, const Inst &inst) {
  if (exec.threadsPerBlock % 128 != 0)
    return exec.fail(thread, inst,
                     "wgmma in a block of " + Twine(exec.threadsPerBlock) +
                         " threads: a warpgroup is 128 threads");
  unsigned group = thread.linearTid / 128;
  Warpgroup &wg = exec.warpgroups[group];
  exec.noteAligned(thread, inst);
  if (wg.inst && wg.inst != &inst)
    return exec.fail(thread, inst,
                     "warpgroup " + Twine(group) +
                         " diverged: this thread reached this wgmma while " +
                         Twine(wg.arrived) + " others wait at " +
                         describeOp(wg.inst->op));
  wg.inst = &inst;
  if (++wg.arrived < 128) {
    thread.status = Status::Blocked;
    thread.blockedOn = BlockedOn::Collective;
    return;
  }
  wg.inst = nullptr;
  wg.arrived = 0;
  executeMma(exec, thread, inst, group);
  if (exec.failed())
    return;
  for (unsigned t = group * 128; t < group * 128 + 128; ++t) {
    Thread &other = exec.threads[t];
    if (&other != &thread) {
      other.status = Status::Running;
      other.blockedOn = BlockedOn::Nothing;
    }
  }
  ++exec.wakes;
}

LogicalResult compileMma(Compiler &c, Operation *op) {
  auto mma = cast<NVVM::WgmmaMmaAsyncOp>(op);
  NVVM::MMAShapeAttr shape = mma.getShape();
  int64_t n = shape.getN();
  bool tf32 = mma.getTypeA() == NVVM::WGMMATypes::tf32;
  bool known = tf32 || mma.getTypeA() == NVVM::WGMMATypes::bf16 ||
               mma.getTypeA() == NVVM::WGMMATypes::f16;
  if (!known || mma.getTypeB() != mma.getTypeA() ||
      mma.getTypeD() != NVVM::WGMMATypes::f32)
    return c.fail(op, "only bf16, f16 or tf32 inputs with f32 accumulators "
                      "are modelled");
  int64_t depth = tf32 ? 8 : 16;
  if (shape.getM() != 64 || shape.getK() != depth || n % 8 != 0 || n < 8 ||
      n > 256)
    return c.fail(op, "wgmma shape must be m64nNk" + Twine(depth) +
                          " for " + stringifyWGMMATypes(mma.getTypeA()) +
                          " inputs, with N a multiple of 8 up to 256");
  // (tf32 operands are K-major: the NVVM verifier refuses the layouts
  // that transpose them.)
  auto type = dyn_cast<LLVM::LLVMStructType>(mma.getInouts().getType());
  if (!type || type.getBody().size() != static_cast<size_t>(n / 2) ||
      Compiler::storageSize(type) == 0)
    return c.fail(op, "the accumulators must be a struct of N/2 f32");
  if (mma.getSatfinite() &&
      *mma.getSatfinite() != NVVM::MMAIntOverflow::wrapped)
    return c.fail(op, "satfinite is not modelled");
  c.noteAccess(2);
  Inst &inst = c.emit(execMma, op);
  inst.in = {c.use(mma.getInouts()), c.use(mma.getDescriptorA()),
             c.use(mma.getDescriptorB())};
  inst.out = {c.def(mma.getResults())};
  inst.imm.resize(kScaleB + 1);
  inst.imm[kN] = n;
  inst.imm[kType] = tf32 ? kTF32
                    : mma.getTypeA() == NVVM::WGMMATypes::f16 ? kF16
                                                               : kBF16;
  inst.imm[kLayoutA] = mma.getLayoutA() == NVVM::MMALayout::col;
  inst.imm[kLayoutB] = mma.getLayoutB() == NVVM::MMALayout::col;
  inst.imm[kScaleD] = mma.getScaleD() == NVVM::WGMMAScaleOut::one;
  inst.imm[kScaleA] = mma.getScaleA() == NVVM::WGMMAScaleIn::neg ? -1 : 1;
  inst.imm[kScaleB] = mma.getScaleB() == NVVM::WGMMAScaleIn::neg ? -1 : 1;
  c.program.usesAsync = true;
  return success();
}

} // namespace

void mlir::tile::interp::registerWgmmaHandlers(HandlerRegistry &registry) {
  registry.add(LLVM::UndefOp::getOperationName(), compileUndef);
  registry.add(LLVM::InsertValueOp::getOperationName(), compileInsertValue);
  registry.add(LLVM::ExtractValueOp::getOperationName(), compileExtractValue);
  registry.add(NVVM::WgmmaFenceAlignedOp::getOperationName(),
               compileAligned<execWgmmaFence>);
  registry.add(NVVM::WgmmaGroupSyncAlignedOp::getOperationName(),
               compileAligned<execWgmmaCommit>);
  registry.add(NVVM::WgmmaWaitGroupSyncOp::getOperationName(),
               compileAligned<execWgmmaWait>);
  registry.add(NVVM::WgmmaMmaAsyncOp::getOperationName(), compileMma);
}
