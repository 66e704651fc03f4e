// What each pool did in a time range, for the GUI's range selection (like
// Perfetto's area select and Tracy's range measure) and its latency
// histograms (like Tracy's find-zone): tasks that ended, refusals, workers
// spawned and reaped in the range, and the queue waits and end-to-end times
// of the tasks that started or ended in it. Plain C++ over the events, so it
// is tested without a GUI.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pools/core/event.h"

namespace poolscope::gui {

struct PoolRange {
  std::uint64_t submitted = 0, ended = 0, threw = 0, refused = 0, dropped = 0, spawned = 0, reaped = 0;
  // Sorted, ns: submitted -> started (or handed to the caller), for tasks
  // started in the range; submitted -> ended, for tasks ended in it.
  std::vector<std::int64_t> waits, end_to_end;
};

// Quantile q of sorted values (the ceil(q n)-th smallest, as the runner's), 0 if none.
std::int64_t quantile(const std::vector<std::int64_t>& sorted, double q);

// Events [first, last] of `events` (in time order, as a run's or a file's
// are) that fall in [t0, t1], per pool (`pools` of them). A task's
// submission may precede the range: the events before t1 are read for it.
std::vector<PoolRange> range_stats(std::span<const Event> events, std::size_t pools, std::int64_t t0,
                                   std::int64_t t1);

// Counts of `sorted` values in `bins` bins spaced evenly in log10 between
// `lo` and `hi` ns (values outside go to the first or last bin).
std::vector<std::uint32_t> log_histogram(const std::vector<std::int64_t>& sorted, std::int64_t lo, std::int64_t hi,
                                         int bins);

}  // namespace poolscope::gui
