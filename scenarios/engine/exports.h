// Other views of a run for other tools: the Chrome Trace Event format (opens
// in Perfetto and chrome://tracing) and CSV time series (spreadsheets, plots).
#pragma once

#include <filesystem>
#include <ostream>

#include "scenarios/engine/engine.h"

namespace poolscope::scenario {

// A process per pool, a thread track per worker with its tasks as slices,
// instant events for spawns, reaps, exits, refusals, drops and other rule
// firings (with the rule's code and text), and counter tracks for workers,
// busy, idle, queued and blocked. Timestamps in µs from each pool's start.
void write_chrome_trace(std::ostream& out, const Scenario& scenario, const metrics::RunMetrics& metrics);

// One file per pool in `dir` (created if missing), named after the pool:
// every change of its counters, "t_s,workers,busy,idle,queued,blocked".
// Returns the files written.
std::vector<std::filesystem::path> write_csv_series(const std::filesystem::path& dir,
                                                    const metrics::RunMetrics& metrics);

}  // namespace poolscope::scenario
