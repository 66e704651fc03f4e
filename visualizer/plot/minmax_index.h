// Min and max of any index range of an append-only sequence, without walking
// the range: a pyramid in which each level summarises kFanout entries of the
// level below (values, then blocks of 16, of 256, ...). A query reads at most
// 2 * kFanout entries per level, O(kFanout log n); a push updates one entry
// per level. This is what keeps a plot of a million points proportional to
// its pixels, not its history.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace poolscope::plot {

struct MinMax {
  std::uint32_t min, max;
};

class MinMaxIndex {
 public:
  static constexpr std::size_t kFanout = 16;

  void push(std::uint32_t v);
  void clear();
  std::size_t size() const { return values_.size(); }
  std::uint32_t operator[](std::size_t i) const { return values_[i]; }
  // Over [lo, hi); needs lo < hi <= size().
  MinMax range(std::size_t lo, std::size_t hi) const;

 private:
  std::vector<std::uint32_t> values_;
  std::vector<std::vector<MinMax>> levels_;  // levels_[k][i]: values [i, i + 1) * kFanout^(k+1)
};

}  // namespace poolscope::plot
