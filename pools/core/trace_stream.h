// The trace stream: one ordered stream of Events from every pool of a run.
//
// Producers (any pool thread) reserve a slot in a bounded ring with one
// compare-and-swap, fill it and publish it; no lock is shared between threads
// and nothing is allocated per event. The single consumer (the engine, the GUI
// or a test) drains published slots in reservation order, which is a total
// order across pools. When the consumer falls behind and the ring is full, the
// event is not written and is counted in dropped() — never lost silently.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pools/core/event.h"

namespace poolscope {

struct PoolInfo {
  PoolId id;
  std::string name;    // as the run calls it ("fasthttp", "ants-prealloc", ...)
  std::string design;  // the registry design it was built from
};

class TraceStream {
 public:
  // `capacity` events are buffered between drains (rounded up to a power of two).
  explicit TraceStream(std::size_t capacity = std::size_t{1} << 18);
  TraceStream(const TraceStream&) = delete;
  TraceStream& operator=(const TraceStream&) = delete;

  // Registers a source of events; returns the id its events carry.
  PoolId add_pool(std::string name, std::string design);
  std::vector<PoolInfo> pools() const;

  // Producer side, any thread: reserves a slot, calls fill(Event&) on it, and
  // publishes it. Whatever fill() reads (the time, the counters) is read after
  // the reservation, so the event with the highest position always sees every
  // change made before any earlier reservation. Returns false if dropped.
  template <class Fill>
  bool record(Fill&& fill);

  // Consumer side, one thread at a time: appends up to `max` published events
  // to `out` in stream order and frees their slots; returns how many.
  std::size_t drain(std::vector<Event>& out, std::size_t max = SIZE_MAX);

  std::uint64_t recorded() const { return head_.load(std::memory_order_relaxed); }
  // Events drained so far (consumer side).
  std::uint64_t consumed() const;
  std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  std::size_t capacity() const { return mask_ + 1; }

 private:
  struct alignas(64) Slot {
    std::atomic<std::uint64_t> seq;
    Event event;
  };
  static_assert(sizeof(Slot) == 64, "one slot per cache line");

  std::unique_ptr<Slot[]> slots_;
  std::size_t mask_;
  alignas(64) std::atomic<std::uint64_t> head_{0};  // next position to reserve
  alignas(64) std::atomic<std::uint64_t> dropped_{0};
  alignas(64) std::uint64_t tail_ = 0;  // next position to drain (consumer only)
  mutable std::mutex consumer_;
  mutable std::mutex pools_m_;
  std::vector<PoolInfo> pools_;
};

template <class Fill>
bool TraceStream::record(Fill&& fill) {
  // A bounded multi-producer ring in the style of Vyukov's: a slot is free for
  // position p when its seq == p, published when seq == p + 1.
  std::uint64_t pos = head_.load(std::memory_order_relaxed);
  Slot* slot;
  for (;;) {
    slot = &slots_[pos & mask_];
    std::uint64_t seq = slot->seq.load(std::memory_order_acquire);
    auto diff = static_cast<std::int64_t>(seq - pos);
    if (diff == 0) {
      // acq_rel: publishes our earlier counter updates to later reservers and
      // sees theirs from earlier reservations (see record()'s comment).
      if (head_.compare_exchange_weak(pos, pos + 1, std::memory_order_acq_rel, std::memory_order_relaxed)) break;
    } else if (diff < 0) {
      dropped_.fetch_add(1, std::memory_order_relaxed);  // full: the consumer is a lap behind
      return false;
    } else {
      pos = head_.load(std::memory_order_relaxed);
    }
  }
  fill(slot->event);
  slot->seq.store(pos + 1, std::memory_order_release);
  return true;
}

}  // namespace poolscope
