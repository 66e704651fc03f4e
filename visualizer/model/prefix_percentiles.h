// A replay's latency percentiles as of its cursor, kept up to date as the
// cursor moves instead of copied and sorted again for every refresh of the
// comparison table. A replay knows every latency its run will ever have when
// the file is opened, and the metrics as of the cursor hold the first m of
// each list, in the order they arrived: so each list is ranked once, and a
// Fenwick tree counts the ranks of the first m. Moving m by one and finding
// the k-th smallest take O(log n). The figures are exactly the runner's: the
// same nearest rank (metrics::percentiles_by_rank) picks the same sample.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "scenarios/engine/metrics.h"

namespace poolscope::gui {

// The percentiles of the first m of a list of values known in advance.
class PrefixPercentiles {
 public:
  PrefixPercentiles() = default;
  // Every value the list will hold, in the order they arrive.
  explicit PrefixPercentiles(std::span<const std::int64_t> values);

  std::size_t size() const { return rank_.size(); }
  // How many of the first values are counted.
  std::size_t count() const { return count_; }
  // Counts the first m values (at most size()): adds the new ones or removes
  // the last ones, or counts again from nothing where that is cheaper.
  void set_count(std::size_t m);
  metrics::Percentiles percentiles() const;

 private:
  void recount(std::size_t m);
  // The k-th smallest (0-based) of the values counted.
  std::int64_t kth(std::size_t k) const;

  std::vector<std::int64_t> sorted_;  // every value, ascending
  std::vector<std::uint32_t> rank_;   // rank_[i]: where value i is in sorted_ (ties in arrival order)
  // sum_[m]: the first m values summed in arrival order, as the runner sums them.
  std::vector<double> sum_;
  std::vector<std::uint32_t> tree_;  // Fenwick tree of counts over ranks, 1-based
  std::size_t count_ = 0;
};

// Every pool's latencies (metrics::Latency), as of the metrics they follow.
class RunPercentiles {
 public:
  RunPercentiles() = default;
  // The whole run's metrics: every value each list will hold.
  explicit RunPercentiles(const metrics::RunMetrics& whole_run);
  // Counts, per pool and latency, as many values as `now` holds (a prefix of the whole run's).
  void follow(const metrics::RunMetrics& now);
  // Fills the percentiles of pool `pool` (by position) into `s`.
  void fill(std::size_t pool, metrics::Summary& s) const;

 private:
  std::vector<std::array<PrefixPercentiles, metrics::kLatencyKinds>> pools_;
};

}  // namespace poolscope::gui
