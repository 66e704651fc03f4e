// What the views read to draw one frame, whichever session (a live run or a
// replayed file) provides it.
#pragma once

#include <cstdint>
#include <span>

#include "scenarios/engine/metrics.h"
#include "visualizer/model/trace_index.h"

namespace poolscope::gui {

struct Frame {
  const metrics::RunMetrics& metrics;  // everything there is (a replay's whole run)
  const TraceIndex& index;             // the same, indexed for drawing
  std::span<const Event> events;       // in the order they happened, each pool's in its own order
  // The newest moment to draw: the run's clock, or the replay cursor. A
  // replay draws nothing after it; a live run has nothing after it.
  std::int64_t now;
  bool replay;
  // The metrics as of `now`, for the comparison table and the explain panel
  // (a replay's are rebuilt up to the cursor; a live run's are `metrics`).
  const metrics::RunMetrics& at_now;
};

}  // namespace poolscope::gui
