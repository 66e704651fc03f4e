#include "visualizer/model/prefix_percentiles.h"

#include <algorithm>
#include <bit>
#include <utility>

namespace poolscope::gui {

PrefixPercentiles::PrefixPercentiles(std::span<const std::int64_t> values) {
  const std::size_t n = values.size();
  // Ranked by value, ties by arrival: every value gets a rank of its own.
  std::vector<std::pair<std::int64_t, std::uint32_t>> by_value(n);
  for (std::size_t i = 0; i < n; ++i) by_value[i] = {values[i], static_cast<std::uint32_t>(i)};
  std::sort(by_value.begin(), by_value.end());
  sorted_.resize(n);
  rank_.resize(n);
  for (std::size_t r = 0; r < n; ++r) {
    sorted_[r] = by_value[r].first;
    rank_[by_value[r].second] = static_cast<std::uint32_t>(r);
  }
  sum_.resize(n + 1);
  sum_[0] = 0;
  for (std::size_t i = 0; i < n; ++i) sum_[i + 1] = sum_[i] + static_cast<double>(values[i]);
  tree_.assign(n + 1, 0);
}

void PrefixPercentiles::set_count(std::size_t m) {
  m = std::min(m, size());
  // Adding or removing k values costs k log n; counting from nothing costs n
  // (a jump from near the start to the end: 20 ms one at a time).
  const std::size_t moved = m > count_ ? m - count_ : count_ - m;
  if (moved * static_cast<std::size_t>(std::bit_width(size())) > size()) recount(m);
  for (; count_ < m; ++count_)
    for (std::size_t i = rank_[count_] + 1; i < tree_.size(); i += i & -i) ++tree_[i];
  for (; count_ > m; --count_)
    for (std::size_t i = rank_[count_ - 1] + 1; i < tree_.size(); i += i & -i) --tree_[i];
}

void PrefixPercentiles::recount(std::size_t m) {
  std::fill(tree_.begin(), tree_.end(), 0);
  for (std::size_t i = 0; i < m; ++i) tree_[rank_[i] + 1] = 1;
  // Each node passes its sum up to its parent: a Fenwick tree in O(n).
  for (std::size_t i = 1; i < tree_.size(); ++i)
    if (std::size_t up = i + (i & -i); up < tree_.size()) tree_[up] += tree_[i];
  count_ = m;
}

std::int64_t PrefixPercentiles::kth(std::size_t k) const {
  // Descends to the last rank with at most k values counted below it.
  std::size_t at = 0;
  auto left = static_cast<std::uint32_t>(k);
  for (std::size_t step = std::bit_floor(size()); step > 0; step >>= 1)
    if (at + step <= size() && tree_[at + step] <= left) {
      at += step;
      left -= tree_[at];
    }
  return sorted_[at];
}

metrics::Percentiles PrefixPercentiles::percentiles() const {
  return metrics::percentiles_by_rank(count_, sum_[count_], [this](std::size_t k) { return kth(k); });
}

RunPercentiles::RunPercentiles(const metrics::RunMetrics& whole_run) {
  for (const metrics::PoolMetrics& p : whole_run.pools()) {
    auto& lists = pools_.emplace_back();
    for (metrics::Latency k : metrics::kLatencies)
      lists[static_cast<std::size_t>(k)] = PrefixPercentiles(p.latencies(k));
  }
}

void RunPercentiles::follow(const metrics::RunMetrics& now) {
  for (std::size_t p = 0; p < pools_.size(); ++p)
    for (metrics::Latency k : metrics::kLatencies)
      pools_[p][static_cast<std::size_t>(k)].set_count(p < now.pools().size() ? now.pools()[p].latencies(k).size()
                                                                               : 0);
}

void RunPercentiles::fill(std::size_t pool, metrics::Summary& s) const {
  for (metrics::Latency k : metrics::kLatencies)
    s.latency(k) = pool < pools_.size() ? pools_[pool][static_cast<std::size_t>(k)].percentiles() : metrics::Percentiles{};
}

}  // namespace poolscope::gui
