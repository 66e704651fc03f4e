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
// merged (narrower than a pixel, or less than half a pixel apart).
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

// The spans of the slices on screen up to `now`. Slices narrower than a
// pixel merge with the others starting in the same pixel column, and a gap
// narrower than half a pixel (invisible anyway) does not split a span: the
// rectangles drawn stay proportional to the pixels, not to the tasks.
template <TimeSlice Slice>
void visible_spans(std::span<const Slice> slices, std::int64_t now, const TimeMap& map, std::vector<Span>& out) {
  out.clear();
  auto begin = slices.begin();
  auto stop = std::partition_point(begin, slices.end(), [&](const Slice& s) { return s.start <= now; });
  auto it = std::partition_point(begin, stop, [&](const Slice& s) { return slice_end(s, now) < map.t0; });
  auto x_of = [&](std::int64_t t) { return static_cast<float>(map.to_x(static_cast<double>(t))); };
  // Takes the slice at `it` (with, when it is narrower than a pixel, every
  // other slice starting in its pixel column) and returns where it ends.
  auto take = [&](float x0) {
    float x1 = x_of(slice_end(*it, now));
    if (x1 - x0 >= 1) {
      ++it;
      return x1;
    }
    double column_end = map.to_t(std::floor(x0) + 1);
    auto next =
        std::partition_point(it, stop, [&](const Slice& s) { return static_cast<double>(s.start) < column_end; });
    it = next;
    return std::max(x0 + 1, x_of(slice_end(*(next - 1), now)));
  };
  while (it != stop && static_cast<double>(it->start) < map.t1) {
    const auto first = it;
    const float x0 = x_of(it->start);
    float x1 = take(x0);
    while (it != stop && static_cast<double>(it->start) < map.t1 && x_of(it->start) < x1 + 0.5f)
      x1 = std::max(x1, take(x_of(it->start)));
    out.push_back({x0, x1, static_cast<std::size_t>(first - begin), static_cast<std::size_t>(it - first)});
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
