// What the views read to draw one frame, whichever session (a live run or a
// replayed file) provides it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "scenarios/engine/metrics.h"
#include "visualizer/model/prefix_percentiles.h"
#include "visualizer/model/trace_index.h"

namespace poolscope::gui {

// How late a pool's submissions were against their schedule (a submitter
// blocked inside Submit delays the arrivals behind it). Not in the trace: the
// engine measures it per submitter, so it is known for a whole run only (a
// replay's file, a live run once it ended).
struct SubmitLateness {
  bool known = false;
  std::int64_t p99 = 0, max = 0;  // ns
};

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
  // When the scenario's last phase ends (its workload; the pools are shut
  // down after it), -1 if unknown: "workers at the end of the workload", as
  // the runner's "workers final", is read there.
  std::int64_t workload_end = -1;
  // Per pool (by position), if known; else empty.
  std::span<const SubmitLateness> lateness = {};
  // at_now is behind `now`: a replay's metrics are still being rebuilt.
  bool at_now_behind = false;
  // at_now's latency percentiles, kept up to date as events arrive (a
  // replay); null: the table sorts at_now's latencies for them (a live run).
  const RunPercentiles* percentiles = nullptr;
};

}  // namespace poolscope::gui
