//===- Executor.cpp - blocks, threads, barriers and the memory model ------===//
//
// Blocks run one after the other (a valid schedule: blocks cannot wait for
// each other). Within a block every thread runs until it reaches a barrier
// or returns; when all threads wait at the same barrier they are released
// and the barrier interval ("epoch") advances. The shadow of each checked
// buffer remembers, per granule, the last writer, the readers of the
// current interval and the cp.async writes in flight; two accesses of
// different threads in the same interval conflict when one is a write
// (writes of identical bytes excepted: the copies let surplus threads redo
// a granule with the same value), and any access to a location a cp.async
// will still write is an error.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile::interp;

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

void Buffer::reset(int64_t size, uint8_t fill, int32_t writer) {
  bytes.assign(size, fill);
  if (!checked) {
    shadow.clear();
    return;
  }
  Shadow initial;
  initial.writer = writer;
  shadow.assign((size + granule - 1) / granule, initial);
}

std::string Buffer::describe(int64_t byte) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (rowElements > 0 && elementBytes > 0 && byte >= 0) {
    int64_t element = byte / elementBytes;
    os << name << "[" << element / rowElements << "][" << element % rowElements
       << "]";
    if (byte % elementBytes)
      os << " (byte " << byte % elementBytes << ")";
    return text;
  }
  os << name << " byte " << byte;
  return text;
}

//===----------------------------------------------------------------------===//
// Scheduling
//===----------------------------------------------------------------------===//

std::string Exec::who(int32_t gid) const {
  if (gid == kHost)
    return "the host";
  if (gid == kMany)
    return "several threads";
  if (gid == kNobody)
    return "nobody";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "thread " << gid % threadsPerBlock << " of block "
     << gid / threadsPerBlock;
  return text;
}

void Exec::fail(Thread &thread, const Inst &inst, const Twine &message) {
  thread.status = Status::Faulted;
  if (!error.empty())
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << message << " [block " << linearBlock << ", thread " << thread.linearTid
     << "]\n    at: " << describeOp(inst.op);
  error = text;
}

bool Exec::run(uint64_t maxInstructions) {
  threadsPerBlock = dims.block[0] * dims.block[1] * dims.block[2];
  size_t frameBytes = (program.frameSize + 63) / 64 * 64;
  arena.assign(threadsPerBlock * frameBytes, 0);
  threads.clear();
  threads.resize(threadsPerBlock);
  for (int64_t t = 0; t < threadsPerBlock; ++t)
    threads[t].frame = arena.data() + t * frameBytes;
  shared.name = "shared memory";
  shared.space = Space::Shared;
  shared.checked = true;
  shared.granule = program.granule;
  shared.baseAlignment = 16; // .extern .shared .align 16
  uint64_t budget = maxInstructions;
  for (int64_t z = 0; z < dims.grid[2]; ++z)
    for (int64_t y = 0; y < dims.grid[1]; ++y)
      for (int64_t x = 0; x < dims.grid[0]; ++x) {
        blockId[0] = x;
        blockId[1] = y;
        blockId[2] = z;
        linearBlock = (z * dims.grid[1] + y) * dims.grid[0] + x;
        if (!runBlock(budget))
          return false;
      }
  return true;
}

bool Exec::runBlock(uint64_t &budget) {
  // Shared memory starts as NaN and uninitialised.
  shared.reset(dims.sharedBytes, 0xff, kNobody);
  deferred.clear();
  ++epoch;
  for (int64_t t = 0; t < threadsPerBlock; ++t) {
    Thread &thread = threads[t];
    uint8_t *frame = thread.frame;
    thread = Thread();
    thread.frame = frame;
    std::memcpy(frame, program.frameTemplate.data(), program.frameSize);
    thread.tid[0] = t % dims.block[0];
    thread.tid[1] = (t / dims.block[0]) % dims.block[1];
    thread.tid[2] = t / (dims.block[0] * dims.block[1]);
    thread.linearTid = t;
    thread.gid = static_cast<int32_t>(linearBlock * threadsPerBlock + t);
    for (auto [slot, desc] : llvm::zip_equal(program.argSlots, argDescs))
      thread.at<MemRefDesc>(slot) = desc;
  }
  const Inst *code = program.code.data();
  while (true) {
    for (Thread &thread : threads) {
      if (thread.status != Status::Running)
        continue;
      uint64_t executed = 0;
      while (thread.status == Status::Running && executed < budget) {
        const Inst &inst = code[thread.pc++];
        inst.fn(*this, thread, inst);
        ++executed;
      }
      budget -= executed;
      stats.instructions += executed;
      if (thread.status == Status::Faulted)
        return false;
      if (thread.status == Status::Running) {
        error = "gave up after " + std::to_string(stats.instructions) +
                " instructions (--max-instructions): a loop that does not "
                "end?";
        return false;
      }
      if (thread.status == Status::Done) {
        thread.allocas.clear();
        size_t pending = thread.uncommitted.size();
        for (const AsyncGroup &group : thread.groups)
          pending += group.copies.size();
        if (pending) {
          const Inst *first = !thread.uncommitted.empty()
                                  ? thread.uncommitted.front().inst
                                  : nullptr;
          for (const AsyncGroup &group : thread.groups)
            if (!first && !group.copies.empty())
              first = group.copies.front().inst;
          fail(thread, *first,
               "thread returned with " + Twine(pending) +
                   " cp.async copies still in flight (" +
                   Twine(thread.uncommitted.size()) +
                   " never committed to a group): no device_async_wait "
                   "completed them; the first was issued here");
          return false;
        }
      }
    }
    if (!deferred.empty()) {
      error = deferred;
      return false;
    }
    // Everyone returned, or everyone waits at a barrier.
    Thread *waiting = nullptr, *returned = nullptr;
    for (Thread &thread : threads) {
      if (thread.status == Status::AtBarrier) {
        if (!waiting)
          waiting = &thread;
      } else if (!returned) {
        returned = &thread;
      }
    }
    if (!waiting)
      return true;
    if (returned) {
      fail(*waiting, *waiting->barrier,
           "barrier never reached by thread " + Twine(returned->linearTid) +
               " (it returned) while thread " + Twine(waiting->linearTid) +
               " waits here: a deadlock on the GPU");
      return false;
    }
    for (Thread &thread : threads)
      if (thread.barrier != waiting->barrier) {
        fail(thread, *thread.barrier,
             "threads wait at different barriers: thread " +
                 Twine(thread.linearTid) + " here, thread " +
                 Twine(waiting->linearTid) + " at " +
                 describeOp(waiting->barrier->op));
        return false;
      }
    ++stats.barriers;
    ++epoch;
    for (Thread &thread : threads) {
      thread.status = Status::Running;
      thread.barrier = nullptr;
    }
  }
}

//===----------------------------------------------------------------------===//
// Memory accesses
//===----------------------------------------------------------------------===//

bool Exec::concurrent(const Thread &thread, int32_t other,
                      uint32_t otherEpoch) const {
  if (other == thread.gid || other == kNobody || other == kHost)
    return false;
  if (other == kMany)
    return otherEpoch == epoch;
  if (other / threadsPerBlock != linearBlock)
    return true; // nothing orders two blocks
  return otherEpoch == epoch;
}

bool Exec::locate(Thread &thread, const Inst &inst, const MemRefDesc &desc,
                  unsigned rank, ArrayRef<int64_t> indices, int64_t count,
                  int64_t elementBytes, unsigned operand, int64_t &byte) {
  int64_t linear = 0;
  bool inside = true;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t last = indices[d] + (d + 1 == rank ? count - 1 : 0);
    if (indices[d] < 0 || last >= desc.sizes[d])
      inside = false;
    linear += indices[d] * desc.strides[d];
  }
  if (!inside) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "out-of-bounds access: index [";
    for (unsigned d = 0; d < rank; ++d)
      os << (d ? ", " : "") << indices[d];
    os << "]";
    if (count > 1)
      os << " (" << count << " elements along the last dimension)";
    os << " outside the ";
    for (unsigned d = 0; d < rank; ++d)
      os << (d ? "x" : "") << desc.sizes[d];
    os << " " << inst.op->getOperand(operand).getType() << " of "
       << desc.buffer->name;
    fail(thread, inst, text);
    return false;
  }
  if (count > 1 && rank > 0 && desc.strides[rank - 1] != 1) {
    fail(thread, inst,
         "vector access along a dimension of stride " +
             Twine(desc.strides[rank - 1]) + " (not supported)");
    return false;
  }
  byte = desc.byteOffset + linear * elementBytes;
  return true;
}

bool Exec::checkAlignment(Thread &thread, const Inst &inst,
                          const Buffer &buffer, int64_t byte, int64_t alignment,
                          StringRef what) {
  if (alignment <= 1)
    return true;
  if (byte % alignment == 0 && buffer.baseAlignment % alignment == 0)
    return true;
  fail(thread, inst,
       "misaligned " + what + ": " + buffer.describe(byte) + " (byte " +
           Twine(byte) + " of " + buffer.name + ") is not " + Twine(alignment) +
           "-byte aligned");
  return false;
}

static bool checkRange(Exec &exec, Thread &thread, const Inst &inst,
                       const Buffer &buffer, int64_t byte, int64_t size,
                       StringRef verb) {
  if (byte >= 0 && size >= 0 &&
      byte + size <= static_cast<int64_t>(buffer.bytes.size()))
    return true;
  exec.fail(thread, inst,
            "out-of-bounds access: " + verb + " bytes [" + Twine(byte) + ", " +
                Twine(byte + size) + ") outside the " +
                Twine(buffer.bytes.size()) + " bytes of " + buffer.name);
  return false;
}

const uint8_t *Exec::read(Thread &thread, const Inst &inst, Buffer &buffer,
                          int64_t byte, int64_t size) {
  if (!checkRange(*this, thread, inst, buffer, byte, size, "reads"))
    return nullptr;
  if (buffer.space == Space::Shared)
    stats.sharedBytesRead += size;
  if (buffer.checked && size > 0) {
    for (int64_t g = byte / buffer.granule,
                 last = (byte + size - 1) / buffer.granule;
         g <= last; ++g) {
      Shadow &s = buffer.shadow[g];
      int64_t at = std::max(byte, g * buffer.granule);
      if (s.pending) {
        fail(thread, inst,
             s.pendingOwner == thread.gid
                 ? "reads " + buffer.describe(at) +
                       " before a device_async_wait completed this "
                       "thread's cp.async into it (a missing wait: the "
                       "data is stale)"
                 : "data race: reads " + buffer.describe(at) + " while " +
                       who(s.pendingOwner) +
                       "'s cp.async into it is in "
                       "flight (no wait and barrier in between)");
        return nullptr;
      }
      if (s.writer == kNobody && deferred.empty()) {
        // Reported when the interval ends, unless another thread writes it
        // before that: then it is a race (a missing barrier), not garbage.
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "reads " << buffer.describe(at)
           << ", which nothing wrote before (uninitialised) [block "
           << linearBlock << ", thread " << thread.linearTid
           << "]\n    at: " << describeOp(inst.op);
        deferred = text;
      }
      if (concurrent(thread, s.writer, s.writeEpoch)) {
        fail(thread, inst,
             "data race: reads " + buffer.describe(at) + " written by " +
                 who(s.writer) + " with no barrier in between");
        return nullptr;
      }
      if (s.readEpoch != epoch || s.reader == kNobody) {
        s.reader = thread.gid;
        s.readEpoch = epoch;
      } else if (s.reader != thread.gid) {
        s.reader = kMany;
      }
    }
  }
  return buffer.bytes.data() + byte;
}

const uint8_t *Exec::readForAtomic(Thread &thread, const Inst &inst,
                                   Buffer &buffer, int64_t byte, int64_t size) {
  if (!checkRange(*this, thread, inst, buffer, byte, size, "reads"))
    return nullptr;
  if (buffer.checked && size > 0) {
    for (int64_t g = byte / buffer.granule,
                 last = (byte + size - 1) / buffer.granule;
         g <= last; ++g) {
      Shadow &s = buffer.shadow[g];
      int64_t at = std::max(byte, g * buffer.granule);
      if (s.pending || s.writer == kNobody ||
          (!s.atomic && concurrent(thread, s.writer, s.writeEpoch))) {
        fail(thread, inst,
             "atomic update of " + buffer.describe(at) +
                 (s.pending ? " while a cp.async into it is in flight"
                  : s.writer == kNobody
                      ? ", which nothing wrote (uninitialised)"
                      : " races with the plain write of " + who(s.writer)));
        return nullptr;
      }
    }
  }
  return buffer.bytes.data() + byte;
}

/// The write check of one access; `async` for the completion of a cp.async
/// (whose own in-flight mark was just removed).
bool Exec::writeShadow(Thread &thread, const Inst &inst, Buffer &buffer,
                       int64_t byte, const uint8_t *data, int64_t size,
                       bool atomic) {
  Exec &exec = *this;
  auto conc = [&](int32_t other, uint32_t otherEpoch) {
    return concurrent(thread, other, otherEpoch);
  };
  for (int64_t g = byte / buffer.granule,
               last = (byte + size - 1) / buffer.granule;
       g <= last; ++g) {
    Shadow &s = buffer.shadow[g];
    int64_t from = std::max(byte, g * buffer.granule);
    int64_t to = std::min(byte + size, (g + 1) * buffer.granule);
    if (s.pending) {
      exec.fail(thread, inst,
                "writes " + buffer.describe(from) + " while " +
                    who(s.pendingOwner) + "'s cp.async into it is in flight");
      return false;
    }
    if (conc(s.writer, s.writeEpoch) && !(atomic && s.atomic)) {
      bool same = std::memcmp(buffer.bytes.data() + from, data + (from - byte),
                              to - from) == 0;
      if (atomic || s.atomic || !same) {
        exec.fail(thread, inst,
                  "data race: writes " + buffer.describe(from) +
                      " also written by " + who(s.writer) +
                      " with no barrier in between");
        return false;
      }
    }
    if (conc(s.reader, s.readEpoch)) {
      exec.fail(thread, inst,
                "data race: writes " + buffer.describe(from) + " read by " +
                    who(s.reader) + " with no barrier in between");
      return false;
    }
    s.writer = thread.gid;
    s.writeEpoch = epoch;
    s.atomic = atomic;
  }
  return true;
}

bool Exec::write(Thread &thread, const Inst &inst, Buffer &buffer, int64_t byte,
                 const uint8_t *data, int64_t size, bool atomic) {
  if (!checkRange(*this, thread, inst, buffer, byte, size, "writes"))
    return false;
  if (buffer.readOnly) {
    fail(thread, inst,
         "writes " + buffer.describe(byte) + " of the read-only " +
             buffer.name);
    return false;
  }
  if (buffer.space == Space::Shared)
    stats.sharedBytesWritten += size;
  if (buffer.checked && size > 0 &&
      !writeShadow(thread, inst, buffer, byte, data, size, atomic))
    return false;
  std::memcpy(buffer.bytes.data() + byte, data, size);
  return true;
}

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

bool Exec::issueAsyncCopy(Thread &thread, const Inst &inst, PendingCopy copy) {
  Buffer &buffer = *copy.dst;
  int64_t byte = copy.dstByte, size = copy.data.size();
  if (!checkRange(*this, thread, inst, buffer, byte, size, "writes"))
    return false;
  if (buffer.checked && size > 0) {
    for (int64_t g = byte / buffer.granule,
                 last = (byte + size - 1) / buffer.granule;
         g <= last; ++g) {
      Shadow &s = buffer.shadow[g];
      int64_t at = std::max(byte, g * buffer.granule);
      // A write by another thread in this interval is no race if it wrote
      // the bytes this copy brings (a surplus thread redoing a granule).
      int64_t to = std::min(byte + size, (g + 1) * buffer.granule);
      bool sameBytes =
          std::memcmp(buffer.bytes.data() + at, copy.data.data() + (at - byte),
                      to - at) == 0;
      int32_t other = kNobody;
      if (concurrent(thread, s.reader, s.readEpoch))
        other = s.reader;
      else if (concurrent(thread, s.writer, s.writeEpoch) &&
               (s.atomic || !sameBytes))
        other = s.writer;
      if (other != kNobody) {
        fail(thread, inst,
             "data race: cp.async into " + buffer.describe(at) + ", which " +
                 who(other) + " accessed with no barrier in between");
        return false;
      }
      s.pendingOwner =
          s.pending == 0 || s.pendingOwner == thread.gid ? thread.gid : kMany;
      ++s.pending;
    }
  }
  ++stats.asyncCopies;
  thread.uncommitted.push_back(std::move(copy));
  return true;
}

bool Exec::completeCopy(Thread &thread, const PendingCopy &copy) {
  Buffer &buffer = *copy.dst;
  int64_t byte = copy.dstByte, size = copy.data.size();
  if (buffer.checked && size > 0)
    for (int64_t g = byte / buffer.granule,
                 last = (byte + size - 1) / buffer.granule;
         g <= last; ++g) {
      Shadow &s = buffer.shadow[g];
      if (--s.pending == 0)
        s.pendingOwner = kNobody;
    }
  if (buffer.space == Space::Shared)
    stats.sharedBytesWritten += size;
  if (buffer.checked && size > 0) {
    // Another copy still in flight to the same bytes (a surplus thread
    // redoing a granule) is no error here: compare as a plain write.
    std::vector<uint16_t> pending;
    for (int64_t g = byte / buffer.granule,
                 last = (byte + size - 1) / buffer.granule;
         g <= last; ++g) {
      pending.push_back(buffer.shadow[g].pending);
      buffer.shadow[g].pending = 0;
    }
    bool ok = writeShadow(thread, *copy.inst, buffer, byte, copy.data.data(),
                          size, /*atomic=*/false);
    size_t i = 0;
    for (int64_t g = byte / buffer.granule,
                 last = (byte + size - 1) / buffer.granule;
         g <= last; ++g)
      buffer.shadow[g].pending = pending[i++];
    if (!ok)
      return false;
  }
  std::memcpy(buffer.bytes.data() + byte, copy.data.data(), size);
  return true;
}

bool Exec::waitAsyncGroups(Thread &thread, const Inst &inst, int64_t pending) {
  (void)inst;
  while (static_cast<int64_t>(thread.groups.size()) > pending) {
    for (const PendingCopy &copy : thread.groups.front().copies)
      if (!completeCopy(thread, copy))
        return false;
    thread.groups.pop_front();
  }
  return true;
}
