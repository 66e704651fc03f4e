// Real time as a clock of pools sees it: piecewise linear in steady_clock's.
// A SteadyClock is one piece (its origin, its scale); an AdjustableClock
// starts a piece at every pause, resume and change of speed. The clock reads
// the current piece without a lock, and a trace stream's consumer turns an
// event's tick into the clock's time with the piece in effect at that tick,
// so recording an event never reads the clock (trace_stream.h, TimeBase).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

namespace poolscope {

struct TimePiece {
  std::int64_t steady0 = 0;  // steady_clock ns (since its epoch) the piece starts at
  std::int64_t time0 = 0;    // the clock's time then (ns since its origin)
  double scale = 1.0;        // clock ns per steady ns from then on; 0 while paused
  std::uint64_t tick0 = 0;   // the trace stream's tick then: which piece an event is in

  std::int64_t at(std::int64_t steady) const {
    const std::int64_t d = steady - steady0;
    if (scale == 1.0) return time0 + d;  // exact, as steady_clock itself
    return time0 + static_cast<std::int64_t>(static_cast<double>(d) * scale);
  }
};

// A clock's pieces, oldest first. Shared (shared_ptr) by the clock and the
// streams that convert its ticks, which may drain after the clock is gone.
class TimePieces {
 public:
  explicit TimePieces(TimePiece first);
  TimePieces(const TimePieces&) = delete;
  TimePieces& operator=(const TimePieces&) = delete;

  static std::int64_t steady_ns();

  // The clock's time now: any thread, no lock. Monotonic for each reader,
  // across a change too: a reader retries if a change began before it
  // finished, so it never returns a time the new piece has already passed.
  std::int64_t now() const;
  // The piece in effect now (no lock).
  TimePiece current() const;
  // Starts a piece now (steady_clock and the trace's tick read together),
  // continuing the current one's time at `scale` (0:
  // paused). One writer at a time (the clock's own lock).
  void start(double scale);
  // Appends to `out` the pieces from index `from` on; returns how many there are.
  std::size_t copy(std::size_t from, std::vector<TimePiece>& out) const;

 private:
  mutable std::mutex m_;  // appends against copies
  std::deque<TimePiece> pieces_;  // appending moves no element: readers hold pointers
  std::atomic<const TimePiece*> current_;  // nullptr while a piece is being started
};

}  // namespace poolscope
