// Finding what is under the mouse, and grouping what would overlap on screen:
// markers into cells a glyph wide, a worker's task slices into pixel spans.
// Like the step lines, each costs a few binary searches per cell or pixel,
// never a walk over the history.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "visualizer/plot/axis.h"

namespace poolscope::plot {

// --- step series

// The index of the point in effect at `t` (the last one at or before it), if any.
std::optional<std::size_t> point_at(std::span<const std::int64_t> times, std::int64_t t);
// The change nearest to pixel `x` among those at most `radius` px away and not after `end`.
std::optional<std::size_t> nearest_change(std::span<const std::int64_t> times, std::int64_t end, const TimeMap& map,
                                          double x, double radius);

// --- markers

// Markers [first, first + count) share one glyph, drawn at x (the first one's position).
struct Bucket {
  float x;
  std::size_t first, count;
};
// Groups the markers at `times` (non-decreasing) up to `end` into cells `cell` px wide.
void bucket_markers(std::span<const std::int64_t> times, std::int64_t end, const TimeMap& map, float cell,
                    std::vector<Bucket>& out);
// The bucket whose glyph is nearest `x`, at most `radius` px away.
const Bucket* bucket_at(std::span<const Bucket> buckets, float x, float radius);

// --- lanes

// Slices [first, first + count) cover [x0, x1) px; count > 1 when they were
// narrower than a pixel and merged.
struct Span {
  float x0, x1;
  std::size_t first, count;
};

// Any type with `start` and `end` (ns; end < 0 while running), sorted and not
// overlapping, as a worker's task slices are.
template <class Slice>
concept TimeSlice = requires(const Slice& s) {
  { s.start } -> std::convertible_to<std::int64_t>;
  { s.end } -> std::convertible_to<std::int64_t>;
};

// When a slice ends, seen from `now`: a running slice (or one ending after the replay cursor) ends at now.
template <TimeSlice Slice>
std::int64_t slice_end(const Slice& s, std::int64_t now) {
  return s.end < 0 || s.end > now ? now : s.end;
}

// The spans of the slices on screen up to `now`.
template <TimeSlice Slice>
void visible_spans(std::span<const Slice> slices, std::int64_t now, const TimeMap& map, std::vector<Span>& out) {
  out.clear();
  auto begin = slices.begin();
  auto stop = std::partition_point(begin, slices.end(), [&](const Slice& s) { return s.start <= now; });
  auto it = std::partition_point(begin, stop, [&](const Slice& s) { return slice_end(s, now) < map.t0; });
  while (it != stop && static_cast<double>(it->start) < map.t1) {
    auto x0 = static_cast<float>(map.to_x(static_cast<double>(it->start)));
    auto x1 = static_cast<float>(map.to_x(static_cast<double>(slice_end(*it, now))));
    if (x1 - x0 >= 1) {
      out.push_back({x0, x1, static_cast<std::size_t>(it - begin), 1});
      ++it;
      continue;
    }
    // Narrower than a pixel: merge every slice starting in this pixel column.
    double column_end = map.to_t(std::floor(x0) + 1);
    auto next =
        std::partition_point(it, stop, [&](const Slice& s) { return static_cast<double>(s.start) < column_end; });
    x1 = std::max(x0 + 1, static_cast<float>(map.to_x(static_cast<double>(slice_end(*(next - 1), now)))));
    out.push_back({x0, x1, static_cast<std::size_t>(it - begin), static_cast<std::size_t>(next - it)});
    it = next;
  }
}

// The slice running at `t` (up to `now`), if any.
template <TimeSlice Slice>
std::optional<std::size_t> slice_at(std::span<const Slice> slices, std::int64_t now, std::int64_t t) {
  if (t > now) return std::nullopt;
  auto it = std::partition_point(slices.begin(), slices.end(), [&](const Slice& s) { return s.start <= t; });
  if (it == slices.begin() || slice_end(*(it - 1), now) < t) return std::nullopt;
  return static_cast<std::size_t>(it - slices.begin() - 1);
}

}  // namespace poolscope::plot
