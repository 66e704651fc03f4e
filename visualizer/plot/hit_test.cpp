#include "visualizer/plot/hit_test.h"

namespace poolscope::plot {

std::optional<std::size_t> point_at(std::span<const std::int64_t> times, std::int64_t t) {
  auto it = std::upper_bound(times.begin(), times.end(), t);
  if (it == times.begin()) return std::nullopt;
  return static_cast<std::size_t>(it - times.begin() - 1);
}

std::optional<std::size_t> nearest_change(std::span<const std::int64_t> times, std::int64_t end, const TimeMap& map,
                                          double x, double radius) {
  const auto n = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), end) - times.begin());
  const double t = map.to_t(x);
  auto it = std::partition_point(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(n),
                                 [t](std::int64_t v) { return static_cast<double>(v) < t; });
  std::optional<std::size_t> best;
  double best_px = radius;
  auto consider = [&](std::size_t i) {
    double px = std::fabs(map.to_x(static_cast<double>(times[i])) - x);
    if (px <= best_px) {
      best_px = px;
      best = i;
    }
  };
  auto i = static_cast<std::size_t>(it - times.begin());
  if (i > 0) consider(i - 1);
  if (i < n) consider(i);
  return best;
}

void bucket_markers(std::span<const std::int64_t> times, std::int64_t end, const TimeMap& map, float cell,
                    std::vector<Bucket>& out) {
  out.clear();
  auto last = std::upper_bound(times.begin(), times.end(), end);
  auto it = std::partition_point(times.begin(), last, [&](std::int64_t t) { return static_cast<double>(t) < map.t0; });
  while (it != last && static_cast<double>(*it) < map.t1) {
    auto x = static_cast<float>(map.to_x(static_cast<double>(*it)));
    double cell_end = map.to_t(x + cell);
    auto next = std::partition_point(it, last, [&](std::int64_t t) { return static_cast<double>(t) < cell_end; });
    out.push_back({x, static_cast<std::size_t>(it - times.begin()), static_cast<std::size_t>(next - it)});
    it = next;
  }
}

const Bucket* bucket_at(std::span<const Bucket> buckets, float x, float radius) {
  const Bucket* best = nullptr;
  float best_d = radius;
  auto it = std::partition_point(buckets.begin(), buckets.end(), [&](const Bucket& b) { return b.x < x - radius; });
  for (; it != buckets.end() && it->x <= x + radius; ++it) {
    float d = std::fabs(it->x - x);
    if (d <= best_d) {
      best_d = d;
      best = &*it;
    }
  }
  return best;
}

}  // namespace poolscope::plot
