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

}  // namespace poolscope
