// The trace stream: every Event of every pool of a run, for one consumer.
//
// Each producing thread records into its own queue (a chain of fixed-size
// blocks taken from the stream's preallocated pool), so the hot path writes
// only memory that thread owns: no compare-and-swap on a shared head, no lock,
// nothing allocated per event. Every event carries a tick (an ordered read of
// the CPU's time-stamp counter where the kernel trusts it across cores, else
// steady_clock), and the single consumer (the engine, the GUI or a test)
// merges the queues by tick. It also derives each pool's counters from the
// events' changes, so producers never read shared gauges.
//
// The stream's promises (docs/architecture.md, "The trace stream"):
//  - every event recorded is drained once, or counted in dropped(): when no
//    block is free (the consumer fell behind), the event is not written and is
//    counted, never lost silently;
//  - one thread's events come out in the order it recorded them; events of
//    different threads in tick order, and an event that causally follows
//    another (a task's start after its submission, whatever threads record
//    them) comes after it;
//  - each event's counters are the pool's gauges after the change, summed by
//    the consumer in that order, so the last event of a quiescent pool shows
//    its true state.
#pragma once

#include <atomic>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <mutex>
#include <string>
#include <vector>

#include "pools/core/event.h"
#include "pools/core/time_pieces.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace poolscope {

struct PoolInfo {
  PoolId id;
  std::string name;    // as the run calls it ("fasthttp", "ants-prealloc", ...)
  std::string design;  // the registry design it was built from
};

// The stream's merge key: a tick that is monotonic and ordered across cores.
namespace trace_tick {
namespace detail {
extern bool use_tsc;  // set once by calibrate(), before any stream exists
}
// Decides and calibrates once per process (thread-safe); every TraceStream
// calls it on construction, so any thread that records has seen it.
void calibrate();
// True if ticks are the CPU's time-stamp counter (the kernel's clocksource is
// "tsc": it keeps the counters of all cores in step); false: steady_clock ns.
bool is_tsc();
// Nanoseconds per tick (1 for steady_clock), measured against steady_clock.
double ns_per_tick();
// One tick. `lfence` first: rdtsc alone may execute before the loads that
// precede it (measured on this project's machine: a thread handed a token by
// another stamped up to 35 ns *before* the sender's stamp), which would put
// causally linked events out of order. Linux's own clock reads do the same.
inline std::uint64_t now() {
#if defined(__x86_64__) || defined(__i386__)
  if (detail::use_tsc) {
    _mm_lfence();
    return __rdtsc();
  }
#endif
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}
}  // namespace trace_tick

// How the consumer turns a pool's ticks into its clock's time, for pools on
// real time (a SteadyClock, or the engine's AdjustableClock that can pause
// and change speed): the clock's pieces, each a line through steady_clock's
// time (time_pieces.h), which the consumer knows at every tick from the
// tick's rate and an anchor it takes per drain. Pools on any other clock (a
// ManualClock, a virtual one) read it for every event and carry the time
// themselves (no pieces).
struct TimeBase {
  std::shared_ptr<const TimePieces> pieces;
};

class TraceStream {
 public:
  // `capacity` events are buffered between drains, in blocks (rounded up).
  // Each thread that records holds one block while it lives, so a stream
  // holds at most capacity / block_events() recording threads at once; the
  // events of a thread beyond that are dropped (and counted).
  explicit TraceStream(std::size_t capacity = std::size_t{1} << 18);
  ~TraceStream();
  TraceStream(const TraceStream&) = delete;
  TraceStream& operator=(const TraceStream&) = delete;

  // Registers a source of events; returns the id its events carry.
  PoolId add_pool(std::string name, std::string design, TimeBase base = {});
  std::vector<PoolInfo> pools() const;

  // What a producer hands over: an Event's fields, without counters, plus the
  // merge key and the change it makes to the pool's gauges (each -1, 0 or +1).
  // It is not stored as it is: see Slot.
  struct Record {
    std::uint64_t tick;
    std::int64_t time;  // 0 for a pool whose time comes from the tick
    TaskId task;
    std::int64_t arg;
    std::int32_t arg2;
    WorkerId worker;
    PoolId pool;
    Label rule;
    EventKind kind;
    std::int8_t d_workers, d_busy, d_queued, d_blocked;
  };

  // Producer side, any thread: writes `r` into this thread's own queue and
  // publishes it. Returns false if it was dropped (no free block).
  bool record(const Record& r);
  // For tests and raw producers: calls fill(Event&) on a fresh event and
  // records it, stamped now. The event's counters are ignored (the consumer
  // derives them; a raw event changes none).
  template <class Fill>
    requires std::invocable<Fill&, Event&>
  bool record(Fill&& fill) {
    Event e;
    fill(e);
    return record(Record{trace_tick::now(), e.time, e.task, e.arg, e.arg2, e.worker, e.pool, e.rule, e.kind, 0, 0, 0,
                         0});
  }

  // Consumer side, one thread at a time: appends up to `max` events to `out`
  // in stream order and frees their blocks; returns how many. Everything
  // published before the call that is at least as old as the newest event
  // seen is included; an event stamped earlier but published after the call
  // (its thread was preempted between stamping and publishing) comes in a
  // later drain, out of tick order.
  std::size_t drain(std::vector<Event>& out, std::size_t max = SIZE_MAX);

  // Events recorded (published) so far, and drained so far.
  std::uint64_t recorded() const;
  std::uint64_t consumed() const;
  std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  // Of them, the events of `pool` (counted for the first kPoolsCounted pools
  // of the stream; a run has at most 64), so that a drop can be shown where
  // it happened.
  static constexpr std::size_t kPoolsCounted = 64;
  std::uint64_t dropped(PoolId pool) const {
    return pool < kPoolsCounted ? dropped_by_pool_[pool].load(std::memory_order_relaxed) : 0;
  }

  // A simulation's promise that nothing is dropped: every thread of a
  // sim::World records on the World's one OS thread, which is also the
  // stream's consumer, and no other thread runs meanwhile. There, a record
  // that finds no free block calls `drain` (which must drain this stream)
  // and takes a block it freed, instead of dropping the event. Only a
  // record on the thread that set it calls it; an empty function unsets it.
  // Set and unset while no other thread records.
  void drain_when_full(std::function<void()> drain);
  // In slots: a common event takes one, an event with its own time (or a
  // large arg, or an arg2) two (Slot).
  std::size_t capacity() const { return block_count_ * block_slots_; }
  std::size_t block_slots() const { return block_slots_; }

  // How a Record is stored: 32 bytes, half a cache line, for the events of a
  // task on a pool whose time comes from the tick; an event that carries
  // its own time (a pool on a ManualClock or a virtual clock), an arg
  // beyond 32 bits or an arg2 is followed by a SlotExtra in
  // the same block. The last slot of a block too short for an event of two
  // is marked kPad, and the event goes to the next block.
  struct Slot {
    std::uint64_t tick;
    TaskId task;
    WorkerId worker;
    std::int32_t arg;  // when `form` is kShort; else in the SlotExtra
    PoolId pool;
    Label rule;
    EventKind kind;
    std::uint8_t change;  // the gauges' changes: workers, busy, queued, blocked, 2 bits each (+1 biased)
    std::uint8_t form;    // kShort, kLong (a SlotExtra follows) or kPad
    std::uint8_t unused;
  };
  struct SlotExtra {
    std::int64_t time;
    std::int64_t arg;
    std::int32_t arg2;
    std::uint32_t unused0;
    std::uint64_t unused1;
  };
  static_assert(sizeof(Slot) == 32 && sizeof(SlotExtra) == 32, "a slot is half a cache line");
  enum Form : std::uint8_t { kShort, kLong, kPad };

  static constexpr std::uint32_t kNone = 0xFFFFFFFF;

  // One thread's queue: the blocks it filled, oldest first. The producer's
  // fields and the consumer's are on separate cache lines; the consumer
  // reads the producer's line once per drain.
  struct Queue {
    enum State : int { owned, retired, free };
    // The producer's (the owning thread's).
    alignas(64) std::uint32_t block = kNone;  // being filled
    std::uint32_t pos = 0;                    // next slot in it (block_slots_: full, take another)
    std::uint64_t count = 0;                  // events published
    std::atomic<std::uint64_t> published{0};  // = count, for the consumer
    std::atomic<std::uint64_t> last_tick{0};  // of the last event published
    std::atomic<std::uint32_t> first{kNone};  // the first block, once there is one
    // The consumer's.
    alignas(64) std::uint32_t head = kNone;  // being read
    std::uint32_t head_pos = 0;
    std::uint64_t consumed = 0;
    std::atomic<int> state{owned};  // retired by the thread's exit; free once drained
    Queue* next = nullptr;          // in the stream's list (immutable once listed)
  };

 private:
  struct alignas(64) BlockLinks {
    std::atomic<std::uint32_t> next{kNone};       // the queue's next block (set by its producer)
    std::atomic<std::uint32_t> free_next{kNone};  // the free list's next block
  };

  struct Anchor {
    std::uint64_t tick = 0;
    std::int64_t steady = 0;  // steady_clock ns at that tick
  };
  static Anchor anchor_now();

  Queue* queue_for_this_thread();
  Queue* attach();
  Queue* this_thread_queue();
  bool next_block(Queue& q);
  void recycle(Queue& q);
  void to_event(const Slot& r, Event& e);
  std::uint32_t pop_free();
  void push_free(std::uint32_t block);
  Slot* slot(std::uint32_t block, std::uint32_t pos) { return &slots_[std::size_t{block} * block_slots_ + pos]; }
  friend struct ThreadQueues;

  const std::uint64_t uid_;  // never reused: a thread's cached queue names its stream by it
  std::size_t block_slots_;
  std::uint32_t block_count_;
  std::unique_ptr<Slot[]> slots_;
  std::unique_ptr<BlockLinks[]> links_;
  alignas(64) std::atomic<std::uint64_t> free_head_;  // (tag << 32) | block: ABA-safe stack
  alignas(64) std::atomic<std::uint64_t> dropped_{0};
  std::atomic<std::uint64_t> dropped_by_pool_[kPoolsCounted] = {};  // touched only when an event is dropped
  std::function<void()> drain_when_full_;  // and the thread it is for (drain_when_full)
  std::thread::id drain_when_full_thread_;
  bool draining_when_full_ = false;
  alignas(64) std::atomic<Queue*> queues_{nullptr};  // every queue, newest first; freed with the stream

  // Consumer state.
  mutable std::mutex consumer_;
  std::uint64_t consumed_ = 0;
  std::uint64_t recycled_recorded_ = 0;  // events of queues recycled for a new thread
  Anchor anchor_start_, anchor_;          // at construction, at the latest drain
  double ns_per_tick_ = 1.0;
  struct Gauges {
    std::int64_t workers = 0, busy = 0, queued = 0, blocked = 0;
  };
  std::vector<Gauges> gauges_;   // per pool, summed from the events drained
  std::vector<TimeBase> bases_;  // per pool, copied from add_pool's
  // Per pool: its clock's pieces (copied as they come), and for this drain
  // each piece as a line in ticks: time = offset + (tick - anchor_.tick) × mul
  // from tick `from` on (the piece's own tick: exact), kept within the
  // piece's times [lo, hi] (the line is good to about a microsecond).
  struct TickToTime {
    std::size_t seen = 0;  // pieces copied so far
    std::vector<TimePiece> pieces;
    struct Line {
      std::uint64_t from;
      std::int64_t offset;
      double mul;
      std::int64_t lo, hi;
    };
    std::vector<Line> lines;  // empty: the pool carries its own time
  };
  void update_lines(const TimeBase& base, TickToTime& c);
  std::vector<TickToTime> conv_;
  // A queue being merged: its next record, and how many published records
  // are left to read.
  struct Head {
    Queue* q;
    const Slot* cur;
    std::uint64_t left;
  };
  void start(Head& h);
  void advance(Head& h);
  std::vector<Head> heads_;
  std::vector<std::pair<std::uint64_t, std::size_t>> heap_;  // (tick, heads_ index)

  mutable std::mutex pools_m_;
  std::vector<PoolInfo> pools_;
  std::vector<TimeBase> pool_bases_;
};

// The last queue this thread recorded into, and its stream's uid: the hot
// path's whole lookup (trivially destructible, so no TLS guard).
struct TraceQueueCache {
  std::uint64_t uid = 0;
  TraceStream::Queue* queue = nullptr;
};
// This OS thread's. Not inlined: a goroutine (pools/core/goroutines/) moves
// between OS threads at its scheduling points, and g++ may keep an inlined
// thread_local's address across a call (GCC PR 26461), which would then
// write into another thread's queue. A call per event is the price.
TraceQueueCache& trace_queue_cache() noexcept;

inline TraceStream::Queue* TraceStream::this_thread_queue() {
  const TraceQueueCache& c = trace_queue_cache();
  return c.uid == uid_ ? c.queue : queue_for_this_thread();
}

inline bool TraceStream::record(const Record& r) {
  // Each change is -1, 0 or +1: biased by one, it fits in 2 bits.
  const auto change = static_cast<std::uint8_t>((r.d_workers + 1) | (r.d_busy + 1) << 2 | (r.d_queued + 1) << 4 |
                                                (r.d_blocked + 1) << 6);
  const bool fits = r.time == 0 && r.arg2 == 0 && r.arg == static_cast<std::int32_t>(r.arg);
  const std::uint32_t slots = fits ? 1 : 2;
  Queue* q = this_thread_queue();
  if (q == nullptr || (q->pos + slots > block_slots_ && !next_block(*q))) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    if (r.pool < kPoolsCounted) dropped_by_pool_[r.pool].fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  Slot* at = slot(q->block, q->pos);
  *at = Slot{r.tick, r.task, r.worker, fits ? static_cast<std::int32_t>(r.arg) : 0, r.pool, r.rule, r.kind, change,
             fits ? kShort : kLong, 0};
  if (!fits) {
    const SlotExtra extra{r.time, r.arg, r.arg2, 0, 0};
    std::memcpy(at + 1, &extra, sizeof extra);
  }
  q->pos += slots;
  q->last_tick.store(r.tick, std::memory_order_relaxed);
  q->published.store(++q->count, std::memory_order_release);
  return true;
}

}  // namespace poolscope
