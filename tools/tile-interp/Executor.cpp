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
// Kernels that synchronise through mbarriers run their threads
// interleaved: a thread that waits for an mbarrier phase, or for the rest
// of its warpgroup at a wgmma, is Blocked and the others run; TMA copies
// land when no thread can run; warps 1-3 of each warpgroup run only after
// that (late, as a GPU may leave a warp asleep: a thread that can fall two
// phases behind then waits for a phase that never comes); every thread
// blocked with nothing in flight is a deadlock. Their threads keep vector clocks, so that an access of
// another thread in the same barrier interval is ordered when an mbarrier
// phase carried it over (release at an arrive, acquire at a completed
// wait), and the shadow records the writer's clock.
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
  if (gid <= kAsyncWriter) {
    os << "the TMA copy that completed on mbarrier #" << kAsyncWriter - gid;
    return text;
  }
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
  shared.address = sharedBase;
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

/// Checks made when a thread returns: nothing of its own may be in flight.
bool Exec::finishThread(Thread &thread) {
  thread.allocas.clear();
  size_t pending = thread.uncommitted.size();
  for (const AsyncGroup &group : thread.groups)
    pending += group.copies.size();
  if (pending) {
    const Inst *first =
        !thread.uncommitted.empty() ? thread.uncommitted.front().inst : nullptr;
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
  size_t stores = thread.bulkUncommitted.size();
  for (const std::vector<PendingBulkStore> &group : thread.bulkGroups)
    stores += group.size();
  if (stores) {
    const Inst *first = !thread.bulkUncommitted.empty()
                            ? thread.bulkUncommitted.front().inst
                            : nullptr;
    for (const std::vector<PendingBulkStore> &group : thread.bulkGroups)
      if (!first && !group.empty())
        first = group.front().inst;
    fail(thread, *first,
         "thread returned with " + Twine(stores) +
             " TMA stores whose reads of shared memory no "
             "cp.async.bulk.wait_group waited for (" +
             Twine(thread.bulkUncommitted.size()) +
             " never committed to a bulk group): the block's shared memory "
             "may go before they read it; the first was issued here");
    return false;
  }
  if (thread.committed > thread.retired) {
    const Inst &last = program.code.back();
    fail(thread, last,
         "thread returned with " + Twine(thread.committed - thread.retired) +
             " wgmma groups not retired: no wgmma.wait_group completed "
             "them (its accumulators are undefined)");
    return false;
  }
  return true;
}

/// What each blocked thread waits for, for a deadlock's message.
std::string Exec::deadlock() {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "deadlock: every thread that has not returned waits, and no copy is "
        "in flight;";
  unsigned shown = 0, blocked = 0, atBarrier = 0, done = 0;
  for (Thread &thread : threads) {
    if (thread.status == Status::Done)
      ++done;
    else if (thread.status == Status::AtBarrier)
      ++atBarrier;
    else
      ++blocked;
  }
  os << " " << blocked << " blocked, " << atBarrier << " at a gpu.barrier, "
     << done << " returned";
  // A parity names a phase only up to two: a thread that fell two phases
  // behind (warps 1-3 of each warpgroup run late here) waits for one that
  // will not come.
  bool stale = llvm::any_of(threads, [&](const Thread &thread) {
    return thread.status == Status::Blocked &&
           thread.blockedOn == BlockedOn::Mbarrier &&
           mbarriers[thread.waitBarrier].phase >= 2;
  });
  if (stale)
    os << " (an mbarrier parity tells a phase from the next one only: a "
          "thread that fell two phases behind waits for a later phase, one "
          "that may never come)";
  // One line per place and thing waited for (the first thread and how
  // many wait with it), at most 4.
  auto sameWait = [](const Thread &a, const Thread &b) {
    return a.pc == b.pc && a.blockedOn == b.blockedOn &&
           (a.blockedOn != BlockedOn::Mbarrier ||
            a.waitBarrier == b.waitBarrier) &&
           (a.blockedOn != BlockedOn::Collective ||
            a.linearTid / 128 == b.linearTid / 128) &&
           (a.blockedOn != BlockedOn::NamedBarrier ||
            a.waitNamedBarrier == b.waitNamedBarrier);
  };
  for (Thread &thread : threads) {
    if (thread.status != Status::Blocked || shown == 4)
      continue;
    bool seen = false;
    unsigned with = 0;
    for (const Thread &other : threads) {
      if (other.status != Status::Blocked || !sameWait(thread, other))
        continue;
      if (other.linearTid < thread.linearTid) {
        seen = true;
        break;
      }
      if (other.linearTid > thread.linearTid)
        ++with;
    }
    if (seen)
      continue;
    ++shown;
    os << "\n    thread " << thread.linearTid;
    if (with)
      os << " (and " << with << " more)";
    if (thread.blockedOn == BlockedOn::Mbarrier) {
      const Mbarrier &barrier = mbarriers[thread.waitBarrier];
      os << " waits for the phase of parity " << (barrier.phase % 2)
         << " of mbarrier #" << thread.waitBarrier << " (" << barrier.phase
         << " phases completed; the current one still expects "
         << barrier.pending << " arrivals and " << barrier.tx
         << " transaction bytes)";
    } else if (thread.blockedOn == BlockedOn::NamedBarrier) {
      const NamedBarrier &barrier = namedBarriers[thread.waitNamedBarrier];
      os << " waits at named barrier " << thread.waitNamedBarrier << " ("
         << barrier.arrived.size() << " of " << barrier.expected
         << " threads arrived)";
    } else {
      const Warpgroup &group = warpgroups[thread.linearTid / 128];
      os << " waits for the rest of warpgroup " << thread.linearTid / 128
         << " at a warpgroup-collective op (" << group.arrived
         << " of 128 arrived)";
    }
    os << " at: "
       << describeOp(
              program
                  .code[thread.pc -
                        (thread.blockedOn == BlockedOn::Mbarrier ? 0 : 1)]
                  .op);
  }
  return text;
}

bool Exec::runBlock(uint64_t &budget) {
  // Shared memory starts as NaN and uninitialised.
  shared.reset(dims.sharedBytes, 0xff, kNobody);
  deferred.clear();
  ++epoch;
  bool async = program.usesAsync;
  size_t clockSize = async ? threadsPerBlock + program.mbarriers : 0;
  unsigned groups = async ? (threadsPerBlock + 127) / 128 : 0;
  mbarriers.assign(program.mbarriers, Mbarrier());
  for (Mbarrier &barrier : mbarriers) {
    barrier.arrivedVC.assign(clockSize, 0);
    barrier.completedVC.assign(clockSize, 0);
  }
  tmaCopies.clear();
  warpgroups.assign(groups, Warpgroup());
  namedBarriers.assign(16, NamedBarrier());
  for (NamedBarrier &barrier : namedBarriers)
    barrier.joinedVC.assign(clockSize, 0);
  for (Warpgroup &group : warpgroups)
    group.retirements.resize(128);
  wgmmaReads.assign(async ? (dims.sharedBytes + 15) / 16 * groups : 0, 0);
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
    if (async) {
      thread.vc.assign(clockSize, 0);
      thread.vc[t] = 1;
      thread.orderedGroup.assign(groups, 0);
    }
    for (auto [slot, arg] : llvm::zip_equal(program.argSlots, args)) {
      if (arg.isMemRef)
        thread.at<MemRefDesc>(slot) = arg.desc;
      else
        thread.at<uint64_t>(slot) = arg.bits;
    }
  }
  const Inst *code = program.code.data();
  // Mbarrier kernels: warps 1-3 of each warpgroup run only when no other
  // thread can and no copy is left to land (the GPU may leave a warp asleep
  // while the others run on): a thread that falls behind must still find
  // the phase it waits for, or the kernel hangs.
  auto lazy = [&](const Thread &thread) {
    return async && thread.linearTid % 128 >= 32;
  };
  bool lazyTurn = false;
  while (true) {
    bool ran = false;
    uint64_t wakesBefore = wakes;
    for (Thread &thread : threads) {
      if (thread.status != Status::Running || lazy(thread) != lazyTurn)
        continue;
      // A lazy warp's turn ends when it woke anyone: the others go first.
      if (lazyTurn && wakes != wakesBefore)
        break;
      ran = true;
      uint64_t executed = 0;
      while (thread.status == Status::Running && executed < budget) {
        const Inst &inst = code[thread.pc++];
        inst.fn(*this, thread, inst);
        ++executed;
      }
      budget -= executed;
      stats.instructions += executed;
      if (thread.status == Status::Faulted || failed())
        return false;
      if (thread.status == Status::Running) {
        error = "gave up after " + std::to_string(stats.instructions) +
                " instructions (--max-instructions): a loop that does not "
                "end?";
        return false;
      }
      if (thread.status == Status::Done && !finishThread(thread))
        return false;
    }
    if (ran) {
      lazyTurn = false;
      continue;
    }
    // No thread can run: the oldest copy in flight lands (and may wake
    // threads before the next one does), then the lazy warps run. A block whose threads all
    // returned with copies in flight would have them write its shared
    // memory after it ended: an error.
    if (!tmaCopies.empty() &&
        std::all_of(threads.begin(), threads.end(), [](const Thread &t) {
          return t.status == Status::Done;
        })) {
      error = "the block's threads all returned with " +
              std::to_string(tmaCopies.size()) +
              " TMA copies still in flight (loads nobody waits for) [block " +
              std::to_string(linearBlock) + "]";
      return false;
    }
    if (!tmaCopies.empty()) {
      if (!completeOldestTma())
        return false;
      lazyTurn = false;
      continue;
    }
    if (!lazyTurn && std::any_of(threads.begin(), threads.end(),
                                 [&](const Thread &t) {
                                   return t.status == Status::Running &&
                                          lazy(t);
                                 })) {
      lazyTurn = true;
      continue;
    }
    lazyTurn = false;
    if (!deferred.empty()) {
      error = deferred;
      return false;
    }
    // Everyone returned, or everyone waits at a barrier.
    Thread *waiting = nullptr, *returned = nullptr, *blocked = nullptr;
    for (Thread &thread : threads) {
      if (thread.status == Status::AtBarrier) {
        if (!waiting)
          waiting = &thread;
      } else if (thread.status == Status::Blocked) {
        if (!blocked)
          blocked = &thread;
      } else if (!returned) {
        returned = &thread;
      }
    }
    if (blocked) {
      error = deadlock() + "\n    [block " + std::to_string(linearBlock) + "]";
      return false;
    }
    if (!waiting) {
      // The block ends: every phase TMA copies completed was waited for
      // (else they were loads nobody waits for: on the GPU they could land
      // after the block ended) ...
      for (unsigned id = 0; id < mbarriers.size(); ++id)
        if (mbarriers[id].unwaitedTx) {
          error = "the block's threads all returned without waiting for "
                  "phase " +
                  std::to_string(mbarriers[id].phase - 1) + " of mbarrier #" +
                  std::to_string(id) +
                  ", which TMA copies completed (loads nobody waits for) "
                  "[block " +
                  std::to_string(linearBlock) + "]";
          return false;
        }
      // ... and its warpgroups executed the same aligned ops.
      for (unsigned g = 0; g < warpgroups.size(); ++g)
        for (unsigned t = g * 128 + 1;
             t < std::min<int64_t>((g + 1) * 128, threadsPerBlock); ++t)
          if (threads[t].alignedHash != threads[g * 128].alignedHash) {
            error = "warpgroup " + std::to_string(g) +
                    " diverged at its warpgroup-aligned ops (wgmma.*, "
                    "setmaxnreg): thread " +
                    std::to_string(t) + " executed " +
                    std::to_string(threads[t].alignedCount) +
                    " of them, thread " + std::to_string(g * 128) + " " +
                    std::to_string(threads[g * 128].alignedCount) +
                    ", or different ones [block " +
                    std::to_string(linearBlock) + "]";
            return false;
          }
      return true;
    }
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
    // The barrier also carries the mbarrier phases each thread saw (the
    // TMA bytes those made visible) to every thread.
    for (unsigned b = 0; b < program.mbarriers; ++b) {
      uint32_t seen = 0;
      for (Thread &thread : threads)
        seen = std::max(seen, thread.vc[threadsPerBlock + b]);
      for (Thread &thread : threads)
        thread.vc[threadsPerBlock + b] = seen;
    }
    for (Thread &thread : threads) {
      thread.status = Status::Running;
      thread.barrier = nullptr;
    }
    ++wakes;
  }
}

//===----------------------------------------------------------------------===//
// Happens-before through mbarriers
//===----------------------------------------------------------------------===//

bool Exec::orderedBefore(const Thread &thread, int32_t other,
                         uint32_t otherEpoch, uint32_t otherClock) const {
  if (other == kNobody || other == kHost || other == thread.gid)
    return true;
  if (other <= kAsyncWriter) {
    // A TMA copy's bytes: visible to threads that saw its phase complete.
    unsigned barrier = kAsyncWriter - other;
    return !thread.vc.empty() &&
           thread.vc[threadsPerBlock + barrier] > otherClock;
  }
  if (other == kMany)
    return otherEpoch != epoch;
  if (other / threadsPerBlock != linearBlock)
    return false; // nothing orders two blocks
  if (otherEpoch != epoch)
    return true;
  return !thread.vc.empty() && thread.vc[other % threadsPerBlock] >= otherClock;
}

void Exec::release(Thread &thread, Mbarrier &barrier) {
  for (size_t i = 0; i < thread.vc.size(); ++i)
    barrier.arrivedVC[i] = std::max(barrier.arrivedVC[i], thread.vc[i]);
  ++thread.vc[thread.linearTid];
}

void Exec::acquire(Thread &thread, unsigned id) {
  mbarriers[id].unwaitedTx = false;
  const std::vector<uint32_t> &done = mbarriers[id].completedVC;
  for (size_t i = 0; i < thread.vc.size(); ++i)
    thread.vc[i] = std::max(thread.vc[i], done[i]);
}

void Exec::maybeCompletePhase(unsigned id) {
  Mbarrier &barrier = mbarriers[id];
  if (barrier.pending != 0 || barrier.tx != 0)
    return;
  barrier.completedVC = barrier.arrivedVC;
  uint32_t &seen = barrier.completedVC[threadsPerBlock + id];
  seen = std::max(seen, barrier.phase + 1);
  ++barrier.phase;
  ++stats.mbarrierPhases;
  if (barrier.phaseTx > 0)
    barrier.unwaitedTx = true;
  barrier.phaseTx = 0;
  barrier.pending = barrier.expected;
  std::fill(barrier.arrivedVC.begin(), barrier.arrivedVC.end(), 0);
  for (Thread &thread : threads)
    if (thread.status == Status::Blocked &&
        thread.blockedOn == BlockedOn::Mbarrier && thread.waitBarrier == id) {
      thread.status = Status::Running;
      thread.blockedOn = BlockedOn::Nothing;
      ++wakes;
    }
}

void Exec::blockOnMbarrier(Thread &thread, const Inst &inst, unsigned id) {
  (void)inst;
  --thread.pc; // the wait runs again when the phase completes
  thread.status = Status::Blocked;
  thread.blockedOn = BlockedOn::Mbarrier;
  thread.waitBarrier = id;
  thread.waitPhase = mbarriers[id].phase;
}

bool Exec::groupRetiredBefore(Thread &thread, unsigned group, uint32_t seq) {
  if (thread.orderedGroup[group] >= seq)
    return true;
  const Warpgroup &wg = warpgroups[group];
  for (unsigned r = 0; r < 128; ++r) {
    const std::vector<Warpgroup::Retirement> &log = wg.retirements[r];
    auto it = std::lower_bound(
        log.begin(), log.end(), seq,
        [](const Warpgroup::Retirement &e, uint32_t s) { return e.upTo < s; });
    if (it == log.end())
      continue;
    if (it->epoch != epoch || thread.vc[group * 128 + r] >= it->clock) {
      thread.orderedGroup[group] =
          std::max(thread.orderedGroup[group], it->upTo);
      return true;
    }
  }
  return false;
}

bool Exec::checkWgmmaReaders(Thread &thread, const Inst &inst, int64_t byte,
                             int64_t size, StringRef what) {
  if (wgmmaReads.empty() || size <= 0)
    return true;
  unsigned groups = warpgroups.size();
  for (int64_t g = byte / 16, last = (byte + size - 1) / 16; g <= last; ++g)
    for (unsigned wg = 0; wg < groups; ++wg) {
      uint32_t seq = wgmmaReads[g * groups + wg];
      if (seq == 0 || groupRetiredBefore(thread, wg, seq))
        continue;
      fail(thread, inst,
           what + " overwrites " + shared.describe(std::max(byte, g * 16)) +
               " (shared address " + Twine(shared.address + g * 16) +
               "), which wgmma group " + Twine(seq) + " of warpgroup " +
               Twine(wg) +
               " reads, before that group was retired: no wgmma.wait_group "
               "of that warpgroup retired it before this write (a slot "
               "released too early)");
      return false;
    }
  return true;
}

//===----------------------------------------------------------------------===//
// TMA copies
//===----------------------------------------------------------------------===//

bool Exec::issueTma(Thread &thread, const Inst &inst, PendingTma copy) {
  int64_t byte = copy.dstByte, size = copy.data.size();
  if (byte < 0 || byte + size > static_cast<int64_t>(shared.bytes.size())) {
    fail(thread, inst,
         "TMA copy of " + Twine(size) + " bytes at shared memory byte " +
             Twine(byte) + " reaches past the " + Twine(shared.bytes.size()) +
             " bytes of dynamic shared memory");
    return false;
  }
  if (!checkWgmmaReaders(thread, inst, byte, size, "TMA copy"))
    return false;
  for (int64_t g = byte / shared.granule,
               last = (byte + size - 1) / shared.granule;
       g <= last; ++g) {
    Shadow &s = shared.shadow[g];
    int64_t at = std::max(byte, g * shared.granule);
    if (s.pending) {
      fail(thread, inst,
           "TMA copy into " + shared.describe(at) + ", which " +
               (s.pendingTma ? "another TMA copy" : "a cp.async") + " of " +
               who(s.pendingOwner) + " still writes");
      return false;
    }
    int32_t other = kNobody;
    if (concurrent(thread, s.reader, s.readEpoch, s.readClock))
      other = s.reader;
    else if (concurrent(thread, s.writer, s.writeEpoch, s.writeClock))
      other = s.writer;
    if (other != kNobody) {
      fail(thread, inst,
           "data race: TMA copy into " + shared.describe(at) + ", which " +
               who(other) +
               " accessed with no synchronisation in between (barrier or "
               "mbarrier phase)");
      return false;
    }
    s.pendingOwner = thread.gid;
    s.pending = 1;
    s.pendingTma = true;
  }
  ++stats.tmaCopies;
  stats.tmaBytes += size;
  copy.inst = &inst;
  copy.issuer = thread.gid;
  tmaCopies.push_back(std::move(copy));
  return true;
}

bool Exec::completeOldestTma() {
  PendingTma copy = std::move(tmaCopies.front());
  tmaCopies.pop_front();
  Mbarrier &barrier = mbarriers[copy.barrier];
  int64_t byte = copy.dstByte, size = copy.data.size();
  for (int64_t g = byte / shared.granule,
               last = (byte + size - 1) / shared.granule;
       g <= last; ++g) {
    Shadow &s = shared.shadow[g];
    s.pending = 0;
    s.pendingTma = false;
    s.pendingOwner = kNobody;
    s.writer = kAsyncWriter - static_cast<int32_t>(copy.barrier);
    s.writeEpoch = epoch;
    s.writeClock = barrier.phase;
    s.reader = kNobody;
    s.atomic = false;
  }
  std::memcpy(shared.bytes.data() + byte, copy.data.data(), size);
  stats.sharedBytesWritten += size;
  // complete_tx on the barrier's current phase.
  barrier.tx -= size;
  maybeCompletePhase(copy.barrier);
  return true;
}

//===----------------------------------------------------------------------===//
// Memory accesses
//===----------------------------------------------------------------------===//

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
      if (s.pending && s.pendingTma) {
        fail(thread, inst,
             "reads " + buffer.describe(at) +
                 " while the TMA copy into it "
                 "issued by " +
                 who(s.pendingOwner) +
                 " is in flight: no wait for the mbarrier phase it "
                 "completes (a missing wait: the data is stale)");
        return nullptr;
      }
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
      if (concurrent(thread, s.writer, s.writeEpoch, s.writeClock)) {
        fail(thread, inst,
             s.writer <= kAsyncWriter
                 ? "reads " + buffer.describe(at) + ", written by " +
                       who(s.writer) + " (phase " + Twine(s.writeClock) +
                       "), without waiting for that phase (the data may "
                       "not have landed)"
                 : "data race: reads " + buffer.describe(at) + " written by " +
                       who(s.writer) + " with no barrier in between");
        return nullptr;
      }
      if (s.readEpoch != epoch || s.reader == kNobody ||
          (s.reader != thread.gid && s.reader != kMany &&
           !concurrent(thread, s.reader, s.readEpoch, s.readClock))) {
        // The previous reader is ordered before this one: a writer ordered
        // after this read is ordered after both.
        s.reader = thread.gid;
        s.readEpoch = epoch;
        s.readClock = ownClock(thread);
      } else if (s.reader != thread.gid) {
        s.reader = kMany;
      } else {
        s.readClock = ownClock(thread);
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
          (!s.atomic &&
           concurrent(thread, s.writer, s.writeEpoch, s.writeClock))) {
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
  auto conc = [&](int32_t other, uint32_t otherEpoch, uint32_t otherClock) {
    return concurrent(thread, other, otherEpoch, otherClock);
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
                    who(s.pendingOwner) + "'s " +
                    (s.pendingTma ? "TMA copy" : "cp.async") +
                    " into it is in flight");
      return false;
    }
    if (s.bulkReads) {
      exec.fail(thread, inst,
                "writes " + buffer.describe(from) + ", the source of a TMA "
                "store issued by " + who(s.bulkReader) +
                    " that no cp.async.bulk.wait_group of that thread has "
                    "completed (the TMA may still read it)");
      return false;
    }
    if (conc(s.writer, s.writeEpoch, s.writeClock) && !(atomic && s.atomic)) {
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
    if (conc(s.reader, s.readEpoch, s.readClock)) {
      exec.fail(thread, inst,
                "data race: writes " + buffer.describe(from) + " read by " +
                    who(s.reader) + " with no barrier in between");
      return false;
    }
    s.writer = thread.gid;
    s.writeEpoch = epoch;
    s.writeClock = ownClock(thread);
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
  if (buffer.space == Space::Shared) {
    stats.sharedBytesWritten += size;
    if (!checkWgmmaReaders(thread, inst, byte, size, "a store"))
      return false;
  }
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
  if (buffer.space == Space::Shared &&
      !checkWgmmaReaders(thread, inst, byte, size, "a cp.async"))
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
      if (concurrent(thread, s.reader, s.readEpoch, s.readClock))
        other = s.reader;
      else if (concurrent(thread, s.writer, s.writeEpoch, s.writeClock) &&
               (s.atomic || !sameBytes))
        other = s.writer;
      if (other != kNobody) {
        fail(thread, inst,
             "data race: cp.async into " + buffer.describe(at) + ", which " +
                 who(other) + " accessed with no barrier in between");
        return false;
      }
      if (s.pending && s.pendingTma) {
        fail(thread, inst,
             "cp.async into " + buffer.describe(at) +
                 ", which a TMA copy still writes");
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
