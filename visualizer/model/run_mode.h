// Which kind of run is on screen: real threads, or the deterministic
// simulation on its modelled machine and schedule. A simulated figure is a
// figure of the model (docs/simulation.md), so the GUI always says which
// one it shows, for a live run and for a replayed file alike.
#pragma once

#include <cstdint>
#include <string>

#include "pools/core/params.h"
#include "pools/core/sim/machine.h"

namespace poolscope::gui {

struct RunMode {
  bool simulated = false;
  std::uint64_t seed = 0;
  int cpus = 0;
  std::string costs;   // the preset's name, or the spec with its overrides
  std::string policy;  // random, pct, fifo

  static RunMode real() { return {}; }
  static RunMode of(const sim::Settings& s);
  // A result's, from its run.simulation (absent: real threads).
  static RunMode of_result(const json& run);

  // "SIMULATED (seed 29, 2 CPUs, os-threads)", the policy added when it is
  // not the default random ("..., pct)"); or "REAL threads".
  std::string badge() const;
};

}  // namespace poolscope::gui
