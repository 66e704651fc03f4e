#include "visualizer/plot/minmax_index.h"

#include <algorithm>

namespace poolscope::plot {

namespace {

void merge(MinMax& into, MinMax v) {
  into.min = std::min(into.min, v.min);
  into.max = std::max(into.max, v.max);
}

}  // namespace

void MinMaxIndex::push(std::uint32_t v) {
  std::size_t i = values_.size();
  values_.push_back(v);
  if (levels_.empty()) levels_.emplace_back();
  for (std::size_t k = 0;; ++k) {
    i /= kFanout;
    std::vector<MinMax>& level = levels_[k];
    if (i == level.size())
      level.push_back({v, v});
    else
      merge(level[i], {v, v});
    if (level.size() == 1) break;  // this level sums up everything: none above it is needed yet
    if (k + 1 == levels_.size()) {
      // The level just outgrew one entry: build the one above from it, once.
      std::vector<MinMax> above;
      for (std::size_t j = 0; j < level.size(); ++j) {
        if (j % kFanout == 0)
          above.push_back(level[j]);
        else
          merge(above.back(), level[j]);
      }
      levels_.push_back(std::move(above));
      break;
    }
  }
}

void MinMaxIndex::clear() {
  values_.clear();
  levels_.clear();
}

MinMax MinMaxIndex::range(std::size_t lo, std::size_t hi) const {
  MinMax r{values_[lo], values_[lo]};
  // Level -1 is the values themselves; walk up while the range spans whole blocks.
  auto entry = [&](int level, std::size_t j) {
    return level < 0 ? MinMax{values_[j], values_[j]} : levels_[static_cast<std::size_t>(level)][j];
  };
  int level = -1;
  while (lo < hi) {
    bool top = level + 1 >= static_cast<int>(levels_.size());
    if (top || hi - lo <= 2 * kFanout) {
      for (std::size_t j = lo; j < hi; ++j) merge(r, entry(level, j));
      break;
    }
    std::size_t head = (lo + kFanout - 1) / kFanout * kFanout, tail = hi / kFanout * kFanout;
    for (std::size_t j = lo; j < head; ++j) merge(r, entry(level, j));
    for (std::size_t j = tail; j < hi; ++j) merge(r, entry(level, j));
    lo = head / kFanout;
    hi = tail / kFanout;
    ++level;
  }
  return r;
}

}  // namespace poolscope::plot
