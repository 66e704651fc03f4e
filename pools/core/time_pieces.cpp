#include "pools/core/time_pieces.h"

#include <chrono>

#include "pools/core/trace_stream.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace poolscope {

TimePieces::TimePieces(TimePiece first) : pieces_{first}, current_(&pieces_.front()) {
  trace_tick::calibrate();  // a piece's tick is of the same kind as every event's
}

std::int64_t TimePieces::steady_ns() { return std::chrono::steady_clock::now().time_since_epoch().count(); }

std::int64_t TimePieces::now() const {
  for (;;) {
    const TimePiece* p = current_.load(std::memory_order_acquire);
    if (p == nullptr) continue;  // a change is being made: tens of nanoseconds
    const std::int64_t s = steady_ns();
#if defined(__x86_64__) || defined(__i386__)
    // The second look must not be done before the clock was read (the read
    // ends in rdtsc, which later loads may overtake).
    _mm_lfence();
#endif
    // Unchanged since before the clock was read: no change began before it,
    // so the new piece (which starts after that) has not passed this time.
    if (current_.load(std::memory_order_acquire) == p) return p->at(s);
  }
}

TimePiece TimePieces::current() const {
  for (;;)
    if (const TimePiece* p = current_.load(std::memory_order_acquire)) return *p;
}

void TimePieces::start(double scale) {
  std::lock_guard g(m_);
  const TimePiece& old = pieces_.back();
  // Readers retry from here on; the new piece's start is read after they can
  // see that (a sequentially consistent store is a full barrier).
  current_.store(nullptr, std::memory_order_seq_cst);
  const std::uint64_t tick = trace_tick::now();
  const std::int64_t s = steady_ns();
  pieces_.push_back(TimePiece{s, old.at(s), scale, tick});
  current_.store(&pieces_.back(), std::memory_order_release);
}

std::size_t TimePieces::copy(std::size_t from, std::vector<TimePiece>& out) const {
  std::lock_guard g(m_);
  for (std::size_t i = from; i < pieces_.size(); ++i) out.push_back(pieces_[i]);
  return pieces_.size();
}

}  // namespace poolscope
