// Index of this file:
//  - trace_tick: which tick, and how fast it runs
//  - the streams alive, and each thread's queues (retired when it exits)
//  - the producer's slow path: a thread's first event, a new block
//  - the consumer: drain, the two looks, the merge, counters and time
#include "pools/core/trace_stream.h"

#include <algorithm>
#include <bit>
#include <fstream>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <unordered_set>

namespace poolscope {

// --- trace_tick ---------------------------------------------------------------

namespace trace_tick {
namespace detail {
bool use_tsc = false;
}

namespace {
double g_ns_per_tick = 1.0;
std::once_flag g_calibrated;

std::int64_t steady_ns() { return std::chrono::steady_clock::now().time_since_epoch().count(); }

bool kernel_trusts_tsc() {
#if defined(__x86_64__) || defined(__i386__)
  // The kernel checks at boot (and keeps checking) that the TSCs of all CPUs
  // agree before it makes "tsc" its clocksource; kvm-clock, hpet or acpi_pm
  // mean it did not, and raw counters could disagree between cores.
  std::ifstream f("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  return f >> name && name == "tsc";
#else
  return false;
#endif
}
}  // namespace

void calibrate() {
  std::call_once(g_calibrated, [] {
    if (!kernel_trusts_tsc()) return;
    detail::use_tsc = true;
    // 2 ms of spinning, once per process: good to a few parts in 10^5; each
    // stream refines it over its own life (TraceStream::drain).
    const std::int64_t s0 = steady_ns();
    const std::uint64_t k0 = now();
    std::int64_t s1;
    do s1 = steady_ns();
    while (s1 - s0 < 2'000'000);
    const std::uint64_t k1 = now();
    g_ns_per_tick = static_cast<double>(s1 - s0) / static_cast<double>(k1 - k0);
  });
}

bool is_tsc() {
  calibrate();
  return detail::use_tsc;
}

double ns_per_tick() {
  calibrate();
  return g_ns_per_tick;
}
}  // namespace trace_tick

// --- the streams alive, and each thread's queues --------------------------------

namespace {
// Which streams exist, by uid: a thread that exits retires its queues only
// in streams still alive. Taken when a stream is made or destroyed, when a
// thread records into a stream for the first time, and when it exits.
struct Live {
  std::mutex m;
  std::unordered_set<std::uint64_t> uids;
};
Live& live() {
  static Live* l = new Live;  // never destroyed: threads may exit after main
  return *l;
}
std::atomic<std::uint64_t> g_next_uid{1};

// Set once this thread's ThreadQueues is destroyed: a record after that
// (from another thread_local's destructor) is dropped, never written into a
// queue the consumer may already be recycling.
thread_local bool t_queues_gone = false;
thread_local TraceQueueCache t_queue_cache;
}  // namespace

[[gnu::noinline]] TraceQueueCache& trace_queue_cache() noexcept { return t_queue_cache; }

struct ThreadQueues {
  std::vector<std::pair<std::uint64_t, TraceStream::Queue*>> all;
  ~ThreadQueues() {
    t_queues_gone = true;
    t_queue_cache = {};
    std::lock_guard g(live().m);
    for (auto& [uid, q] : all)
      if (live().uids.contains(uid)) q->state.store(TraceStream::Queue::retired, std::memory_order_release);
  }
};

namespace {
thread_local ThreadQueues t_queues;
}

// --- the stream -----------------------------------------------------------------

TraceStream::TraceStream(std::size_t capacity) : uid_(g_next_uid.fetch_add(1)) {
  trace_tick::calibrate();
  // Blocks of up to 64 slots (2 KB); small streams (tests) get smaller
  // blocks, so that they still have a few. At least 2: an event of two slots fits.
  std::size_t want = std::max<std::size_t>(capacity, 2);
  block_slots_ = std::clamp<std::size_t>(std::bit_floor(want / 128 == 0 ? 1 : want / 128), 2, 64);
  std::size_t blocks = (want + block_slots_ - 1) / block_slots_;
  if (blocks >= kNone) throw std::length_error("poolscope: trace stream capacity too large");
  block_count_ = static_cast<std::uint32_t>(blocks);
  // Not zeroed: a block's records are written before they are read, and the
  // pages of blocks never used are never touched.
  slots_ = std::unique_ptr<Slot[]>(new Slot[std::size_t{block_count_} * block_slots_]);
  links_ = std::make_unique<BlockLinks[]>(block_count_);
  for (std::uint32_t b = 0; b < block_count_; ++b)
    links_[b].free_next.store(b + 1 < block_count_ ? b + 1 : kNone, std::memory_order_relaxed);
  free_head_.store(0, std::memory_order_relaxed);  // tag 0, block 0
  anchor_start_ = anchor_now();
  {
    std::lock_guard g(live().m);
    live().uids.insert(uid_);
  }
}

TraceStream::~TraceStream() {
  {
    std::lock_guard g(live().m);
    live().uids.erase(uid_);
  }
  for (Queue* q = queues_.load(std::memory_order_acquire); q != nullptr;) {
    Queue* next = q->next;
    delete q;
    q = next;
  }
}

PoolId TraceStream::add_pool(std::string name, std::string design, TimeBase base) {
  std::lock_guard g(pools_m_);
  if (pools_.size() >= 0xFFFF) throw std::length_error("poolscope: too many pools on one trace stream");
  auto id = static_cast<PoolId>(pools_.size());
  pools_.push_back(PoolInfo{id, std::move(name), std::move(design)});
  pool_bases_.push_back(base);
  return id;
}

std::vector<PoolInfo> TraceStream::pools() const {
  std::lock_guard g(pools_m_);
  return pools_;
}

// --- the producer's slow path ---------------------------------------------------

TraceStream::Queue* TraceStream::queue_for_this_thread() {
  if (t_queues_gone) return nullptr;
  ThreadQueues& mine = t_queues;
  for (auto& [uid, q] : mine.all)
    if (uid == uid_) {
      t_queue_cache = {uid_, q};
      return q;
    }
  Queue* q = attach();
  {
    // Forget the queues of streams that are gone (a test binary makes many).
    std::lock_guard g(live().m);
    std::erase_if(mine.all, [](auto& e) { return !live().uids.contains(e.first); });
  }
  mine.all.emplace_back(uid_, q);
  t_queue_cache = {uid_, q};
  return q;
}

void TraceStream::drain_when_full(std::function<void()> drain) {
  drain_when_full_ = std::move(drain);
  drain_when_full_thread_ = std::this_thread::get_id();
}

// A free queue (a thread's that exited, drained and recycled), else a new one.
TraceStream::Queue* TraceStream::attach() {
  for (Queue* q = queues_.load(std::memory_order_acquire); q != nullptr; q = q->next) {
    int expected = Queue::free;
    if (q->state.load(std::memory_order_relaxed) == Queue::free &&
        q->state.compare_exchange_strong(expected, Queue::owned, std::memory_order_acq_rel))
      return q;
  }
  auto* q = new Queue;
  q->pos = static_cast<std::uint32_t>(block_slots_);
  q->next = queues_.load(std::memory_order_relaxed);
  while (!queues_.compare_exchange_weak(q->next, q, std::memory_order_release, std::memory_order_relaxed)) {
  }
  return q;
}

// The queue's block is full, or too full for the next event (its last slot
// is marked kPad), or it has none: take a free one and link it.
bool TraceStream::next_block(Queue& q) {
  std::uint32_t b = pop_free();
  if (b == kNone && drain_when_full_ && !draining_when_full_ &&
      std::this_thread::get_id() == drain_when_full_thread_) {
    // A simulation: the consumer is this very thread, so it drains now. The
    // block this queue fills is not freed (it has no next block yet).
    draining_when_full_ = true;
    drain_when_full_();
    draining_when_full_ = false;
    b = pop_free();
  }
  if (b == kNone) return false;
  links_[b].next.store(kNone, std::memory_order_relaxed);
  if (q.block == kNone) {
    q.first.store(b, std::memory_order_release);
  } else {
    if (q.pos < block_slots_) slot(q.block, q.pos)->form = kPad;  // published with the next event
    links_[q.block].next.store(b, std::memory_order_release);
  }
  q.block = b;
  q.pos = 0;
  return true;
}

// The free blocks: a stack whose head carries a tag bumped by every change,
// so a pop that read a stale `free_next` fails its compare-and-swap (ABA).
// Producers pop (once per block), the consumer pushes.
std::uint32_t TraceStream::pop_free() {
  std::uint64_t head = free_head_.load(std::memory_order_acquire);
  for (;;) {
    auto b = static_cast<std::uint32_t>(head);
    if (b == kNone) return kNone;
    std::uint64_t next = links_[b].free_next.load(std::memory_order_relaxed);
    std::uint64_t tagged = (((head >> 32) + 1) << 32) | next;
    if (free_head_.compare_exchange_weak(head, tagged, std::memory_order_acq_rel, std::memory_order_acquire))
      return b;
  }
}

void TraceStream::push_free(std::uint32_t b) {
  std::uint64_t head = free_head_.load(std::memory_order_relaxed);
  for (;;) {
    links_[b].free_next.store(static_cast<std::uint32_t>(head), std::memory_order_relaxed);
    std::uint64_t tagged = (((head >> 32) + 1) << 32) | b;
    if (free_head_.compare_exchange_weak(head, tagged, std::memory_order_acq_rel, std::memory_order_relaxed)) return;
  }
}

// --- the consumer ---------------------------------------------------------------

TraceStream::Anchor TraceStream::anchor_now() {
  // The steady_clock read between two ticks: the pair is good to half their gap.
  std::uint64_t k1 = trace_tick::now();
  std::int64_t s = std::chrono::steady_clock::now().time_since_epoch().count();
  std::uint64_t k2 = trace_tick::now();
  return Anchor{k1 + (k2 - k1) / 2, s};
}

// Positions a head at its queue's next unread record (there is one: h.left
// > 0). Blocks are read to their end, or to a kPad, before the next is taken
// (the producer linked it, and marked the pad, before publishing into it); a
// block read to its end goes back to the free list.
void TraceStream::start(Head& h) {
  Queue& q = *h.q;
  if (q.head == kNone) {
    q.head = q.first.load(std::memory_order_acquire);
    q.head_pos = 0;
  } else if (q.head_pos == block_slots_ || slot(q.head, q.head_pos)->form == kPad) {
    std::uint32_t next = links_[q.head].next.load(std::memory_order_acquire);
    push_free(q.head);
    q.head = next;
    q.head_pos = 0;
  }
  h.cur = slot(q.head, q.head_pos);
}

[[gnu::always_inline]] inline void TraceStream::advance(Head& h) {
  Queue& q = *h.q;
  const std::uint32_t n = h.cur->form == kLong ? 2 : 1;
  q.head_pos += n;
  ++q.consumed;
  --h.left;
  h.cur += n;
  if (h.left > 0 && (q.head_pos == block_slots_ || h.cur->form == kPad)) start(h);
}

// A retired queue read to its end: its blocks go back, and it is free for
// the next thread that records into this stream.
void TraceStream::recycle(Queue& q) {
  for (std::uint32_t b = q.head != kNone ? q.head : q.first.load(std::memory_order_acquire); b != kNone;) {
    std::uint32_t next = links_[b].next.load(std::memory_order_acquire);
    push_free(b);
    b = next;
  }
  recycled_recorded_ += q.count;
  q.block = kNone;
  q.pos = static_cast<std::uint32_t>(block_slots_);
  q.count = 0;
  q.published.store(0, std::memory_order_relaxed);
  q.last_tick.store(0, std::memory_order_relaxed);
  q.first.store(kNone, std::memory_order_relaxed);
  q.head = kNone;
  q.head_pos = 0;
  q.consumed = 0;
  q.state.store(Queue::free, std::memory_order_release);
}

// Fills `e` from `r` (and the SlotExtra after it): the time (from the tick,
// for a real-time pool) and the counters (the pool's running sums of the
// records' changes).
[[gnu::always_inline]] inline void TraceStream::to_event(const Slot& r, Event& e) {
  e.task = r.task;
  e.worker = r.worker;
  e.pool = r.pool;
  e.kind = r.kind;
  e.rule = r.rule;
  if (r.form == kLong) {
    SlotExtra x;
    std::memcpy(&x, &r + 1, sizeof x);
    e.time = x.time;
    e.arg = x.arg;
    e.arg2 = x.arg2;
  } else {
    e.time = 0;
    e.arg = r.arg;
    e.arg2 = 0;
  }
  if (r.pool < conv_.size() && !conv_[r.pool].lines.empty()) {
    // The piece in effect at the tick: nearly always the latest.
    const auto& lines = conv_[r.pool].lines;
    auto line = lines.end() - 1;
    if (r.tick < line->from)
      line = std::upper_bound(lines.begin(), line, r.tick, [](std::uint64_t t, const auto& l) { return t < l.from; }) - 1;
    e.time = std::clamp(
        line->offset + static_cast<std::int64_t>(static_cast<double>(static_cast<std::int64_t>(r.tick - anchor_.tick)) * line->mul),
        line->lo, line->hi);
  }
  if (r.pool >= gauges_.size()) gauges_.resize(std::size_t{r.pool} + 1);
  Gauges& g = gauges_[r.pool];
  g.workers += (r.change & 3) - 1;
  g.busy += (r.change >> 2 & 3) - 1;
  g.queued += (r.change >> 4 & 3) - 1;
  g.blocked += (r.change >> 6 & 3) - 1;
  auto clamp = [](std::int64_t v) { return v < 0 ? 0u : static_cast<std::uint32_t>(v); };
  e.counters = Counters{clamp(g.workers), clamp(g.busy), clamp(g.queued), clamp(g.blocked)};
}

// steady(tick) = anchor.steady + (tick - anchor.tick) × ns_per_tick, and a
// piece's time = time0 + (steady - steady0) × scale: per piece, a line in ticks.
void TraceStream::update_lines(const TimeBase& base, TickToTime& c) {
  if (!base.pieces) return;
  c.seen = base.pieces->copy(c.seen, c.pieces);
  c.lines.resize(c.pieces.size());
  for (std::size_t k = 0; k < c.pieces.size(); ++k) {
    const TimePiece& p = c.pieces[k];
    const std::int64_t hi = k + 1 < c.pieces.size() ? c.pieces[k + 1].time0 : std::numeric_limits<std::int64_t>::max();
    // The first piece also takes any tick before it (none: a clock is made
    // before its pools record).
    c.lines[k] = {k == 0 ? 0 : p.tick0, p.at(anchor_.steady), ns_per_tick_ * p.scale, p.time0, hi};
  }
}

std::size_t TraceStream::drain(std::vector<Event>& out, std::size_t max) {
  std::lock_guard g(consumer_);
  {
    std::lock_guard p(pools_m_);
    if (bases_.size() != pool_bases_.size()) bases_ = pool_bases_;
  }
  // The tick's rate, over this stream's whole life once that is long enough
  // (it absorbs the kernel's slewing of steady_clock), and a fresh anchor.
  anchor_ = anchor_now();
  if (anchor_.steady - anchor_start_.steady >= 50'000'000 && anchor_.tick > anchor_start_.tick)
    ns_per_tick_ = static_cast<double>(anchor_.steady - anchor_start_.steady) /
                   static_cast<double>(anchor_.tick - anchor_start_.tick);
  else
    ns_per_tick_ = trace_tick::ns_per_tick();
  conv_.resize(bases_.size());
  for (std::size_t i = 0; i < bases_.size(); ++i) update_lines(bases_[i], conv_[i]);

  // First look: what each queue has published, and the newest tick among it.
  // Every event that causally precedes one of these was published before it
  // was seen, so the second look sees it too, and its tick is not later: the
  // merge below takes everything up to that newest tick, predecessors included.
  std::uint64_t limit = 0;
  bool any = false;
  for (Queue* q = queues_.load(std::memory_order_acquire); q != nullptr; q = q->next) {
    const int state = q->state.load(std::memory_order_acquire);
    if (state == Queue::free) continue;
    const std::uint64_t published = q->published.load(std::memory_order_acquire);
    if (published > q->consumed) {
      limit = std::max(limit, q->last_tick.load(std::memory_order_relaxed));
      any = true;
    } else if (state == Queue::retired) {
      recycle(*q);
    }
  }
  if (!any || max == 0) return 0;

  // Second look, and the merge by tick (ties: the queue listed first). Each
  // queue is in order already, so the merge takes runs: from the queue with
  // the oldest next event, every event up to the second-oldest queue's next.
  heads_.clear();
  for (Queue* q = queues_.load(std::memory_order_acquire); q != nullptr; q = q->next) {
    if (q->state.load(std::memory_order_acquire) == Queue::free) continue;
    const std::uint64_t published = q->published.load(std::memory_order_acquire);
    if (published <= q->consumed) continue;
    heads_.push_back(Head{q, nullptr, published - q->consumed});
    start(heads_.back());
  }
  out.reserve(out.size() + std::min<std::uint64_t>(max, [&] {
                std::uint64_t total = 0;
                for (const Head& h : heads_) total += h.left;
                return total;
              }()));
  std::size_t n = 0;
  auto take_run = [&](Head& h, std::uint64_t until) {
    // Every event of h up to `until` (and the limit), in its order.
    while (n < max && h.cur->tick <= until) {
      to_event(*h.cur, out.emplace_back());
      ++n;
      advance(h);
      if (h.left == 0) return;
    }
  };
  if (heads_.size() <= 8) {
    while (n < max && !heads_.empty()) {
      std::size_t best = 0;
      std::uint64_t second = limit;
      for (std::size_t i = 1; i < heads_.size(); ++i) {
        const std::uint64_t t = heads_[i].cur->tick;
        if (t < heads_[best].cur->tick) {
          second = std::min(second, heads_[best].cur->tick);
          best = i;
        } else {
          second = std::min(second, t);
        }
      }
      Head& h = heads_[best];
      if (h.cur->tick > limit) break;  // and so is every other queue's next event
      take_run(h, second);
      if (h.left == 0) heads_.erase(heads_.begin() + static_cast<std::ptrdiff_t>(best));
    }
  } else {
    // Many queues (hundreds of workers): a heap of their next ticks.
    heap_.clear();
    for (std::size_t i = 0; i < heads_.size(); ++i) heap_.emplace_back(heads_[i].cur->tick, i);
    auto later = [](const std::pair<std::uint64_t, std::size_t>& a, const std::pair<std::uint64_t, std::size_t>& b) {
      return a > b;
    };
    std::make_heap(heap_.begin(), heap_.end(), later);
    while (n < max && !heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      auto [tick, i] = heap_.back();
      heap_.pop_back();
      if (tick > limit) break;
      Head& h = heads_[i];
      take_run(h, heap_.empty() ? limit : std::min(limit, heap_.front().first));
      if (h.left > 0) {
        heap_.emplace_back(h.cur->tick, i);
        std::push_heap(heap_.begin(), heap_.end(), later);
      }
    }
  }
  consumed_ += n;
  return n;
}

std::uint64_t TraceStream::recorded() const {
  std::lock_guard g(consumer_);
  std::uint64_t n = recycled_recorded_;
  for (Queue* q = queues_.load(std::memory_order_acquire); q != nullptr; q = q->next)
    n += q->published.load(std::memory_order_acquire);
  return n;
}

std::uint64_t TraceStream::consumed() const {
  std::lock_guard g(consumer_);
  return consumed_;
}

}  // namespace poolscope
