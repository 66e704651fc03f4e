#include "pools/core/spin.h"

#include "pools/core/go/park.h"
#include "pools/core/sim/world.h"

namespace poolscope {

bool may_spin() {
  if (sim::active()) [[unlikely]]
    return go::gomaxprocs() > 1;
  static const bool many = go::gomaxprocs() > 1;
  return many;
}

bool sim_spin_until(std::move_only_function<bool()> ready) {
  sim::World& w = *sim::active();
  if (!may_spin()) return ready();
  // Eight rounds of a few microseconds each instead of thousands of pauses:
  // the same CPU held, the same chances for the awaited thread to run.
  constexpr int kRounds = 8;
  for (int i = 0; i < kRounds; ++i) {
    if (ready()) return true;
    w.compute(kSpinBeforePark / kRounds, "spin_until");
  }
  return ready();
}

bool sim_spin_reads(std::int64_t reads, std::move_only_function<bool()> ready) {
  sim::World& w = *sim::active();
  // Eight rounds, as sim_spin_until: the awaited thread gets its chances to
  // run, and the spin ends within an eighth of its length of the moment it could.
  constexpr int kRounds = 8;
  const Nanos round(reads * kBareReadPicos / 1000 / kRounds);
  if (round <= Nanos::zero()) {
    // Too few reads to measure: still a point that costs a yield, so that a
    // loop around it lets virtual time move.
    if (ready()) return true;
    w.yield("spin_reads");
    return ready();
  }
  for (int i = 0; i < kRounds; ++i) {
    if (ready()) return true;
    w.compute(round, "spin_reads");
  }
  return ready();
}

void burn_cpu(Nanos d) {
  if (d <= Nanos::zero()) return;
  if (sim::World* w = sim::active()) [[unlikely]]
    return w->compute(d, "burn_cpu");
  const auto end = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < end) cpu_relax();
}

}  // namespace poolscope
