#include "pools/core/spin.h"

#include "pools/core/go/park.h"

namespace poolscope {

bool may_spin() {
  if (this_thread::scheduler()) [[unlikely]]
    return go::gomaxprocs() > 1;
  static const bool many = go::gomaxprocs() > 1;
  return many;
}

bool scheduled_spin_until(Scheduler& s, std::move_only_function<bool()> ready) {
  // A goroutine runtime parks the waiter at once; its OS thread is what
  // spins, looking for other work (Scheduler::parallel).
  if (!may_spin() || s.parallel()) return ready();
  // Eight rounds of a few microseconds each instead of thousands of pauses:
  // the same CPU held, the same chances for the awaited thread to run.
  constexpr int kRounds = 8;
  for (int i = 0; i < kRounds; ++i) {
    if (ready()) return true;
    s.compute(kSpinBeforePark / kRounds, "spin_until");
  }
  return ready();
}

bool scheduled_spin_reads(Scheduler& s, std::int64_t reads, std::move_only_function<bool()> ready) {
  // Eight rounds, as scheduled_spin_until: the awaited thread gets its chances to
  // run, and the spin ends within an eighth of its length of the moment it could.
  constexpr int kRounds = 8;
  const Nanos round(reads * kBareReadPicos / 1000 / kRounds);
  if (round <= Nanos::zero()) {
    // Too few reads to measure: still a point that costs a yield, so that a
    // loop around it lets virtual time move.
    if (ready()) return true;
    s.yield("spin_reads");
    return ready();
  }
  for (int i = 0; i < kRounds; ++i) {
    if (ready()) return true;
    s.compute(round, "spin_reads");
  }
  return ready();
}

void burn_cpu(Nanos d) {
  if (d <= Nanos::zero()) return;
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return s->compute(d, "burn_cpu");
  const auto end = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < end) cpu_relax();
}

}  // namespace poolscope
